/* blkinflight: a client of the block service with writes in flight when the driver dies (a
 * client calling across a restart gets the documented error, reconnects, and resubmits;
 * tests/qemu/cases_isolation.py, dma-kill-blk-resubmit). It submits 16 writes of 4 KiB, each a
 * pattern of its own, without waiting: blk_dying faults at the 16th, with the device holding
 * them all. lib's client meets the end (TACET_EDEAD) in that submission, reaches the restarted
 * service, opens its session again and submits every write in flight again; the client sees
 * only that b.instance is now 1. Then it waits for the 16, reads its 128 sectors back in one
 * request and checks every byte, and powers the machine off (status 0 if all held). */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/blk.h>
#include <tacet/init_proto.h>

#define WRITES 16
#define SECTORS_EACH 8
#define WARM_UP 4
#define DATA (WRITES * SECTORS_EACH * BLK_SECTOR) /* 64 KiB written, then read back after it */

static uint8_t pattern(uint64_t sector, unsigned long i)
{
	return (uint8_t)(sector * 29 + i * 7 + 0x5a);
}

int main(void)
{
	static struct tacet_blk b;
	long ids[WRITES], err = tacet_blk_open(&b, 2 * DATA, 5000), failed = 0;
	unsigned long wrong = 0;
	uint8_t *data = NULL;
	int ok;

	if (!err && b.sectors < WRITES * SECTORS_EACH + WARM_UP)
		err = -TACET_ERANGE;
	if (err) {
		printf("blkinflight: FAIL: open: %s\n", tacet_strerror(err));
		tacet_poweroff(1);
		return 1;
	}
	data = b.buf.va;
	for (unsigned long i = 0; i < DATA; i++)
		data[i] = pattern(b.first + i / BLK_SECTOR, i % BLK_SECTOR);
	/* QEMU lets a few requests through at once before its throttling holds them: spend that
	 * on writes of the sectors after ours, so that the device holds all 16 */
	for (int w = 0; w < WARM_UP && !err; w++)
		err = tacet_blk_write(&b, b.first + WRITES * SECTORS_EACH + w, 1, DATA);
	for (int w = 0; w < WRITES && !err; w++) {
		ids[w] = tacet_blk_submit(&b, BLK_WRITE, b.first + w * SECTORS_EACH, SECTORS_EACH,
					  (unsigned long)w * SECTORS_EACH * BLK_SECTOR);
		err = ids[w] < 0 ? ids[w] : 0;
	}
	for (int w = 0; w < WRITES && !err; w++)
		failed += tacet_blk_wait(&b, ids[w]) != 0;
	ok = !err && !failed && b.instance == 1 && b.reconnects == 1;
	printf("blkinflight: %d writes of 4 KiB in flight when the service ended; reached it again "
	       "as instance %lu (%lu reconnects), %ld of the writes failed (%s): %s\n", WRITES,
	       b.instance, b.reconnects, failed, tacet_strerror(err), ok ? "PASS" : "FAIL");
	if (!err)
		err = tacet_blk_read(&b, b.first, WRITES * SECTORS_EACH, DATA);
	for (unsigned long i = 0; !err && i < DATA; i++)
		wrong += data[DATA + i] != pattern(b.first + i / BLK_SECTOR, i % BLK_SECTOR);
	printf("blkinflight: sectors %lu-%lu read back (%s), %lu bytes wrong: %s\n",
	       (unsigned long)b.first, (unsigned long)b.first + WRITES * SECTORS_EACH - 1,
	       tacet_strerror(err), wrong, !err && !wrong ? "PASS" : "FAIL");
	ok = ok && !err && !wrong;
	tacet_poweroff(!ok);
	return !ok;
}
