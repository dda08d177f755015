/* irq.c: owns irq_handlers[] (written before a line is enabled, read-only after) and the
 * counters (atomics: any hart may take any line). Runs in the top half, interrupts masked. */
#include "irq/irq.h"

static irq_handler_fn irq_handlers[IRQ_MAX];
static uint64_t irq_counts[IRQ_MAX];
static uint64_t unhandled;

void irq_handle(unsigned int irq)
{
	irq_handler_fn fn = irq < IRQ_MAX ? irq_handlers[irq] : 0;

	if (!fn) {
		__atomic_fetch_add(&unhandled, 1, __ATOMIC_RELAXED);
		return;
	}
	__atomic_fetch_add(&irq_counts[irq], 1, __ATOMIC_RELAXED);
	fn(irq);
}

void irq_set_handler(unsigned int irq, irq_handler_fn fn)
{
	if (irq < IRQ_MAX)
		irq_handlers[irq] = fn;
}

uint64_t irq_count(unsigned int irq)
{
	return irq < IRQ_MAX ? __atomic_load_n(&irq_counts[irq], __ATOMIC_RELAXED) : 0;
}

uint64_t irq_unhandled(void)
{
	return __atomic_load_n(&unhandled, __ATOMIC_RELAXED);
}
