/* blk_seal.c: sealed sectors (<tacet/blk_seal.h>): CRC-32C, the seal, its check. Pure
 * functions over the caller's memory; no state, no locks. */
#include <tacet/abi.h>
#include <tacet/blk_seal.h>

/* CRC-32C's reflected polynomial 0x82f63b78, four bits at a time: entry i is i's remainder. */
static const uint32_t crc_nibble[16] = {
	0x00000000, 0x105ec76f, 0x20bd8ede, 0x30e349b1, 0x417b1dbc, 0x5125dad3,
	0x61c69362, 0x7198540d, 0x82f63b78, 0x92a8fc17, 0xa24bb5a6, 0xb21572c9,
	0xc38d26c4, 0xd3d3e1ab, 0xe330a81a, 0xf36e6f75,
};

uint32_t blk_crc32c(uint32_t crc, const void *p, size_t n)
{
	const uint8_t *b = p;

	crc = ~crc;
	while (n--) {
		crc ^= *b++;
		crc = (crc >> 4) ^ crc_nibble[crc & 15];
		crc = (crc >> 4) ^ crc_nibble[crc & 15];
	}
	return ~crc;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (unsigned int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The seal's CRC: the data, then the generation and the sector number as they are stored. */
static uint32_t seal_crc(const uint8_t *s)
{
	return blk_crc32c(blk_crc32c(0, s, BLK_SEAL_DATA), s + BLK_SEAL_DATA + 4,
			  BLK_SEAL_BYTES - 4);
}

void blk_seal(void *buf, uint64_t sector, unsigned long count, uint32_t gen)
{
	for (unsigned long i = 0; i < count; i++) {
		uint8_t *s = (uint8_t *)buf + i * BLK_SEAL_SECTOR, *t = s + BLK_SEAL_DATA;

		put32(t + 4, gen);
		put32(t + 8, (uint32_t)(sector + i));
		put32(t + 12, (uint32_t)((sector + i) >> 32));
		put32(t, seal_crc(s));
	}
}

long blk_seal_check(const void *buf, uint64_t sector, unsigned long count, uint32_t min_gen,
		    uint32_t *gens, struct blk_seal_fault *f)
{
	struct blk_seal_fault first = { 0 };

	for (unsigned long i = 0; i < count; i++) {
		const uint8_t *s = (const uint8_t *)buf + i * BLK_SEAL_SECTOR;
		const uint8_t *t = s + BLK_SEAL_DATA;
		uint64_t named = get32(t + 8) | (uint64_t)get32(t + 12) << 32;
		uint32_t gen = get32(t + 4);
		enum blk_seal_why why = get32(t) != seal_crc(s) ? BLK_SEAL_CRC :
					named != sector + i   ? BLK_SEAL_ELSEWHERE :
					gen < min_gen         ? BLK_SEAL_STALE : BLK_SEAL_OK;

		if (gens)
			gens[i] = gen;
		if (why && !first.why)
			first = (struct blk_seal_fault){ i, why, named, gen };
	}
	if (f)
		*f = first;
	return first.why ? -TACET_ECORRUPT : 0;
}
