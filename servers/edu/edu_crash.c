/* edu_crash.c: a driver that faults on every 100th interrupt (the restart test). Started as
 * `edu_crash*50`, init restarts it after each fault; every instance claims the edu device
 * afresh, raises EDU_CRASH_EVERY interrupts one at a time, handles and acknowledges all but
 * the last, and faults (a store to address 0) while handling the last, leaving it pending in
 * the device and unacknowledged on the line.
 *
 * Every interrupt is delivered exactly once: the line's count (TACET_INFO_IRQ, kept across
 * instances by the kernel) is a whole number of rounds when an instance starts (nothing left
 * over from the one before was delivered again) and has grown by exactly EDU_CRASH_EVERY when
 * it faults. Prints `edu_crash: instance K: ...: PASS` (K counted from the line's count) or
 * FAIL, then faults (or, if a check failed, exits with status 1: also a failure, restarted).
 */
#include <stdio.h>
#include <tacet.h>
#include "edu_dev.h"

#define EDU_CRASH_EVERY 100
#define IRQ_BADGE       1
#define TIMER_BADGE     2
#define LOST_NS         1000000000ull /* 1 s: it is lost */

static unsigned long line_count(unsigned long irq)
{
	struct tacet_irq_info info = { 0 };

	tacet_info(TACET_INFO_IRQ, irq, &info, sizeof(info));
	return info.count;
}

int main(void)
{
	struct edu e;
	unsigned long first, handled = 0;
	long bits = 0;

	if (edu_open(&e, IRQ_BADGE) < 0)
		return 1;
	first = line_count(e.irq);
	for (unsigned int i = 0; i < EDU_CRASH_EVERY; i++) {
		e.regs[EDU_IRQ_RAISE] = EDU_IRQ_BIT;
		tacet_timer_set(EDU_SLOT_NTFN, TIMER_BADGE, tacet_time() + tacet_ns_to_ticks(LOST_NS));
		bits = tacet_wait(EDU_SLOT_NTFN);
		tacet_timer_set(EDU_SLOT_NTFN, TIMER_BADGE, 0);
		if (bits != IRQ_BADGE || !(e.regs[EDU_IRQ_STATUS] & EDU_IRQ_BIT))
			break; /* lost (the timer), or not ours */
		if (i == EDU_CRASH_EVERY - 1)
			break; /* the last: fault while handling it */
		e.regs[EDU_IRQ_ACK] = EDU_IRQ_BIT;
		if (tacet_irq_ack(EDU_SLOT_IRQ, 1) == 0)
			handled++;
	}
	if (first % EDU_CRASH_EVERY || handled != EDU_CRASH_EVERY - 1 ||
	    line_count(e.irq) != first + EDU_CRASH_EVERY) {
		printf("edu_crash: instance %lu: line count %lu at the start, %lu now, %lu handled "
		       "(bits %ld): FAIL\n", first / EDU_CRASH_EVERY, first, line_count(e.irq), handled,
		       bits);
		return 1;
	}
	printf("edu_crash: instance %lu: %lu interrupts handled, each delivered once; faulting on "
	       "interrupt %d: PASS\n", first / EDU_CRASH_EVERY, handled, EDU_CRASH_EVERY);
	*(volatile unsigned long *)0 = 0;
	return 0;
}
