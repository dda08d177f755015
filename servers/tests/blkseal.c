/* blkseal: lib's sealed sectors (<tacet/blk_seal.h>) through the real block service, on the
 * test disk (build/blk-test.img, snapshot=on): what a client sees when the disk does not hold
 * what it wrote. Sectors 10-13 written sealed and read back clean; then the driver's possible
 * mistakes, made here by raw (unsealed) writes: sector 10's sealed bytes written to sector 20
 * (a write that went to the wrong place), a byte of sector 11 changed, sector 12's older
 * generation put back (a write that never landed); and sector 30, never sealed. Each sealed
 * read must say -TACET_ECORRUPT with the reason. Prints a PASS/FAIL line each, then asks init
 * to power off (status 0 if every check passed). One thread; no locking. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/blk.h>

#define SECTOR BLK_SEAL_SECTOR

static struct tacet_blk b;
static uint8_t *buf;
static int failures;

static void check(int ok, const char *what)
{
	printf("blkseal: %s: %s\n", what, ok ? "PASS" : "FAIL");
	failures += !ok;
}

/* A sealed read of `sector` (generation at least min_gen) failed for `why`? */
static int refused(uint64_t sector, uint32_t min_gen, enum blk_seal_why why)
{
	struct blk_seal_fault f;
	long err = tacet_blk_read_sealed(&b, sector, 1, 0, min_gen, &f);

	return err == -TACET_ECORRUPT && f.why == why && f.index == 0;
}

static void clean(void)
{
	struct blk_seal_fault f;

	for (unsigned int i = 0; i < 4 * SECTOR; i++)
		buf[i] = (uint8_t)(i * 31 + 7);
	check(tacet_blk_write_sealed(&b, 10, 4, 0, 1) == 0, "sectors 10-13 written sealed");
	memset(buf, 0, 4 * SECTOR);
	check(tacet_blk_read_sealed(&b, 10, 4, 0, 1, &f) == 0 && buf[0] == 7 &&
		      buf[3 * SECTOR + 5] == (uint8_t)((3 * SECTOR + 5) * 31 + 7),
	      "sectors 10-13 read back sealed, data intact");
	check(tacet_blk_write_sealed(&b, 12, 1, 0, 2) == 0 &&
		      tacet_blk_read_sealed(&b, 12, 1, 0, 2, &f) == 0,
	      "sector 12 written again (generation 2), read back");
}

static void mistakes(void)
{
	uint8_t old12[SECTOR];

	check(tacet_blk_read(&b, 10, 1, 0) == 0 && tacet_blk_write(&b, 20, 1, 0) == 0 &&
		      refused(20, 0, BLK_SEAL_ELSEWHERE),
	      "sector 10's data written to sector 20: refused, another sector's");
	check(tacet_blk_read(&b, 11, 1, 0) == 0 && (buf[100] ^= 1, 1) &&
		      tacet_blk_write(&b, 11, 1, 0) == 0 && refused(11, 0, BLK_SEAL_CRC),
	      "a bit of sector 11 flipped: refused, its data");
	blk_seal(memset(old12, 0x5a, SECTOR), 12, 1, 1); /* what generation 1 had been */
	memcpy(buf, old12, SECTOR);
	check(tacet_blk_write(&b, 12, 1, 0) == 0 &&
		      tacet_blk_read_sealed(&b, 12, 1, 0, 1, NULL) == 0 &&
		      refused(12, 2, BLK_SEAL_STALE),
	      "sector 12 back at generation 1: fine for at least 1, refused for at least 2 "
	      "(stale)");
	check(refused(30, 0, BLK_SEAL_CRC), "sector 30, never sealed: refused");
	check(tacet_blk_read_sealed(&b, 13, 1, 0, 1, NULL) == 0,
	      "sector 13, untouched by all that, still reads sealed");
}

int main(void)
{
	long err = tacet_blk_open(&b, 4 * SECTOR, 5000);

	if (err) {
		printf("blkseal: cannot open the block service: %s\n", tacet_strerror(err));
		tacet_poweroff(1);
		return 1;
	}
	buf = (uint8_t *)b.buf.va;
	clean();
	mistakes();
	printf("blkseal: %s\n", failures ? "FAIL" : "every check passed");
	tacet_poweroff(failures != 0);
	return failures != 0;
}
