/* tlb.c: TLB shootdown across harts, for a process whose mappings change or whose memory goes
 * (tlb.h). The other side (a hart's flush on request) is hart.c's hart_tlb_flush_if_asked,
 * which a hart also runs while it spins for the BKL. BKL held. */
#include "mm/tlb.h"
#include "core/hart.h"
#include "object/process.h"
#include "object/thread.h"

/* After unmapping in p, or before p's memory goes: no hart that runs one of p's threads may
 * keep a stale translation. Ask each to flush and wait until all have (they do it in their IPI
 * handler, or while they spin for the BKL this hart holds). BKL held. */
void tlb_shootdown(struct process *p)
{
	struct hart *me = this_hart();
	uint32_t asked = 0;

	for (unsigned int h = 0; h < nharts; h++) {
		if (&harts[h] == me || !harts[h].current || harts[h].current->proc != p)
			continue;
		__atomic_store_n(&harts[h].tlb_flush_pending, 1, __ATOMIC_RELEASE);
		hart_signal(&harts[h], IPI_TLB);
		asked |= 1u << h;
	}
	for (unsigned int h = 0; h < nharts; h++)
		if (asked & (1u << h))
			while (__atomic_load_n(&harts[h].tlb_flush_pending, __ATOMIC_ACQUIRE))
				;
}
