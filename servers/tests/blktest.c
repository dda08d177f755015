/* blktest: a client of the block service (tests/qemu/cases_virtio.py) on the test disk the
 * Makefile makes (128 sectors, byte i of sector n is (13 n + i) % 251), through lib's client
 * (<tacet/blk.h>) with a 64 KiB buffer (a multi-page frame: the whole disk in one request).
 * It checks that a client with nothing attached is refused, reads known sectors, checks the
 * service refuses bad requests and bad attachments and then still serves, and on a writable
 * disk writes known patterns (sector 5, sectors 64-79 in one request, sector 127), flushes,
 * and reads them back with their neighbours unchanged; the case's check then reads the image
 * file after power-off. On a read-only disk, that a write is refused. Then it asks init to
 * power off, with status 0 if every check passed. One thread; no locking. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/blk.h>
#include "blk_raw.h"

#define SECTORS 128
#define BYTES   (SECTORS * BLK_SECTOR)

static struct tacet_blk b;
static uint8_t *buf;
static int failures;

static void check(int ok, const char *what)
{
	printf("blktest: %s: %s\n", what, ok ? "PASS" : "FAIL");
	failures += !ok;
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

/* The byte the writes put at byte i of sector n (tests/qemu/cases_virtio.py knows it too). */
static uint8_t pattern(unsigned long n, unsigned long i)
{
	return (uint8_t)((n * 7 + i) ^ 0xa5);
}

static void reads(void)
{
	memset(buf, 0, BYTES);
	check(tacet_blk_read(&b, 0, 1, 0) == 0 && holds(0, 0, 1), "read sector 0");
	check(tacet_blk_read(&b, 120, 8, 0) == 0 && holds(0, 120, 8),
	      "read sectors 120-127 (4 KiB)");
	memset(buf, 0, BYTES);
	check(tacet_blk_read(&b, 0, SECTORS, 0) == 0 && holds(0, 0, SECTORS),
	      "read the whole disk in one request (64 KiB, 16 pages)");
	memset(buf, 0, BYTES);
	check(tacet_blk_read(&b, 77, 1, 1024) == 0 && holds(1024, 77, 1) && buf[0] == 0 &&
		      buf[2048] == 0, "read sector 77 at offset 1024, nothing else touched");
}

/* The service's count of completed requests (BLK_STATS w0). */
static unsigned long completed(void)
{
	struct tacet_msg msg = { .tag = TACET_TAG(BLK_STATS, 0) };

	return tacet_call(b.ep, &msg) ? 0 : msg.w[0];
}

/* Submit a whole-disk read as request id 7, then the same id again at once, up to 16 times:
 * while the first is in flight the service must refuse it. QEMU may finish the first before a
 * second arrives (it takes tens of microseconds, about a round trip), so the whole try is
 * repeated until one is refused; every other answer must be 0. Each try ends once the service
 * has completed every read it took (the attachments after must find none in flight). */
static int busy_id_refused(void)
{
	int refused = 0, wrong = 0, tries = 0;
	unsigned long expect = completed();

	while (tries++ < 200 && !refused) {
		long first = raw(b.ep, TACET_TAG(BLK_READ, 4), 0, SECTORS, 0, 7);

		wrong |= first != 0;
		expect += first == 0;
		for (int n = 0; n < 16 && !refused; n++) {
			long again = raw(b.ep, TACET_TAG(BLK_READ, 4), 0, SECTORS, 0, 7);

			refused = again == -TACET_EBUSY;
			wrong |= again != 0 && !refused;
			expect += again == 0;
		}
		for (int w = 0; w < 5000 && completed() < expect; w++)
			tacet_sleep_ns(1000000); /* all done */
		tacet_poll(b.ntfn);
	}
	printf("blktest: duplicate id: %s after %d tries, %s\n", refused ? "refused" : "never refused",
	       tries - 1, wrong ? "other answers" : "no other answers");
	return refused && !wrong;
}

