/* hart.c: the per-hart array and the cross-hart signalling built on IPIs. ipi_pending and the
 * ping/pong words are the only fields other harts write; they do so with atomic ORs. */
#include "hart.h"
#include "ktest.h"

struct hart harts[MAX_HARTS];
unsigned int nharts;

void hart_signal(struct hart *h, uint32_t reasons)
{
	__atomic_fetch_or(&h->ipi_pending, reasons, __ATOMIC_RELEASE);
	arch_ipi_send(h);
}

void hart_handle_ipi(void)
{
	struct hart *me = this_hart();
	uint32_t reasons = __atomic_exchange_n(&me->ipi_pending, 0, __ATOMIC_ACQUIRE);

	me->ipis++;
	if (reasons & IPI_HALT)
		arch_halt();
	if (reasons & IPI_PING)
		ktest_answer_pings();
	/* IPI_PONG and IPI_WAKE need nothing here: the woken loop re-checks its condition. */
}
