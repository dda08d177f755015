/* prio_high.c: the urgent side of the priority-preemption test (prio_test.h): publishes a
 * notification as "prio", waits on it, and checks that it ran less than 1 ms of guest time
 * after prio_signal signalled it from another hart, although prio_low was spinning on this
 * hart at a lower priority: the kernel must preempt it at once, not at the end of its 5 ms
 * slice. Then signals "prio.done" to let prio_signal finish. No other IPC. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "prio_test.h"

enum prio_high_slot {
	SLOT_NTFN = TACET_CHILD_FIRST_FREE,
	SLOT_DONE,
};

#define LATENCY_MAX_TICKS PRIO_TICKS_PER_MS
#define LOOKUP_TRIES 100000

/* Checks the wake-up: bits is what the wait returned, now the time right after it, low the
 * state prio_low was in at that moment. Returns 0 if all is well. */
static int check(long bits, unsigned long now, long low)
{
	unsigned long sent = (unsigned long)bits, latency;
	int failed = 0;

	if (bits <= 0) {
		printf("prio_high: wait: FAIL %s\n", bits ? tacet_strerror(bits) : "no bits");
		return 1;
	}
	if (now < sent) {
		printf("prio_high: woken at %lu, before the signal at %lu: FAIL\n", now, sent);
		return 1;
	}
	latency = now - sent;
	if (latency < LATENCY_MAX_TICKS) {
		printf("prio_high: woken after %lu ticks: PASS\n", latency);
	} else {
		printf("prio_high: woken after %lu ticks: FAIL (limit %lu ticks, 1 ms)\n", latency,
		       LATENCY_MAX_TICKS);
		failed = 1;
	}
	/* prio_low was mid-spin and must have been preempted, not finished or blocked */
	if (low == TACET_THREAD_READY) {
		printf("prio_high: prio_low preempted: PASS\n");
	} else {
		printf("prio_high: prio_low preempted: FAIL its state is %ld, expected %d (ready)\n",
		       low, TACET_THREAD_READY);
		failed = 1;
	}
	return failed;
}

int main(void)
{
	unsigned long now;
	long bits, err = tacet_ntfn_new(SLOT_NTFN), low;
	int failed;

	if (!err)
		err = tacet_publish(PRIO_NAME, SLOT_NTFN, TACET_RIGHT_WRITE);
	if (err) {
		printf("prio_high: publish " PRIO_NAME ": FAIL %s\n", tacet_strerror(err));
		return 1;
	}
	bits = tacet_wait(SLOT_NTFN);
	now = prio_rdtime();
	/* where prio_low is now, before anything of ours gives it the hart back */
	low = prio_thread_state("prio_low");
	failed = check(bits, now, low);
	err = tacet_lookup(PRIO_DONE_NAME, SLOT_DONE, LOOKUP_TRIES);
	if (!err)
		err = tacet_signal(SLOT_DONE, 1);
	if (err) {
		printf("prio_high: signal " PRIO_DONE_NAME ": FAIL %s\n", tacet_strerror(err));
		failed = 1;
	}
	return failed;
}
