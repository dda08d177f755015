/* irq.h: the generic interrupt layer. Today: in-kernel handlers for kernel tests, and IRQ
 * handler objects (capabilities to one line) that user-space drivers bind to a notification:
 * the top half masks the line, signals the notification and returns; the driver's irq_ack
 * unmasks it (oneshot). Shared lines, affinity, storms, the fast path and statistics come
 * with the interrupt-layer issue. */
#ifndef KERNEL_IRQ_IRQ_H
#define KERNEL_IRQ_IRQ_H

#include <stdint.h>
#include "kobj.h"

#define IRQ_MAX 1024

typedef void (*irq_handler_fn)(unsigned int irq);

struct notification;
struct thread;

/* A capability to one interrupt line. BKL guards ntfn and badge. */
struct irq_line {
	struct kobj obj;
	unsigned int irq;
	struct notification *ntfn; /* bound notification (a reference), or NULL */
	uint64_t badge;
};

/* Called by the interrupt controller driver for a claimed line, interrupts masked, before the
 * claim is completed. */
void irq_handle(unsigned int irq);
/* Install fn for irq (boot hart, before the line is enabled). */
void irq_set_handler(unsigned int irq, irq_handler_fn fn);
/* Times irq was handled, on all harts together. Any context. */
uint64_t irq_count(unsigned int irq);
/* Lines that fired with no handler. */
uint64_t irq_unhandled(void);

/* The object for line irq, created once (boot, BKL held); NULL if out of memory. */
struct irq_line *irq_line_get(unsigned int irq);
void irq_line_destroy(struct irq_line *l);
void sys_irq_bind(struct thread *t);
void sys_irq_ack(struct thread *t);

#endif
