/* blklives: a client of the block service that lives through ten of its instances (blk_mortal:
 * each of the first ten faults at its third submission; qemu/blk-client-outlives-restarts).
 * Round after round it writes a pattern of the round's own to 8 sectors and reads them back;
 * lib reaches each next instance and opens the session again, in which the instance watches
 * this process (PROCESS_WATCH). A dead instance's watch ends with it: when it did not, the
 * fourth instance's open was refused with EBUSY (init's watch and three dead instances' filled
 * the process's four places). */
#include <stdio.h>
#include <tacet.h>
#include <tacet/blk.h>

#define RESTARTS 10
#define ROUNDS_MAX 40
#define SECTORS 8
#define DATA (SECTORS * BLK_SECTOR)

static uint8_t pattern(unsigned long round, unsigned long i)
{
	return (uint8_t)(round * 37 + i * 3 + 0x5a);
}

/* One round: the round's pattern written to its sectors and read back; the bytes that differ. */
static long round_trip(struct tacet_blk *b, unsigned long round, unsigned long *wrong)
{
	uint8_t *data = b->buf.va;
	uint64_t sector = b->first + (round % 8) * SECTORS;
	long err;

	for (unsigned long i = 0; i < DATA; i++)
		data[i] = pattern(round, i);
	err = tacet_blk_write(b, sector, SECTORS, 0);
	if (!err)
		err = tacet_blk_read(b, sector, SECTORS, DATA);
	for (unsigned long i = 0; !err && i < DATA; i++)
		*wrong += data[DATA + i] != pattern(round, i);
	return err;
}

int main(void)
{
	static struct tacet_blk b;
	long err = tacet_blk_open(&b, 2 * DATA, 5000);
	unsigned long round = 0, wrong = 0, last_rounds = 0;
	int ok;

	while (!err && round < ROUNDS_MAX && last_rounds < 2) {
		err = round_trip(&b, round, &wrong);
		round++;
		last_rounds += b.reconnects >= RESTARTS;
	}
	ok = !err && !wrong && b.reconnects == RESTARTS && b.instance == RESTARTS;
	printf("blklives: %lu rounds, reached instance %lu (%lu reconnects), %lu bytes read back "
	       "wrong (%s): %s\n", round, b.instance, b.reconnects, wrong, tacet_strerror(err),
	       ok ? "PASS" : "FAIL");
	tacet_poweroff(!ok);
	return !ok;
}
