/* notify.c: the notification wake-up benchmarks: from just before tacet_signal() to the
 * waiting thread running again after its tacet_wait() returns.
 *
 * Three raw threads of this process (bench.h) do the work; main() only starts them, waits for
 * the end and reports:
 *   signaller (SIGNALLER_PRIO): waits for the acker's go-ahead, reads the cycle counter and
 *       signals the waiter's notification with that count as the bits (far below bit 63);
 *   waiter (WAITER_PRIO): tacet_wait(), then reads the counter itself: the sample is the
 *       difference; then it tells the acker and waits again;
 *   acker (ACKER_PRIO, the waiter's hart): below the waiter on its hart, so it runs only once
 *       the waiter has blocked in tacet_wait() again, and then gives the signaller the
 *       go-ahead. The signaller thus never signals a waiter that is not yet waiting, and
 *       nobody spins: under -icount a spinning hart would stall the others.
 * On one hart the waiter outranks the signaller, so the signal switches to it at once.
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
	SLOT_STACK_WAITER,
	SLOT_STACK_ACKER,
	SLOT_STACK_SIGNALLER,
};

#define WAITER_PRIO    150
#define ACKER_PRIO     130
#define SIGNALLER_PRIO 120
_Static_assert(WAITER_PRIO > ACKER_PRIO && ACKER_PRIO > SIGNALLER_PRIO &&
		       NOTIFY_PRIO_MAIN >= WAITER_PRIO,
	       "the protocol rests on these priorities");

#define STACKS_VA   0x0000003000000000ul /* the threads' stacks: a page each, a gap between */
#define PAGE_SIZE   4096ul
#define ACKER_QUIT  2ul /* in SLOT_ACKER's bits: the waiter is done */
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
	tacet_signal(SLOT_ACKER, ACKER_QUIT);
}

/* One go-ahead at the start, one each time the waiter blocks again, one when it is done. */
static void acker(unsigned long arg)
{
	long bits;

	(void)arg;
	do {
		tacet_signal(SLOT_ACK, 1);
		bits = tacet_wait(SLOT_ACKER);
	} while (bits > 0 && !(bits & ACKER_QUIT));
	tacet_signal(SLOT_ACK, 1);
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
	/* the waiter first: it must be waiting before the acker's first go-ahead */
	if (!err)
		err = bench_thread_start(waiter, 0, WAITER_PRIO, waiter_hart, SLOT_STACK_WAITER,
					 STACKS_VA);
	if (!err)
		err = bench_thread_start(acker, 0, ACKER_PRIO, waiter_hart, SLOT_STACK_ACKER,
					 STACKS_VA + 2 * PAGE_SIZE);
	if (!err)
		err = bench_thread_start(signaller, 0, SIGNALLER_PRIO, signaller_hart,
					 SLOT_STACK_SIGNALLER, STACKS_VA + 4 * PAGE_SIZE);
	if (!err && tacet_wait(SLOT_DONE) < 0)
		err = -TACET_EDEAD;
	if (err) {
		printf("%s: %s\n", name, tacet_strerror(err));
		return 1;
	}
	bench_report(name, samples, BENCH_SAMPLES);
	return 0;
}
