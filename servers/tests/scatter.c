/* scatter: the fragmenting attack: holding a few pages,
 * one in each MiB of memory, leaves no 1 MiB run for another server's DMA. Each round it makes
 * as many 129-page frames as its budget allows (each needs a whole MiB), one page for each
 * (which, when the pool mixed the two, came from what a 129-page frame left free of its MiB),
 * then deletes the 129-page frames, keeping the pages (each mapped, its capability deleted: a
 * mapping holds its frame, and a process has only 128 capability slots). It stops when a 129-page frame is refused
 * (no whole MiB left: the attack worked) or it holds SCATTER_MAX pages; then it publishes
 * "scatter" and waits for dmabig's call before it ends. Its lines: how many pages it holds,
 * how many rounds, and whether a 129-page frame still came. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define RUN_PAGES   129
#define SCATTER_MAX 160 /* pages: more than the 122 that denied 128 MiB before */
#define RUNS_MAX    12  /* with the pages and their mappings, within a 2048-page budget */

/* A page of its own, held by a mapping alone; 0 or an error. */
static long one_page(void)
{
	long slot = tacet_slot_alloc(), err;
	unsigned long va = tacet_va_alloc(1);

	if (slot < 0 || !va)
		return slot < 0 ? slot : -TACET_ENOMEM;
	err = tacet_frame_new((unsigned long)slot, 1);
	if (!err)
		err = tacet_map(TACET_CHILD_SELF, (unsigned long)slot, va, TACET_RIGHT_READ);
	tacet_slot_free((unsigned long)slot);
	return err;
}

/* One round: returns the pages now held, or -1 when no 129-page frame came. */
static long round_of(unsigned long held)
{
	unsigned long runs[RUNS_MAX];
	unsigned long n = 0;
	long slot;

	while (n < RUNS_MAX && held + n < SCATTER_MAX && (slot = tacet_slot_alloc()) >= 0) {
		if (tacet_frame_new((unsigned long)slot, RUN_PAGES)) {
			tacet_slot_free((unsigned long)slot);
			break;
		}
		runs[n++] = (unsigned long)slot;
	}
	if (!n)
		return -1;
	for (unsigned long i = 0; i < n; i++) {
		long err = one_page();

		if (err) {
			printf("scatter: FAIL: a page: %s\n", tacet_strerror(err));
			return -1;
		}
		held++;
	}
	for (unsigned long i = 0; i < n; i++)
		tacet_slot_free(runs[i]); /* the frame goes with its capability */
	return (long)held;
}

int main(void)
{
	struct tacet_msg msg;
	unsigned long held = 0, rounds = 0;
	long ep = tacet_slot_alloc(), r, err;

	while (held < SCATTER_MAX && (r = round_of(held)) >= 0) {
		held = (unsigned long)r;
		rounds++;
	}
	printf("scatter: holding %lu single pages after %lu rounds; a %d-page frame now: %s\n", held,
	       rounds, RUN_PAGES, held < SCATTER_MAX ? "refused" : "made");
	err = ep < 0 ? ep : tacet_endpoint_new((unsigned long)ep);
	if (!err)
		err = tacet_publish("scatter", (unsigned long)ep, TACET_RIGHT_WRITE);
	if (err) {
		printf("scatter: FAIL: %s\n", tacet_strerror(err));
		return 1;
	}
	while (tacet_recv((unsigned long)ep, 0, &msg, NULL) < 0)
		;
	msg = (struct tacet_msg){ .tag = TACET_TAG(0, 0) };
	tacet_reply(&msg);
	return 0;
}
