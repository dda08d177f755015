/* blktest: a client of the block service (tests/qemu/cases_virtio.py) on the test disk the
 * Makefile makes (128 sectors, byte i of sector n is (13 n + i) % 251). It grants one page as
 * its buffer, reads known sectors (one, a whole page of eight, one at an offset in the page),
 * checks the service refuses bad ranges, and on a writable disk writes a sector, flushes and
 * reads it back with its neighbours unchanged (on a read-only one, that the write is refused).
 * Then it asks init to power off, with status 0 if every check passed. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/blk_proto.h>
#include <tacet/init_proto.h>

#define BUF_VA    0x0000002000000000ul
#define SLOT_BLK  (TACET_CHILD_FIRST_FREE + 0)
#define SLOT_BUF  (TACET_CHILD_FIRST_FREE + 1)
#define SECTORS   128

static uint8_t *buf = (uint8_t *)BUF_VA;
static int failures;

static void check(int ok, const char *what)
{
	printf("blktest: %s: %s\n", what, ok ? "PASS" : "FAIL");
	failures += !ok;
}

static long blk(unsigned long label, unsigned long w0, unsigned long w1, unsigned long w2)
{
	struct tacet_msg msg = { .tag = TACET_TAG(label, 3), .w = { w0, w1, w2 } };
	long err = tacet_call(SLOT_BLK, &msg);

	return err ? err : (long)msg.w[0];
}

/* Does buf + offset hold sectors first..first+count-1 of the disk as made? */
static int holds(unsigned long offset, unsigned long first, unsigned long count)
{
	for (unsigned long n = 0; n < count; n++)
		for (unsigned long i = 0; i < BLK_SECTOR; i++)
			if (buf[offset + n * BLK_SECTOR + i] != (13 * (first + n) + i) % 251)
				return 0;
	return 1;
}

static void reads(void)
{
	memset(buf, 0, 4096);
	check(blk(BLK_READ, 0, 1, 0) == 0 && holds(0, 0, 1), "read sector 0");
	check(blk(BLK_READ, 120, 8, 0) == 0 && holds(0, 120, 8), "read sectors 120-127 (4 KiB)");
	memset(buf, 0, 4096);
	check(blk(BLK_READ, 77, 1, 1024) == 0 && holds(1024, 77, 1) && buf[0] == 0 &&
		      buf[2048] == 0, "read sector 77 at offset 1024, nothing else touched");
	check(blk(BLK_READ, SECTORS, 1, 0) == -TACET_ERANGE &&
		      blk(BLK_READ, 121, 8, 0) == -TACET_ERANGE &&
		      blk(BLK_READ, 0, 2, 3584) == -TACET_ERANGE &&
		      blk(BLK_READ, 0, 1, 100) == -TACET_EINVAL && blk(BLK_READ, 0, 0, 0) == -TACET_EINVAL,
	      "past the disk, past the frame, a misaligned offset, no sectors: refused");
}

static void writes(int read_only)
{
	if (read_only) {
		check(blk(BLK_WRITE, 5, 1, 0) == -TACET_EPERM && blk(BLK_READ, 5, 1, 0) == 0 &&
			      holds(0, 5, 1), "write to the read-only disk refused (EPERM)");
		return;
	}
	memset(buf, 0x5a, BLK_SECTOR);
	check(blk(BLK_WRITE, 5, 1, 0) == 0 && blk(BLK_FLUSH, 0, 0, 0) == 0, "write sector 5, flush");
	memset(buf, 0, 4096);
	check(blk(BLK_READ, 4, 3, 0) == 0 && holds(0, 4, 1) && buf[BLK_SECTOR] == 0x5a &&
		      buf[2 * BLK_SECTOR - 1] == 0x5a && holds(2 * BLK_SECTOR, 6, 1),
	      "sector 5 reads back as written, 4 and 6 unchanged");
}

int main(void)
{
	struct tacet_msg msg = { .tag = TACET_TAG(BLK_INFO, 0) };
	long err = tacet_lookup("blk", SLOT_BLK, 5000);
	int read_only;

	if (!err)
		err = tacet_call(SLOT_BLK, &msg);
	if (!err)
		err = tacet_frame_new(SLOT_BUF, 1);
	if (!err)
		err = tacet_map(TACET_CHILD_SELF, SLOT_BUF, BUF_VA, TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (err) {
		printf("blktest: FAIL: %s\n", tacet_strerror(err));
		return 1;
	}
	printf("blktest: %lu sectors of %lu bytes%s\n", msg.w[0], msg.w[1],
	       msg.w[2] ? ", read-only" : "");
	check(msg.w[0] == SECTORS && msg.w[1] == BLK_SECTOR, "capacity");
	read_only = msg.w[2] != 0;
	check(blk(BLK_READ, 0, 1, 0) == -TACET_EINVAL, "read before attaching a frame refused");
	msg = (struct tacet_msg){ .tag = TACET_TAG_CAP(BLK_ATTACH, 0, SLOT_BUF) };
	err = tacet_call(SLOT_BLK, &msg);
	check(!err && msg.w[0] == 0, "attach a one-page frame");
	reads();
	writes(read_only);
	printf("blktest: %s\n", failures ? "some checks failed" : "all checks passed");
	msg = (struct tacet_msg){ .tag = TACET_TAG(INIT_POWEROFF, 1), .w = { failures != 0 } };
	tacet_call(TACET_CHILD_INIT, &msg);
	return failures != 0;
}