static void refusals(void)
{
	long rofr = tacet_slot_alloc(), ep = tacet_slot_alloc();

	check(tacet_blk_read(&b, SECTORS, 1, 0) == -TACET_ERANGE &&
		      tacet_blk_read(&b, 120, 9, 0) == -TACET_ERANGE &&
		      tacet_blk_read(&b, 0, 2, b.buf.size - BLK_SECTOR) == -TACET_ERANGE &&
		      tacet_blk_read(&b, 0, 1, 100) == -TACET_EINVAL &&
		      tacet_blk_read(&b, 0, 0, 0) == -TACET_EINVAL,
	      "past the disk, past the frame, a misaligned offset, no sectors: refused");
	check(raw(b.ep, TACET_TAG(BLK_READ, 4), 0, 1, 0, BLK_IDS) == -TACET_EINVAL &&
		      raw(b.ep, TACET_TAG(0x7777, 0), 0, 0, 0, 0) == -TACET_EINVAL,
	      "an id out of range, an unknown request: refused");
	check(busy_id_refused(), "an id already in flight: refused (EBUSY)");
	check(rofr >= 0 && ep >= 0 &&
		      tacet_cap_copy(b.buf.slot, (unsigned long)rofr, TACET_RIGHT_READ, 0) == 0 &&
		      raw(b.ep, TACET_TAG_CAP(BLK_ATTACH, 1, rofr), 0, 0, 0, 0) == -TACET_EPERM &&
		      raw(b.ep, TACET_TAG_CAP(BLK_ATTACH, 1, b.buf.slot), b.buf.size, 0, 0, 0) ==
			      -TACET_ERANGE &&
		      raw(b.ep, TACET_TAG_CAP(BLK_ATTACH, 1, b.ntfn), 48, 0, 0, 0) == -TACET_ERANGE &&
		      tacet_endpoint_new((unsigned long)ep) == 0 &&
		      raw(b.ep, TACET_TAG_CAP(BLK_ATTACH, 1, ep), 0, 0, 0, 0) == -TACET_ETYPE &&
		      raw(b.ep, TACET_TAG(BLK_ATTACH, 1), 0, 0, 0, 0) == -TACET_EINVAL,
	      "a read-only frame, a status area past the frame, too large a shift, an endpoint, "
	      "nothing: attach refused");
	memset(buf, 0, BYTES);
	check(tacet_blk_read(&b, 3, 2, 0) == 0 && holds(0, 3, 2),
	      "after the refusals the service still serves");
	tacet_slot_free((unsigned long)rofr);
	tacet_slot_free((unsigned long)ep);
}

static int holds_pattern(unsigned long offset, unsigned long first, unsigned long count)
{
	for (unsigned long n = 0; n < count; n++)
		for (unsigned long i = 0; i < BLK_SECTOR; i++)
			if (buf[offset + n * BLK_SECTOR + i] != pattern(first + n, i))
				return 0;
	return 1;
}

static void writes(void)
{
	static const unsigned long first[] = { 5, 64, 127 }, count[] = { 1, 16, 1 };
	int ok = 1;

	if (b.read_only) {
		memset(buf, 0, BYTES);
		check(tacet_blk_write(&b, 5, 1, 0) == -TACET_EPERM && tacet_blk_read(&b, 5, 1, 0) == 0 &&
			      holds(0, 5, 1), "write to the read-only disk refused (EPERM)");
		return;
	}
	for (int w = 0; w < 3; w++) {
		for (unsigned long n = 0; n < count[w]; n++)
			for (unsigned long i = 0; i < BLK_SECTOR; i++)
				buf[n * BLK_SECTOR + i] = pattern(first[w] + n, i);
		ok &= tacet_blk_write(&b, first[w], count[w], 0) == 0;
	}
	check(ok && tacet_blk_flush(&b) == 0, "write sectors 5, 64-79 (one request), 127; flush");
	memset(buf, 0, BYTES);
	check(tacet_blk_read(&b, 0, SECTORS, 0) == 0 && holds(0, 0, 5) &&
		      holds_pattern(5 * BLK_SECTOR, 5, 1) && holds(6 * BLK_SECTOR, 6, 58) &&
		      holds_pattern(64 * BLK_SECTOR, 64, 16) && holds(80 * BLK_SECTOR, 80, 47) &&
		      holds_pattern(127 * BLK_SECTOR, 127, 1),
	      "the disk reads back as written, every other sector unchanged");
}

int main(void)
{
	long ep = tacet_slot_alloc(), err = ep < 0 ? ep : tacet_lookup("blk", (unsigned long)ep, 5000);

	if (!err) /* nothing attached yet */
		check(raw((unsigned long)ep, TACET_TAG(BLK_READ, 4), 0, 1, 0, 0) == -TACET_EINVAL,
		      "read before attaching a frame refused");
	if (!err)
		err = tacet_blk_open(&b, BYTES, 5000);
	if (err) {
		printf("blktest: FAIL: %s\n", tacet_strerror(err));
		return 1;
	}
	buf = b.buf.va;
	printf("blktest: %llu sectors%s\n", (unsigned long long)b.capacity,
	       b.read_only ? ", read-only" : "");
	check(b.capacity == SECTORS, "capacity");
	reads();
	refusals();
	writes();
	printf("blktest: %s\n", failures ? "some checks failed" : "all checks passed");
	tacet_poweroff(failures != 0);
	return failures != 0;
}
