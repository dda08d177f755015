/* hardirq.c: the in-kernel fast path (irq_request_fast): handlers that run in the top half,
 * interrupts masked; the rate rule that disables a storming one (reported later by
 * irq_report_due, outside the top half); and the guarded escape irq_enable_in_hardirq, refused
 * when the interrupt stack is past IRQ_STACK_GUARD or nesting reaches IRQ_NEST_MAX. Per-hart
 * nesting state is the hart's own; line state is under the BKL (irq.c). */
#include "irq/irq.h"
#include "irq/irqchip.h"
#include "arch.h"
#include "core/console.h"
#include "core/timer.h"

bool irq_reports_due; /* some line's report_due is set (irq_report() looks inline) */

void irq_fast_storm_check(struct irq_desc *d)
{
	static uint64_t window; /* IRQ_STORM_WINDOW_US in timebase ticks, once known */
	uint64_t now = timer_now();

	if (!window)
		window = timer_us_to_ticks(IRQ_STORM_WINDOW_US);
	if (now - d->window_start > window) {
		d->window_start = now;
		d->window_count = 0;
	}
	if (++d->window_count <= IRQ_STORM_LIMIT)
		return;
	arch_irq_mask(d->irq);
	d->state = IRQ_DISABLED;
	d->disabled = true;
	d->disabled_count++;
	d->report_due = true;
	__atomic_store_n(&irq_reports_due, true, __ATOMIC_RELAXED);
}

void irq_report_due(void)
{
	unsigned int n = irq_chip ? irq_chip->nr_irqs : 0;

	irq_reports_due = false;
	for (unsigned int irq = 1; irq <= n && irq < IRQ_MAX; irq++) {
		if (!irq_descs[irq] || !irq_descs[irq]->report_due)
			continue;
		irq_descs[irq]->report_due = false;
		kprintf("tacet: irq %u disabled: an interrupt storm in its fast handler; irq_enable "
			"turns it back on\n", irq);
	}
}

/* A bound line fired: mask it and tell every binder. BKL held. */
int irq_request_fast(unsigned int irq, irq_handler_fn fn, unsigned int flags, unsigned int hart)
{
	struct irq_desc *d = irq_desc_get(irq);

	(void)(flags & IRQF_DISABLED); /* a no-op: see irq.h */
	if (!d || d->state != IRQ_UNBOUND)
		return -1;
	d->handler = fn;
	d->hart = hart;
	d->state = IRQ_IDLE;
	irq_chip->set_affinity(irq, hart);
	irq_chip->set_priority(irq, 1);
	arch_irq_unmask(irq);
	return 0;
}

bool irq_enable_in_hardirq(void)
{
	struct hart *me = this_hart();
	uintptr_t sp = arch_stack_pointer();
	uintptr_t used = me->irq_stack_top - sp;

	if (sp < me->irq_sp_min || !me->irq_sp_min)
		me->irq_sp_min = sp;
	if (me->irq_depth >= IRQ_NEST_MAX || used > IRQ_STACK_GUARD || sp > me->irq_stack_top) {
		me->nest_refused++;
		return false;
	}
	me->hardirq_windows++;
	arch_local_irq_enable();
	return true;
}
