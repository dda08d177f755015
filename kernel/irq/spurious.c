/* spurious.c: detection, in the spirit of Linux's note_interrupt: a threaded line whose
 * interrupts nobody handled IRQ_UNHANDLED_LIMIT times in a row, or a fast handler's line firing
 * more than IRQ_STORM_LIMIT times within IRQ_STORM_WINDOW_US, is disabled (irq_line_disable,
 * the one way a line is turned off); each disable is reported later, outside the top half and
 * the acknowledgement (irq_report_disabled). Owns each line's detection history (irq.c's
 * header says whose it is). BKL held throughout; the top half calls irq_fast_storm_check,
 * acknowledgements irq_note_unhandled, the scheduler irq_report. */
#include "irq/irq.h"
#include "irq/irqchip.h"
#include "arch.h"
#include "core/console.h"
#include "core/timer.h"

bool irq_disabled_unreported; /* some line's unreported is set (irq_report() looks inline) */

void irq_line_disable(struct irq_desc *d, enum irq_disable_why why)
{
	arch_irq_mask(d->irq);
	d->state = IRQ_DISABLED;
	d->disabled = true;
	d->disabled_count++;
	d->unreported = why;
	__atomic_store_n(&irq_disabled_unreported, true, __ATOMIC_RELAXED);
}

void irq_detect_reset(struct irq_desc *d)
{
	d->unhandled_streak = 0;
	d->window_count = 0;
	d->disabled = false;
}

bool irq_note_unhandled(struct irq_desc *d)
{
	d->unhandled++;
	if (++d->unhandled_streak < IRQ_UNHANDLED_LIMIT)
		return false;
	irq_line_disable(d, IRQ_WHY_UNHANDLED);
	return true;
}

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
	if (++d->window_count > IRQ_STORM_LIMIT)
		irq_line_disable(d, IRQ_WHY_STORM);
}

void irq_report_disabled(void)
{
	static const char *const why[] = {
		[IRQ_WHY_UNHANDLED] = "nobody handled it in a row of interrupts",
		[IRQ_WHY_STORM] = "an interrupt storm in its fast handler",
	};
	irq_disabled_unreported = false;
	for (unsigned int irq = 1; irq <= irq_lines; irq++) {
		struct irq_desc *d = irq_descs[irq];
		enum irq_disable_why w;

		if (!d || !(w = d->unreported))
			continue;
		d->unreported = IRQ_WHY_NONE;
		kprintf("tacet: irq %u disabled: %s; irq_enable turns it back on\n", irq, why[w]);
	}
}
