/* tacet/blk_seal.h: sealed sectors, so that a client of the block service finds out when the
 * disk does not hold what it wrote there. A driver with a bug (or a fault thrown into it) can
 * write a sector's data to another sector, write other data, or say it wrote and not write:
 * the service cannot see its own mistakes, and a read of that sector then succeeds with the
 * wrong data. A sealed sector carries its own check, made by the client before the data left
 * it and checked by the client when it comes back, end to end (the idea of T10's protection
 * information, in the sector itself because virtio-blk has no room beside it):
 *
 *   bytes   0..495  the data (BLK_SEAL_DATA bytes)
 *   bytes 496..499  CRC-32C (Castagnoli) of the data, then of bytes 500..511
 *   bytes 500..503  the generation the writer gave this write (little-endian)
 *   bytes 504..511  the sector's own number (little-endian)
 *
 * A check finds wrong data (the CRC), data written to the wrong sector (the number), a sector
 * never sealed (the CRC of zeros is not zero), and, if the caller knows which generation it
 * wrote last, a write that never landed (an older generation). Pure functions, no state, any
 * thread; tacet_blk_read_sealed and tacet_blk_write_sealed (<tacet/blk.h>) use them. */
#ifndef TACET_BLK_SEAL_H
#define TACET_BLK_SEAL_H

#include <stddef.h>
#include <stdint.h>

#define BLK_SEAL_SECTOR 512u
#define BLK_SEAL_BYTES  16u
#define BLK_SEAL_DATA   (BLK_SEAL_SECTOR - BLK_SEAL_BYTES)

/* Why a sector failed its check (struct blk_seal_fault.why). */
enum blk_seal_why {
	BLK_SEAL_OK = 0,
	BLK_SEAL_CRC,      /* the data or the seal is not what was sealed (or never sealed) */
	BLK_SEAL_ELSEWHERE, /* a sealed sector, but of another sector: written to the wrong one */
	BLK_SEAL_STALE,    /* sealed with an older generation than the caller's minimum */
};

struct blk_seal_fault {
	unsigned long index; /* the first sector that failed, from the first one checked */
	enum blk_seal_why why;
	uint64_t named;      /* the sector number its seal names (BLK_SEAL_ELSEWHERE) */
	uint32_t gen;        /* the generation its seal names */
};

/* CRC-32C of n bytes at p, continuing crc (0 to start). */
uint32_t blk_crc32c(uint32_t crc, const void *p, size_t n);

/* Seal count sectors at buf, each's data already in its first BLK_SEAL_DATA bytes, for the
 * sectors from `sector` on, with generation gen. */
void blk_seal(void *buf, uint64_t sector, unsigned long count, uint32_t gen);

/* Check count sealed sectors at buf, read from the sectors from `sector` on: 0 when each holds
 * its seal, names its own number and a generation of at least min_gen; else -TACET_ECORRUPT,
 * the first failure in *f (if f). gens (if not NULL) gets each sector's generation. */
long blk_seal_check(const void *buf, uint64_t sector, unsigned long count, uint32_t min_gen,
		    uint32_t *gens, struct blk_seal_fault *f);

#endif
