/* hart.c: the per-hart array and the cross-hart signalling built on IPIs. ipi_pending and the
 * ping/pong words are the only fields other harts write; they do so with atomic ORs. */
#include "core/hart.h"
#include "test/ktest.h"

struct hart harts[MAX_HARTS];
unsigned int nharts;

void hart_tlb_flush_if_asked(void)
{
	struct hart *me = this_hart();

	uint32_t from = __atomic_load_n(&me->tlb_flush_pending, __ATOMIC_ACQUIRE);

	if (from) {
		/* In the kernel, the kernel's own tables do (their kernel half is the same), and they
		 * cannot go away: leaving user mode re-activates the thread's (sched.c). */
		arch_aspace_activate(0);
		arch_tlb_flush_local();
		__atomic_store_n(&me->tlb_flush_pending, 0, __ATOMIC_RELEASE);
		arch_ipi_send(&harts[from - 1]); /* a bare wake-up: the asker may sleep (tlb.c) */
	}
}

/* The reasons that ask for work here (hart_handle_ipi's rare branch). */
#define IPI_WORK (IPI_HALT | IPI_PING | IPI_TLB | IPI_IRQ)

/* hart_handle_ipi's rare branch: what the reasons ask for, done. */
static void handle_work(uint32_t reasons)
{
	if (reasons & IPI_HALT)
		arch_halt();
	if (reasons & IPI_PING)
		ktest_answer_pings();
	if (reasons & IPI_TLB)
		hart_tlb_flush_if_asked();
	if (reasons & IPI_IRQ)
		arch_irq_sync_hart();
}

void hart_handle_ipi(void)
{
	struct hart *me = this_hart();
	uint32_t reasons = __atomic_exchange_n(&me->ipi_pending, 0, __ATOMIC_ACQUIRE);

	me->ipis++;
	/* IPI_PONG, IPI_WAKE and IPI_RESCHED, the common ones, need nothing here: the woken loop
	 * re-checks its condition, the scheduler its queue; one test for all the others */
	if (__builtin_expect(reasons & IPI_WORK, 0))
		handle_work(reasons);
}
