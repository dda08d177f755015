/* blkrange: a client of the block service that reads and writes outside the sectors it was
 * given: a client may use only the range its init.run= entry grants it
 * (`blkrange@1[blk=32-63]`); an entry without a grant gets none. On the test disk the Makefile
 * makes (128 sectors, byte i of sector n is (13 n + i) % 251) it opens "blk" with lib's client
 * and, with a grant: checks the range the service says (first and sectors); writes a pattern
 * to its first sector, its last and eight in the middle in one request, reads them back;
 * then writes and reads just below and just above the range, far outside it, across its
 * start and across its end, the whole disk: each refused (-TACET_EPERM). Without a grant:
 * every read and write refused, a flush still done. Either way, init refuses to tell it what
 * any client may use of "blk" (INIT_GRANT is the service's to ask). Prints its verdict (the
 * case's console input powers off once both instances have). One thread. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/blk.h>

static int failures;
static const char *who;

static void check(int ok, const char *what)
{
	printf("blkrange %s: %s: %s\n", who, what, ok ? "PASS" : "FAIL");
	failures += !ok;
}

static uint8_t pattern(unsigned long n, unsigned long i)
{
	return (uint8_t)((n * 17 + i) ^ 0x5a);
}

static void fill(uint8_t *buf, unsigned long first, unsigned long count)
{
	for (unsigned long n = 0; n < count; n++)
		for (unsigned long i = 0; i < BLK_SECTOR; i++)
			buf[n * BLK_SECTOR + i] = pattern(first + n, i);
}

static int holds(const uint8_t *buf, unsigned long first, unsigned long count)
{
	for (unsigned long n = 0; n < count; n++)
		for (unsigned long i = 0; i < BLK_SECTOR; i++)
			if (buf[n * BLK_SECTOR + i] != pattern(first + n, i))
				return 0;
	return 1;
}

/* Writes and reads of [first, first + count): all refused with EPERM? */
static int refused(struct tacet_blk *b, unsigned long first, unsigned long count)
{
	long w, r;

	fill(b->buf.va, first, count);
	w = tacet_blk_write(b, first, count, 0);
	r = tacet_blk_read(b, first, count, 0);
	if (w != -TACET_EPERM || r != -TACET_EPERM)
		printf("blkrange %s: sectors %lu-%lu: write %s, read %s\n", who, first,
		       first + count - 1, tacet_strerror(w), tacet_strerror(r));
	return w == -TACET_EPERM && r == -TACET_EPERM;
}

int main(void)
{
	struct tacet_blk b;
	long err = tacet_blk_open(&b, 128 * BLK_SECTOR, 5000), own;
	uint8_t *buf = b.buf.va;
	unsigned long f, l;
	char arg[32];

	if (err) {
		printf("blkrange: FAIL: %s\n", tacet_strerror(err));
		return 1;
	}
	who = b.sectors ? "granted" : "ungranted";
	printf("blkrange %s: the service grants sectors %llu-%llu (%llu)\n", who,
	       (unsigned long long)b.first, (unsigned long long)(b.first + b.sectors - 1),
	       (unsigned long long)b.sectors);
	own = tacet_grant("blk", 1, arg, sizeof(arg));
	check(own == -TACET_EPERM, "asking init what a client of \"blk\" is granted, not being blk: "
				    "refused (EPERM)");
	if (!b.sectors) {
		check(refused(&b, 0, 1) && refused(&b, 32, 1) && refused(&b, 127, 1) &&
			      refused(&b, 0, 128), "no grant: every read and write refused (EPERM)");
		check(tacet_blk_flush(&b) == 0, "no grant: a flush is done");
	} else {
		f = b.first, l = b.first + b.sectors - 1;
		check(f == 32 && l == 63, "the range the entry grants: sectors 32-63");
		fill(buf, f, 1);
		fill(buf + BLK_SECTOR, l, 1);
		fill(buf + 2 * BLK_SECTOR, 40, 8);
		err = tacet_blk_write(&b, f, 1, 0);
		if (!err)
			err = tacet_blk_write(&b, l, 1, BLK_SECTOR);
		if (!err)
			err = tacet_blk_write(&b, 40, 8, 2 * BLK_SECTOR);
		memset(buf, 0, 10 * BLK_SECTOR);
		if (!err)
			err = tacet_blk_read(&b, f, 1, 0);
		if (!err)
			err = tacet_blk_read(&b, l, 1, BLK_SECTOR);
		if (!err)
			err = tacet_blk_read(&b, 40, 8, 2 * BLK_SECTOR);
		check(!err && holds(buf, f, 1) && holds(buf + BLK_SECTOR, l, 1) &&
			      holds(buf + 2 * BLK_SECTOR, 40, 8),
		      "inside: its first sector, its last, eight in one request written and read back");
		check(refused(&b, f - 1, 1) && refused(&b, l + 1, 1) && refused(&b, 0, 1) &&
			      refused(&b, 127, 1) && refused(&b, f - 4, 8) && refused(&b, l - 3, 8) &&
			      refused(&b, 0, 128),
		      "outside: below, above, far away, across its start and its end, the whole disk: "
		      "refused (EPERM)");
		check(tacet_blk_flush(&b) == 0, "a flush is done");
	}
	tacet_blk_close(&b);
	printf("blkrange %s: %s\n", who, failures ? "FAIL" : "all checks passed");
	return failures != 0;
}
