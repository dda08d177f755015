/* blkwriter: a client of the block service that must not lose a write, beside six flooders
 * (blkflood) that try to hold every request slot the service has (a client cannot break a
 * server; tests/qemu/cases_virtio.py, blk-flood). It waits until the flood is on (six more sessions
 * open, and the service has completed 3,000 requests), then writes 200 sectors one request at
 * a time through lib's client (which submits again when the service refuses for its share, at
 * the moment the service says), each with its own pattern; then reads all 200 back and checks
 * every byte. A write that fails is a write lost. Prints how many of its submissions lib had
 * to try again, and the requests the service completed meanwhile (the flooders kept
 * flooding), and powers off with status 0 if nothing was lost. One thread. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/blk.h>
#include <tacet/init_proto.h>

#define WRITES 200

static uint8_t pattern(unsigned long n, unsigned long i)
{
	return (uint8_t)((n * 131 + i * 7) ^ (n >> 3));
}

static unsigned long completed(struct tacet_blk *b)
{
	struct tacet_msg msg = { .tag = TACET_TAG(BLK_STATS, 0) };

	return tacet_call(b->ep, &msg) ? 0 : msg.w[0];
}

/* Sessions open at the service (BLK_USAGE), or 7 if it does not say. */
static unsigned long sessions(struct tacet_blk *b)
{
	struct tacet_msg msg = { .tag = TACET_TAG(BLK_USAGE, 0) };

	return tacet_call(b->ep, &msg) || (long)msg.w[0] < 0 ? 7 : msg.w[0];
}

int main(void)
{
	struct tacet_blk b;
	unsigned long lost = 0, wrong = 0, before = 0, during;
	long err = tacet_blk_open(&b, 8 * 4096, 5000), first_err = 0;
	uint8_t *buf;

	if (err) {
		printf("blkwriter: FAIL: %s\n", tacet_strerror(err));
		return 1;
	}
	buf = b.buf.va;
	while (sessions(&b) < 7 || (before = completed(&b)) < 3000) /* all six flooding */
		tacet_sleep_ns(1000000);
	for (unsigned long n = 0; n < WRITES; n++) {
		for (unsigned long i = 0; i < BLK_SECTOR; i++)
			buf[i] = pattern(n, i);
		err = tacet_blk_write(&b, b.first + n, 1, 0);
		lost += err != 0;
		if (err && !first_err)
			first_err = err;
	}
	during = completed(&b) - before;
	for (unsigned long n = 0; n < WRITES; n += 8) {
		memset(buf, 0, 8 * BLK_SECTOR);
		err = tacet_blk_read(&b, b.first + n, 8, 0);
		for (unsigned long k = 0; k < 8; k++)
			for (unsigned long i = 0; i < BLK_SECTOR; i++)
				wrong += err || buf[k * BLK_SECTOR + i] != pattern(n + k, i);
	}
	printf("blkwriter: %d writes beside the flood: %lu lost (%s), %lu submissions tried again; "
	       "the service completed %lu requests meanwhile\n", WRITES, lost,
	       tacet_strerror(first_err), b.retries, during);
	printf("blkwriter: every write landed, read back and verified: %s (%lu bytes wrong)\n",
	       !lost && !wrong ? "PASS" : "FAIL", wrong);
	tacet_poweroff(lost || wrong);
	return lost || wrong;
}
