/* irq_stats.c: the interrupt layer's counts and their export (TACET_INFO_IRQ, TACET_INFO_HART's
 * external count): per line and hart, totals summed when read, spurious claims, and the
 * wake-up latency of a woken server. Written under the BKL by the top half (irq.c, irq_fast.h);
 * read here under the BKL too (a reader may see a torn maximum, no more). */
#include "irq/irq.h"
#include "irq/irq_fast.h"
#include "core/hart.h"
#include <tacet/abi.h>

uint64_t irq_spurious_total; /* claims that found no line, or a line not IDLE (atomic) */

uint64_t irq_spurious(void)
{
	return __atomic_load_n(&irq_spurious_total, __ATOMIC_RELAXED);
}

uint64_t irq_count(const struct irq_desc *d)
{
	uint64_t n = 0;

	for (unsigned int h = 0; h < MAX_HARTS; h++)
		n += d->per_hart[h];
	return n;
}

uint64_t irq_hart_count(unsigned int h)
{
	uint64_t n = harts[h].empty_claims;

	for (unsigned int irq = 1; irq <= irq_lines; irq++) /* the controller's, not IRQ_MAX */
		n += irq_descs[irq]->per_hart[h];
	return n;
}

void irq_note_running(struct thread *t)
{
	struct irq_desc *d = t->irq_woken_by;

	if (d && !t->irq_running_at)
		irq_count_wake(d, t);
}

long irq_info(unsigned long index, void *out)
{
	struct tacet_irq_info *ii = out;
	struct irq_desc *d = index < IRQ_MAX ? irq_descs[index] : NULL;

	if (!d)
		return -TACET_ENOENT;
	ii->irq = d->irq;
	ii->state = d->state;
	ii->hart = d->hart;
	ii->bound = d->handler ? 1 : d->nbinders;
	ii->unhandled = d->unhandled;
	ii->disabled_count = d->disabled_count;
	ii->count = irq_count(d);
	for (unsigned int h = 0; h < MAX_HARTS && h < TACET_INFO_MAX_HARTS; h++)
		ii->per_hart[h] = d->per_hart[h];
	ii->top_half_max = d->top_half_max;
	ii->top_half_total = d->top_half_total;
	ii->last_trap = d->last_trap;
	ii->last_done = d->last_done;
	ii->spurious_all = irq_spurious();
	ii->wake_max = d->wake_max;
	ii->wake_avg = d->wakes ? d->wake_total / d->wakes : 0;
	ii->server_max = d->server_max;
	ii->server_avg = d->served ? d->server_total / d->served : 0;
	return sizeof(*ii);
}
