/* blkvictim: an ordinary client of the block service, the victim of a hostile one
 * (tests/qemu/cases_virtio.py, blk-mmio-frame). It waits for the name "blkmmio", which the
 * attacker publishes once its attack is over, then opens "blk" with lib's client and, on the
 * disk the Makefile makes (byte i of sector n is (13 n + i) % 251), reads sectors 0-7 with
 * eight requests in flight at once, writes a pattern to sectors 8-15, reads them back, and
 * checks every byte. Then it asks init to power off (status 0 if every check passed). Its
 * waits end after lib's timeout (10 s): a device the attacker broke would leave them
 * unanswered, and the victim says so rather than hang. One thread. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/blk.h>
#include <tacet/init_proto.h>

static int failures;

static void check(int ok, const char *what)
{
	printf("blkvictim: %s: %s\n", what, ok ? "PASS" : "FAIL");
	failures += !ok;
}

static uint8_t pattern(unsigned long n, unsigned long i)
{
	return (uint8_t)((n * 29 + i) ^ 0x3c);
}

int main(void)
{
	long go = tacet_slot_alloc(), err = go < 0 ? go : tacet_lookup("blkmmio", (unsigned long)go,
								     20000);
	struct tacet_blk b;
	uint8_t *buf;
	long ids[8], result = 0;
	int ok = 1;

	if (!err)
		err = tacet_blk_open(&b, 8 * 4096, 5000);
	if (err) {
		printf("blkvictim: FAIL: %s\n", tacet_strerror(err));
		return 1;
	}
	buf = b.buf.va;
	memset(buf, 0, 8 * BLK_SECTOR);
	for (int k = 0; k < 8; k++)
		ids[k] = tacet_blk_submit(&b, BLK_READ, (uint64_t)k, 1, (unsigned long)k * BLK_SECTOR);
	for (int k = 0; k < 8; k++) {
		long r = ids[k] < 0 ? ids[k] : tacet_blk_wait(&b, ids[k]);

		if (r && !result)
			result = r;
		ok &= r == 0;
	}
	for (unsigned long n = 0; ok && n < 8; n++)
		for (unsigned long i = 0; i < BLK_SECTOR; i++)
			ok &= buf[n * BLK_SECTOR + i] == (13 * n + i) % 251;
	printf("blkvictim: eight reads in flight: %s\n", tacet_strerror(result));
	check(ok, "sectors 0-7 read with eight requests in flight, every byte as made");
	for (unsigned long n = 8; n < 16; n++)
		for (unsigned long i = 0; i < BLK_SECTOR; i++)
			buf[(n - 8) * BLK_SECTOR + i] = pattern(n, i);
	err = tacet_blk_write(&b, 8, 8, 0);
	memset(buf, 0, 8 * BLK_SECTOR);
	if (!err)
		err = tacet_blk_read(&b, 8, 8, 0);
	ok = !err;
	for (unsigned long n = 8; ok && n < 16; n++)
		for (unsigned long i = 0; i < BLK_SECTOR; i++)
			ok &= buf[(n - 8) * BLK_SECTOR + i] == pattern(n, i);
	printf("blkvictim: write and read back: %s\n", tacet_strerror(err));
	check(ok, "sectors 8-15 written and read back");
	tacet_blk_close(&b);
	printf("blkvictim: %s\n", failures ? "some checks failed" : "all checks passed");
	tacet_poweroff(failures != 0);
	return failures != 0;
}
