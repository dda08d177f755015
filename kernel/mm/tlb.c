/* tlb.c: TLB shootdown across harts, for a process whose mappings change or whose memory goes
 * (tlb.h). The other side (a hart's flush on request) is hart.c's hart_tlb_flush_if_asked,
 * which a hart also runs while it waits for the BKL. BKL held. */
#include "mm/tlb.h"
#include "core/hart.h"
#include "object/process.h"
#include "object/thread.h"

/* Wait until h has flushed: a few looks, then asleep until an IPI (h's flush wakes this hart:
 * hart_tlb_flush_if_asked), as hart.h's waits go. Under -icount a hart that spun here kept the
 * harts it waits for from running (QEMU runs one at a time): the fuzzer's stress run never
 * ended. */
static void wait_for_flush(struct hart *me, struct hart *h)
{
	unsigned int looks = 0;
	bool requests = false;

	while (__atomic_load_n(&h->tlb_flush_pending, __ATOMIC_ACQUIRE)) {
		if (looks++ < HART_WAIT_LOOKS)
			arch_cpu_relax();
		else if (hart_sleep_until_ipi(me))
			requests = true;
	}
	if (requests)
		arch_ipi_raise_self();
}

/* After unmapping in p, or before p's memory goes: no hart that runs one of p's threads may
 * keep a stale translation. Ask each to flush and wait until all have (they do it in their IPI
 * handler, or while they wait for the BKL this hart holds). BKL held. */
void tlb_shootdown(struct process *p)
{
	struct hart *me = this_hart();
	uint32_t asked = 0;

	for (unsigned int h = 0; h < nharts; h++) {
		if (&harts[h] == me || !harts[h].current || harts[h].current->proc != p)
			continue;
		__atomic_store_n(&harts[h].tlb_flush_pending, me->id + 1, __ATOMIC_RELEASE);
		hart_signal(&harts[h], IPI_TLB);
		asked |= 1u << h;
	}
	for (unsigned int h = 0; h < nharts; h++)
		if (asked & (1u << h))
			wait_for_flush(me, &harts[h]);
}
