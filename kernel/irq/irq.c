/* irq.c: the generic interrupt layer's top half and IRQ handler objects. irq_handlers[] is
 * written before a line is enabled and read-only after; the counters are atomics (any hart may
 * take any line); lines[] and each line's binding are guarded by the BKL.
 *
 * A bound line's protocol (oneshot):
 *   IDLE --fires--> top half: mask (PLIC priority 0), complete, signal --> PENDING
 *   PENDING --driver irq_ack--> unmask --> IDLE (fires again at once if still asserted)
 * Masking by priority, not by the enable bit, keeps the completion valid (the PLIC ignores a
 * completion for a source not enabled for that context). */
#include "irq/irq.h"
#include "arch.h"
#include "cap.h"
#include "hart.h"
#include "kalloc.h"
#include "notification.h"
#include "process.h"
#include "sched.h"

static irq_handler_fn irq_handlers[IRQ_MAX];
static uint64_t irq_counts[IRQ_MAX];
static uint64_t unhandled;
static struct irq_line *lines[IRQ_MAX];

static void signal_bound(unsigned int irq)
{
	int locked = bkl_held();
	struct irq_line *l;

	if (!locked)
		bkl_lock(); /* from the idle wait; from user mode the trap path holds it */
	l = lines[irq];
	if (l && l->ntfn) {
		arch_irq_mask(irq);
		notification_signal(l->ntfn, l->badge);
	} else {
		__atomic_fetch_add(&unhandled, 1, __ATOMIC_RELAXED);
	}
	if (!locked)
		bkl_unlock();
}

void irq_handle(unsigned int irq)
{
	irq_handler_fn fn = irq < IRQ_MAX ? irq_handlers[irq] : 0;

	if (irq >= IRQ_MAX) {
		__atomic_fetch_add(&unhandled, 1, __ATOMIC_RELAXED);
		return;
	}
	__atomic_fetch_add(&irq_counts[irq], 1, __ATOMIC_RELAXED);
	if (fn)
		fn(irq);
	else
		signal_bound(irq);
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

struct irq_line *irq_line_get(unsigned int irq)
{
	if (irq == 0 || irq >= IRQ_MAX)
		return NULL;
	if (!lines[irq]) {
		lines[irq] = kalloc(sizeof(struct irq_line));
		if (lines[irq]) {
			lines[irq]->obj.type = TACET_CAP_IRQ;
			lines[irq]->obj.refs = 1; /* the table's own */
			lines[irq]->irq = irq;
		}
	}
	return lines[irq];
}

void irq_line_destroy(struct irq_line *l)
{
	/* never reached: lines[] keeps a reference to every line */
	(void)l;
}

static struct irq_line *decode_line(struct thread *t, long *err)
{
	struct cap *c = cap_lookup(t->proc->cspace, arch_ctx_arg(&t->ctx, 0), TACET_CAP_IRQ,
				   TACET_RIGHT_WRITE, err);

	return c ? (struct irq_line *)c->obj : NULL;
}

void sys_irq_bind(struct thread *t)
{
	long err;
	struct irq_line *l = decode_line(t, &err);
	struct cap *n = l ? cap_lookup(t->proc->cspace, arch_ctx_arg(&t->ctx, 1),
				       TACET_CAP_NOTIFICATION, TACET_RIGHT_WRITE, &err) : NULL;

	if (n && l->ntfn)
		n = NULL, err = TACET_EBUSY; /* shared lines come with the interrupt layer */
	if (n && arch_ctx_arg(&t->ctx, 2) >> 63)
		n = NULL, err = TACET_EINVAL; /* the badge is signalled: bit 63 is reserved */
	if (!n) {
		arch_ctx_set_ret(&t->ctx, 0, (unsigned long)-err);
		return;
	}
	kobj_get(n->obj);
	l->ntfn = (struct notification *)n->obj;
	l->badge = arch_ctx_arg(&t->ctx, 2);
	arch_irq_enable(l->irq, &harts[0]);
	arch_ctx_set_ret(&t->ctx, 0, 0);
}

void sys_irq_ack(struct thread *t)
{
	long err;
	struct irq_line *l = decode_line(t, &err);

	if (l && !l->ntfn)
		l = NULL, err = TACET_EINVAL;
	if (!l) {
		arch_ctx_set_ret(&t->ctx, 0, (unsigned long)-err);
		return;
	}
	arch_irq_unmask(l->irq);
	arch_ctx_set_ret(&t->ctx, 0, 0);
}
