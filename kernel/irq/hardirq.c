/* hardirq.c: the in-kernel fast handlers (irq_request_fast), which run in the top half with
 * interrupts masked (their storm rule is detection's: spurious.c), and the guarded escape
 * irq_enable_in_hardirq, refused when the interrupt stack is past IRQ_STACK_GUARD or nesting
 * reaches IRQ_NEST_MAX. Per-hart nesting state is the hart's own; line state is under the BKL
 * (irq.c). */
#include "irq/irq.h"
#include "irq/irqchip.h"
#include "arch.h"

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
