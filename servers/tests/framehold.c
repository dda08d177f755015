/* framehold: a process ends while one of its threads waits in the middle of a FRAME_NEW that a
 * more urgent thread of its hart interrupted (the call keeps its half-zeroed frame in
 * its thread until it goes on; thread_reap must free it). main, at priority 200, sets a timer
 * 50 us ahead and waits; the maker, at 100 on the same hart, makes 256-page frames (180 us of
 * zeroing each) back to back, so the timer comes in the middle of one: its interrupt is taken
 * at a preemption point and the call is held back for main. main then ends the process
 * (exit(): TACET_SYS_PROCESS_EXIT), maker and held frame with it. Run under -icount, so where
 * the timer falls is the same every run; init's leak check must find every page back (the held
 * frame's 256 pages would be lost otherwise). */
#include <stdio.h>
#include <tacet.h>
#include <tacet/driver.h>
#include <tacet/init_proto.h>
#include "../bench/bench.h"

#define SLOT_NTFN  TACET_CHILD_FIRST_FREE
#define SLOT_FRAME (TACET_CHILD_FIRST_FREE + 1)
#define SLOT_STACK (TACET_CHILD_FIRST_FREE + 2)
#define STACK_VA   0x0000002300000000ul
#define AHEAD_NS   50000

static volatile unsigned long made, started;

static void maker(unsigned long arg)
{
	(void)arg;
	for (;;) {
		started++;
		if (tacet_frame_new(SLOT_FRAME, TACET_FRAME_MAX_PAGES) == 0) {
			made++;
			tacet_cap_delete(SLOT_FRAME);
		}
	}
}

int main(void)
{
	struct tacet_self self;
	unsigned long deadline;
	long err;

	tacet_self(&self);
	err = tacet_ntfn_new(SLOT_NTFN);
	if (!err)
		err = bench_thread_start(maker, 0, 100, self.hart, SLOT_STACK, STACK_VA);
	deadline = tacet_time() + tacet_ns_to_ticks(AHEAD_NS);
	if (!err)
		err = tacet_timer_set(SLOT_NTFN, 1, deadline);
	if (!err && tacet_wait(SLOT_NTFN) < 0)
		err = -TACET_EINVAL;
	if (err) {
		printf("framehold: FAIL: %s\n", tacet_strerror(err));
		return 1;
	}
	/* the maker is inside its first FRAME_NEW (started, none made), held back for us */
	printf("framehold: woken %lu ns late; the maker started %lu frames, made %lu: %s\n",
	       tacet_ticks_to_ns(tacet_time() - deadline), started, made,
	       started == 1 && made == 0 ? "inside one" : "FAIL");
	return 0; /* exit(): the process ends, the maker and its held frame too */
}
