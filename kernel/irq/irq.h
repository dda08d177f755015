/* irq.h: the generic interrupt layer's entry point. Today: per-line counts and an optional
 * in-kernel handler per line; notifications, masking protocol, affinity and statistics arrive
 * with the interrupt-layer issue. */
#ifndef KERNEL_IRQ_IRQ_H
#define KERNEL_IRQ_IRQ_H

#include <stdint.h>

#define IRQ_MAX 1024

typedef void (*irq_handler_fn)(unsigned int irq);

/* Called by the interrupt controller driver for a claimed line, interrupts masked, before the
 * claim is completed. */
void irq_handle(unsigned int irq);
/* Install fn for irq (boot hart, before the line is enabled). */
void irq_set_handler(unsigned int irq, irq_handler_fn fn);
/* Times irq was handled, on all harts together. Any context. */
uint64_t irq_count(unsigned int irq);
/* Lines that fired with no handler. */
uint64_t irq_unhandled(void);

#endif
