/* runqueue.c: the run queues' bitmap scan (the queue operations are inline in runqueue.h); no
 * locking of its own. */
#include "core/runqueue.h"
#include "object/thread.h"

/* Index of the highest set bit of a non-zero word (rv64gc has no count-leading-zeros). */
static int highest_bit(uint64_t w)
{
	int b = 0;

	for (int shift = 32; shift; shift >>= 1) {
		if (w >> shift) {
			w >>= shift;
			b += shift;
		}
	}
	return b;
}

int rq_scan_top(const struct runqueue *rq)
{
	int first = rq->first ? rq->first->prio : -1;

	for (int w = PRIO_BITMAP_WORDS - 1; w >= 0; w--)
		if (rq->bitmap[w]) {
			int top = w * 64 + highest_bit(rq->bitmap[w]);

			return top > first ? top : first;
		}
	return first;
}
