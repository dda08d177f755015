/* blkwaitdie: a client of the block service that is waiting when the service ends (a
 * client learns of the end at once, not at a timeout; tests/qemu/cases_isolation.py,
 * blk-end-while-waiting). With no timeout (b.timeout_ns 0: only a completion or the end can
 * end its wait), it submits 8 writes of 4 KiB to the throttled disk, publishes its name and
 * waits for them; blkpoke, which looked the name up, then submits until the device holds 16
 * and blk_dying faults. lib's wait is told by the kernel's watch of the service's endpoint,
 * reaches the next instance and submits the 8 again; it checks they landed. Before the
 * watch, its wait would never have ended. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/blk.h>
#include <tacet/init_proto.h>

#define WRITES 8
#define SECTORS_EACH 8
#define DATA (WRITES * SECTORS_EACH * BLK_SECTOR)

static uint8_t pattern(uint64_t sector, unsigned long i)
{
	return (uint8_t)(sector * 31 + i * 5 + 0x3c);
}

int main(void)
{
	static struct tacet_blk b;
	long ids[WRITES], err = tacet_blk_open(&b, 2 * DATA, 5000), failed = 0, ep;
	unsigned long wrong = 0;
	uint8_t *data = b.buf.va;
	int ok;

	b.timeout_ns = 0;
	for (unsigned long i = 0; !err && i < DATA; i++)
		data[i] = pattern(b.first + i / BLK_SECTOR, i % BLK_SECTOR);
	for (int w = 0; w < WRITES && !err; w++) {
		ids[w] = tacet_blk_submit(&b, BLK_WRITE, b.first + w * SECTORS_EACH, SECTORS_EACH,
					  (unsigned long)w * SECTORS_EACH * BLK_SECTOR);
		err = ids[w] < 0 ? ids[w] : 0;
	}
	ep = err ? err : tacet_slot_alloc();
	if (ep >= 0)
		err = tacet_endpoint_new((unsigned long)ep);
	if (!err)
		err = tacet_publish("blkwaitdie", (unsigned long)ep, TACET_RIGHT_WRITE);
	for (int w = 0; w < WRITES && !err; w++)
		failed += tacet_blk_wait(&b, ids[w]) != 0;
	ok = !err && !failed && b.instance == 1 && b.reconnects == 1 && b.ends_seen == 1;
	printf("blkwaitdie: waiting for %d writes when the service ended: told by the watch %lu "
	       "times, reached instance %lu (%lu reconnects), %ld failed (%s): %s\n", WRITES,
	       b.ends_seen, b.instance, b.reconnects, failed, tacet_strerror(err),
	       ok ? "PASS" : "FAIL");
	if (!err)
		err = tacet_blk_read(&b, b.first, WRITES * SECTORS_EACH, DATA);
	for (unsigned long i = 0; !err && i < DATA; i++)
		wrong += data[DATA + i] != pattern(b.first + i / BLK_SECTOR, i % BLK_SECTOR);
	printf("blkwaitdie: read back (%s), %lu bytes wrong: %s\n", tacet_strerror(err), wrong,
	       !err && !wrong ? "PASS" : "FAIL");
	ok = ok && !err && !wrong;
	tacet_poweroff(!ok);
	return !ok;
}
