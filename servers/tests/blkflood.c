/* blkflood: a hostile client of the block service (a client cannot break a server):
 * it floods the service for ever, to hold every request slot the service shares among
 * its clients: one-sector reads of the sectors its entry grants, or flushes without a grant.
 * It opens a session with lib's client, then with raw calls keeps each of its BLK_IDS ids in
 * flight: an id goes again the moment its bit comes back, and a refusal (-TACET_EBUSY) is
 * answered by waiting for its next completion (or the service's BLK_RETRY_BIT) and submitting
 * again. Six of these beside blkwriter, which must not lose a write (tests/qemu/cases_virtio.py,
 * blk-flood, where QEMU throttles reads so that the device holds them for a while, as a real
 * disk would, and the flood fills the service's slots): once the service shares its capacity
 * per client, a flooder gets its share and no more. Prints how many it has had refused once
 * 200 requests are done, then nothing; it never ends (the writer powers the machine off). */
#include <stdio.h>
#include <tacet.h>
#include <tacet/blk.h>

int main(void)
{
	struct tacet_blk b;
	struct tacet_self self;
	unsigned long done = 0, refused = 0;
	int announced = 0;
	uint32_t busy = 0;
	long err = tacet_blk_open(&b, BLK_IDS * BLK_SECTOR, 5000);

	tacet_self(&self);
	if (err) {
		printf("blkflood: FAIL: %s\n", tacet_strerror(err));
		return 1;
	}
	for (;;) {
		long bits;

		for (unsigned long id = 0; id < BLK_IDS; id++) {
			struct tacet_msg msg = { .tag = TACET_TAG(BLK_FLUSH, 4), .w = { 0, 0, 0, id } };

			if (b.sectors) /* a sector of its own: reads the device holds (throttled) */
				msg = (struct tacet_msg){ .tag = TACET_TAG(BLK_READ, 4),
							  .w = { b.first + id % b.sectors, 1,
								 id * BLK_SECTOR, id } };

			if (busy & (1u << id))
				continue;
			err = tacet_call(b.ep, &msg);
			if (!err && msg.w[0] == 0)
				busy |= 1u << id;
			else if (!err && (long)msg.w[0] == -TACET_EBUSY)
				refused++;
			else if (!err && msg.w[0] == BLK_DONE)
				done++;
			else if (!err)
				err = (long)msg.w[0];
			if (err) {
				printf("blkflood: FAIL: submit: %s\n", tacet_strerror(err));
				return 1;
			}
			if ((long)msg.w[0] == -TACET_EBUSY)
				break; /* wait for room: a completion of its own, or the retry bit */
		}
		bits = tacet_wait(b.ntfn);
		if (bits < 0)
			return 1;
		done += (unsigned long)__builtin_popcountl((unsigned long)bits & busy);
		busy &= ~(uint32_t)bits;
		if (done >= 200 && !announced) {
			announced = 1;
			printf("blkflood@%lu: 200 requests done (%lu refused so far); flooding on\n",
			       self.hart, refused);
		}
	}
}
