/* tlbtest: unmaps a page while a thread of the same process keeps reading it on another hart.
 * Without a TLB shootdown that hart would go on using the stale translation (and the freed
 * page): the main thread would see the reader's count go on and say FAIL. With it, the reader
 * faults at its next access (the kernel and init report the fault at X_VA), and a fault ends
 * the whole process (init ends a faulted server, every thread of it), main thread
 * included: the case reads the fault's report, not a verdict of main's. No IPC protocol. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "../bench/bench.h"

#define X_VA      0x0000002100000000ul /* the page that goes away */
#define Y_VA      0x0000002200000000ul /* the reader's progress */
#define STACK_VA  0x0000002300000000ul
#define SLOT_X    (TACET_CHILD_FIRST_FREE + 0)
#define SLOT_Y    (TACET_CHILD_FIRST_FREE + 1)
#define SLOT_STK  (TACET_CHILD_FIRST_FREE + 2)
#define READER_HART 2
#define SETTLE_NS 50000000ull /* 50 ms */

static void reader(unsigned long arg)
{
	volatile unsigned long *x = (volatile unsigned long *)X_VA;
	volatile unsigned long *y = (volatile unsigned long *)Y_VA;

	(void)arg;
	for (;;) {
		y[0] += x[0];
		y[1]++;
	}
}

static void settle(void)
{
	unsigned long end = tacet_time() + tacet_ns_to_ticks(SETTLE_NS);

	while (tacet_time() < end)
		;
}

int main(void)
{
	volatile unsigned long *x = (volatile unsigned long *)X_VA;
	volatile unsigned long *y = (volatile unsigned long *)Y_VA;
	unsigned long before, after;
	long err;

	err = tacet_frame_new(SLOT_X, 1);
	if (!err)
		err = tacet_map(TACET_CHILD_SELF, SLOT_X, X_VA, TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (!err)
		err = tacet_frame_new(SLOT_Y, 1);
	if (!err)
		err = tacet_map(TACET_CHILD_SELF, SLOT_Y, Y_VA, TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (!err) {
		x[0] = 1;
		err = bench_thread_start(reader, 0, 100, READER_HART, SLOT_STK, STACK_VA);
	}
	if (err) {
		printf("tlbtest: FAIL: set-up: %s\n", tacet_strerror(err));
		return 1;
	}
	while (y[1] < 100000) /* the reader runs on its hart, the page in its TLB */
		;
	printf("tlbtest: the reader reads the page on hart %d; unmapping it\n", READER_HART);
	err = tacet_unmap(TACET_CHILD_SELF, X_VA, 1);
	tacet_cap_delete(SLOT_X); /* the page goes back to the kernel */
	printf("tlbtest: unmapped the page while hart %d reads it (%s)\n", READER_HART,
	       tacet_strerror(err));
	settle();
	before = y[1];
	settle();
	after = y[1];
	printf("tlbtest: reader %s after the unmap: %s\n", before == after ? "stopped" : "went on",
	       before == after ? "PASS" : "FAIL");
	return before == after ? 0 : 1;
}
