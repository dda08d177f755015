/* notify.c: the notification wake-up benchmarks: from just before tacet_signal() to the
 * waiting thread running again after its tacet_wait() returns.
 *
 * Three raw threads of this process take turns (struct bench_trio, bench.h); main() only starts
 * them, waits for the end and reports:
 *   signaller (the trio's driver): after the acker's go-ahead, reads the cycle counter and
 *       signals the waiter's notification with that count as the bits (far below bit 63);
 *   waiter: tacet_wait(), then reads the counter itself: the sample is the difference; then it
 *       tells the acker and waits again.
 * The signaller thus never signals a waiter that is not yet waiting. On one hart the waiter
 * outranks the signaller, so the signal switches to it at once.
 */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "bench.h"
#include "notify.h"

enum notify_slot {
	SLOT_WAKE = TACET_CHILD_FIRST_FREE, /* the waiter waits here; the bits are a count */
	SLOT_ACK,                           /* the acker tells the signaller: go on */
	SLOT_ACKER,                         /* the waiter tells the acker: I am about to wait */
	SLOT_DONE,                          /* the signaller tells main: all samples are in */
	SLOT_STACK_WAITER, /* and the two after it: the trio's stacks (bench.h) */
};

_Static_assert(NOTIFY_PRIO_MAIN >= BENCH_WAITER_PRIO, "main starts the waiter");

#define STACKS_VA   0x0000003000000000ul /* the threads' stacks: a page each, a gap between */
#define ROUNDS      (BENCH_WARMUP + BENCH_SAMPLES)

static unsigned long samples[BENCH_SAMPLES];
static unsigned long overhead;

static void waiter(unsigned long arg)
{
	(void)arg;
	for (unsigned long i = 0; i < ROUNDS; i++) {
		long start = tacet_wait(SLOT_WAKE);
		unsigned long end = bench_rdcycle();

		if (start < 0)
			break; /* main sees the samples missing */
		if (i >= BENCH_WARMUP)
			samples[i - BENCH_WARMUP] = end - (unsigned long)start - overhead;
		if (i < ROUNDS - 1)
			tacet_signal(SLOT_ACKER, 1);
	}
	tacet_signal(SLOT_ACKER, BENCH_ACKER_QUIT);
}

static void signaller(unsigned long arg)
{
	(void)arg;
	for (unsigned long i = 0; i < ROUNDS; i++) {
		tacet_wait(SLOT_ACK);
		tacet_signal(SLOT_WAKE, bench_rdcycle());
	}
	tacet_wait(SLOT_ACK);
	tacet_signal(SLOT_DONE, 1);
}

int bench_notify(const char *name, unsigned int waiter_hart, unsigned int signaller_hart)
{
	long err = 0;

	overhead = bench_overhead();
	for (unsigned long slot = SLOT_WAKE; !err && slot <= SLOT_DONE; slot++)
		err = tacet_ntfn_new(slot);
	if (!err) {
		struct bench_trio trio = {
			.waiter = waiter, .driver = signaller,
			.waiter_hart = waiter_hart, .driver_hart = signaller_hart,
			.ack_slot = SLOT_ACK, .acker_slot = SLOT_ACKER,
			.first_stack_slot = SLOT_STACK_WAITER, .stacks_va = STACKS_VA,
		};

		err = bench_trio_start(&trio);
	}
	if (!err && tacet_wait(SLOT_DONE) < 0)
		err = -TACET_EDEAD;
	if (err) {
		printf("%s: %s\n", name, tacet_strerror(err));
		return 1;
	}
	bench_report(name, samples, BENCH_SAMPLES);
	return 0;
}
