/* prio_signal.c: the waking side of the priority-preemption test (prio_test.h): once prio_high
 * waits on "prio" and prio_low has been spinning for 22.5 ms, signals the notification with
 * its rdtime, from its own hart; then sleeps on "prio.done" until prio_high has measured. No
 * other IPC. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "prio_test.h"

enum prio_signal_slot {
	SLOT_NTFN = TACET_CHILD_FIRST_FREE,
	SLOT_DONE,
};

#define LOOKUP_TRIES 100000
/*
 * How long prio_low spins before the signal: well inside its 200 ms, and not a whole number of
 * the kernel's 5 ms slices. prio_low's slices start about when wait_for_setup() sees it run
 * (its hart went from idle to busy when prio_low's lookup was answered); a whole number of
 * slices would put the signal just before a slice ends, where a kernel that switches only at
 * slice ends would meet the 1 ms bound too.
 */
#define SETTLE_TICKS (22 * PRIO_TICKS_PER_MS + PRIO_TICKS_PER_MS / 2)
/* How long the other two may take to get to where the test needs them. */
#define READY_TIMEOUT_MS 5000
/* Between two looks at the threads' states: 0.1 ms off the kernel lock. */
#define POLL_PERIOD_TICKS (PRIO_TICKS_PER_MS / 10)

/* Spin (reading the time, no system calls) for ticks of guest time. */
static void spin_ticks(unsigned long ticks)
{
	unsigned long start = prio_rdtime();

	while (prio_rdtime() - start < ticks)
		;
}

/* Whether prio_high came to wait while prio_low runs, as the test needs them, within the
 * timeout. */
static int wait_for_setup(void)
{
	unsigned long start = prio_rdtime();

	while (prio_thread_state("prio_high") != TACET_THREAD_BLOCKED_NTFN ||
	       prio_thread_state("prio_low") != TACET_THREAD_RUNNING) {
		if (prio_rdtime() - start > READY_TIMEOUT_MS * PRIO_TICKS_PER_MS) {
			printf("prio_signal: FAIL prio_high (state %ld) never waited while "
			       "prio_low (state %ld) ran\n",
			       prio_thread_state("prio_high"), prio_thread_state("prio_low"));
			return 0;
		}
		spin_ticks(POLL_PERIOD_TICKS);
	}
	return 1;
}

int main(void)
{
	unsigned long now;
	long bits, err = tacet_ntfn_new(SLOT_DONE);

	if (!err)
		err = tacet_publish(PRIO_DONE_NAME, SLOT_DONE, TACET_RIGHT_WRITE);
	if (!err)
		err = tacet_lookup(PRIO_NAME, SLOT_NTFN, LOOKUP_TRIES);
	if (err) {
		printf("prio_signal: publish " PRIO_DONE_NAME ", lookup " PRIO_NAME ": FAIL %s\n",
		       tacet_strerror(err));
		return 1;
	}
	if (!wait_for_setup()) {
		/* no test to run; end prio_high's wait all the same, so that the run ends */
		tacet_signal(SLOT_NTFN, prio_rdtime());
		return 1;
	}
	spin_ticks(SETTLE_TICKS);
	now = prio_rdtime();
	err = tacet_signal(SLOT_NTFN, now);
	bits = err ? err : tacet_wait(SLOT_DONE);
	if (bits <= 0) {
		printf("prio_signal: signal " PRIO_NAME ", wait " PRIO_DONE_NAME ": FAIL %s\n",
		       tacet_strerror(bits));
		return 1;
	}
	printf("prio_signal: signalled at %lu\n", now);
	return 0;
}
