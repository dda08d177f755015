/* edu_msidie.c: a driver that dies with a message-signalled interrupt in flight (the MSI
 * release test). Started as `edu_msidie@H*2`: init restarts it twice. Each instance claims the
 * edu device by MSI (edu_open_msi) and raises MSIDIE_ROUNDS interrupts, each raised while the
 * one before is still unacknowledged (the line PENDING, its identity masked in the hart's
 * file: the message waits there) and taken by the tacet_irq_ack_wait that unmasks it. The
 * first two instances then raise one more, the line still PENDING on the last one's ack, and
 * fault: the kernel settles the owed ack as not handled, pci masks the function's MSI and
 * frees the line, which drops the message waiting in the file (counted spurious) before
 * anything could deliver it. The third ends normally.
 *
 * The counts add up across instances (the line is lent again, the same one, and its counts
 * are the kernel's for ever): an instance k starts with the line's count at k x
 * MSIDIE_ROUNDS (every message raised was claimed once, but the dropped ones), k unhandled
 * and k spurious claims since boot (raised = delivered + dropped). Prints
 * `edu_msidie: instance K: line L: count C, unhandled U, spurious S at the start: PASS`, then
 * `... MSIDIE_ROUNDS raised, each delivered once; ...` and faults, or exits 0 (the third), or
 * FAIL and exits 1. IPC: none served. */
#include <stdio.h>
#include <tacet.h>
#include "edu_dev.h"

#define MSIDIE_ROUNDS 500
#define MSIDIE_DEATHS 2          /* instances that fault */
#define IRQ_BADGE     1
#define TIMER_BADGE   2
#define LOST_NS       1000000000ull /* 1 s: it is lost */

static struct tacet_irq_info line_info(unsigned long irq)
{
	struct tacet_irq_info info = { 0 };

	tacet_info(TACET_INFO_IRQ, irq, &info, sizeof(info));
	return info;
}

/* The next interrupt's bits, by ack_wait (ack: the one before is acknowledged as handled, the
 * line unmasked) or a plain wait, with a timer that catches a lost one: IRQ_BADGE, or else. */
static long next_bits(int ack)
{
	long bits;

	tacet_timer_set(EDU_SLOT_NTFN, TIMER_BADGE, tacet_time() + tacet_ns_to_ticks(LOST_NS));
	bits = ack ? tacet_irq_ack_wait(EDU_SLOT_IRQ, 1, EDU_SLOT_NTFN, NULL)
		   : tacet_wait(EDU_SLOT_NTFN);
	tacet_timer_set(EDU_SLOT_NTFN, TIMER_BADGE, 0);
	return bits;
}

/* MSIDIE_ROUNDS interrupts, each raised before the one before is acknowledged; returns how
 * many were delivered with the device's status set. The last is left unacknowledged. */
static unsigned long rounds(struct edu *e)
{
	unsigned long delivered = 0;
	long bits;

	e->regs[EDU_IRQ_RAISE] = EDU_IRQ_BIT;
	bits = next_bits(0);
	for (unsigned int i = 0; bits == IRQ_BADGE; i++) {
		uint32_t status = e->regs[EDU_IRQ_STATUS];

		if (!status)
			break;
		e->regs[EDU_IRQ_ACK] = status;
		if (++delivered == MSIDIE_ROUNDS)
			break;
		e->regs[EDU_IRQ_RAISE] = EDU_IRQ_BIT; /* in flight: the line is PENDING, masked */
		bits = next_bits(1);
	}
	return delivered;
}

int main(void)
{
	struct edu e;
	unsigned long k = tacet_instance(), delivered;
	struct tacet_irq_info start, end;
	int ok;

	if (edu_open_msi(&e, IRQ_BADGE) < 0)
		return 1;
	start = line_info(e.irq);
	/* INTx (the PLIC's machine): the line is never freed, and an interrupt left in flight is
	 * the device's status, which edu_open clears: the start's counts are not a formula */
	ok = !e.msi || (start.count == k * MSIDIE_ROUNDS && start.unhandled == k &&
			start.spurious_all == k);
	printf("edu_msidie: instance %lu: %s %lu: count %lu, unhandled %lu, spurious %lu at the "
	       "start: %s\n", k, e.msi ? "line" : "INTx line", e.irq, (unsigned long)start.count,
	       (unsigned long)start.unhandled, (unsigned long)start.spurious_all,
	       !e.msi ? "not checked" : ok ? "PASS" : "FAIL");
	delivered = rounds(&e);
	end = line_info(e.irq);
	/* INTx: the line may deliver the interrupt a dead instance left first (the PLIC latched
	 * it), which this one takes for its own first: its count is not checked either */
	ok = ok && delivered == MSIDIE_ROUNDS &&
	     (!e.msi || end.count == start.count + MSIDIE_ROUNDS);
	if (e.msi)
		printf("edu_msidie: instance %lu: %d raised, %lu delivered, line count +%lu: %s\n", k,
		       MSIDIE_ROUNDS, delivered, (unsigned long)(end.count - start.count),
		       ok ? "PASS" : "FAIL");
	else
		printf("edu_msidie: instance %lu: %d raised, %lu delivered: %s\n", k, MSIDIE_ROUNDS,
		       delivered, ok ? "PASS" : "FAIL");
	if (!ok)
		return 1;
	if (k >= MSIDIE_DEATHS) {
		tacet_irq_ack(EDU_SLOT_IRQ, 1);
		return 0;
	}
	e.regs[EDU_IRQ_RAISE] = EDU_IRQ_BIT; /* one more, held in the file: then the fault */
	printf("edu_msidie: instance %lu: one more raised, the last unacknowledged; faulting\n", k);
	*(volatile unsigned long *)0 = 0;
	return 0;
}
