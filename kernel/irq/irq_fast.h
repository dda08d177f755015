/* irq_fast.h: the interrupt layer's two fast paths, inline, for the trap entry (and the host
 * tests): the direct delivery of an interrupt taken from user mode (irq_external_user) and
 * IRQ_ACK_WAIT's acknowledge-and-switch (irq_ack_wait_fast); and the statistics they share
 * with irq.c. Inline because each is one step of a path whose every call costs as much as the
 * work (docs/benchmarks.md). The line protocol they take a shortcut through is irq.c's (see
 * its header); anything but their one common case falls back to it. BKL held throughout. */
#ifndef KERNEL_IRQ_IRQ_FAST_H
#define KERNEL_IRQ_IRQ_FAST_H

#include "irq/irq.h"
#include "irq/irqchip.h"
#include "arch.h"
#include "object/cap.h"
#include "core/fastpath.h"
#include "object/notification.h"
#include "object/process.h"
#include "core/runqueue.h"
#include "core/sched.h"


static inline __attribute__((always_inline)) void irq_stat_add(uint64_t *max, uint64_t *total,
							       uint64_t *n, uint64_t v)
{
	if (v > *max)
		*max = v;
	*total += v;
	(*n)++;
}

/* t, woken by d's delivery, runs now: its wake-up latency counts. */
static inline __attribute__((always_inline)) void irq_count_wake(struct irq_desc *d,
								 struct thread *t)
{
	t->irq_running_at = arch_cycles();
	irq_stat_add(&d->wake_max, &d->wake_total, &d->wakes, t->irq_running_at - t->irq_woken_at);
}

/* t acknowledges d: if d's delivery got it running, the time since counts as its handling. */
static inline __attribute__((always_inline)) void irq_count_served(struct irq_desc *d,
								   struct thread *t)
{
	if (t->irq_woken_by != d || !t->irq_running_at)
		return;
	irq_stat_add(&d->server_max, &d->server_total, &d->served,
		     arch_cycles() - t->irq_running_at);
	t->irq_woken_by = NULL;
	t->irq_running_at = 0;
}

/* The top half is done (BKL held, so plain updates; readers may see a torn maximum, no more). */
static inline __attribute__((always_inline)) void irq_account(struct irq_desc *d, struct hart *me)
{
	uint64_t now = arch_cycles(), top = now - me->trap_cycle;

	d->last_trap = me->trap_cycle;
	d->last_done = now;
	d->per_hart[me->id]++; /* the total is their sum, added when asked (irq_count) */
	d->top_half_total += top;
	if (top > d->top_half_max)
		d->top_half_max = top;
}

/* The common case of a line's delivery, at the floor: one binder, a threaded line, and its
 * notification's first waiter w on this hart more urgent than t and than anything READY. Then
 * w gets the bits now and runs next, without a pass through the run queue; returns it (its
 * wake-up latency counted as it starts). NULL: nothing done, the general top half decides. */
static inline __attribute__((always_inline)) struct thread *
irq_deliver_direct(struct hart *me, struct irq_desc *d, struct thread *t)
{
	struct irq_binder *b = &d->binders[0];
	struct notification *n = b->ntfn;
	struct thread *w = n->waiters.head;

	if (d->nbinders != 1 || d->state != IRQ_IDLE || d->handler || !w || w->prio <= t->prio ||
	    !sched_may_switch_to(me, w))
		return NULL;
	arch_irq_mask(d->irq);
	d->state = IRQ_PENDING;
	d->acks_due = 1;
	d->handled = false;
	b->waiting = true;
	tqueue_pop(&n->waiters);
	w->blocked_on = NULL;
	arch_ctx_set_ret(&w->ctx, 0, n->bits | b->badge);
	n->bits = 0;
	if (w->irq_stamp_wanted) {
		arch_ctx_set_ret(&w->ctx, 1, me->trap_cycle);
		w->irq_stamp_wanted = false;
	}
	arch_irq_complete(&me->arch, d->irq);
	irq_account(d, me);
	w->irq_woken_by = d;
	w->irq_woken_at = d->last_done;
	irq_count_wake(d, w); /* it is switched to next */
	return w;
}

/* An external interrupt taken from user mode while t ran (BKL held): if the delivery woke a
 * thread that must run on this hart before t, that thread, which the caller switches to
 * directly (t is not yet put back in the run queue); else NULL, and the scheduler decides. */
static inline __attribute__((always_inline)) struct thread *irq_external_user(struct hart *me,
									      struct thread *t)
{
	struct irq_desc *d = irq_desc_get(arch_irq_claim(&me->arch));
	struct thread *w;

	if (d && (w = irq_deliver_direct(me, d, t)))
		return w;
	irq_top_half(me, d);
	return NULL;
}

/* IRQ_ACK_WAIT's fast path (BKL held): t acknowledges its line's interrupt as handled (one
 * binder, nothing else owed) and nothing is waiting in the notification, so t blocks there and
 * the hart switches straight to its most urgent READY thread. Returns FAST_DONE (the
 * caller returns to user mode on this hart's current thread), FAST_SCHEDULE when nothing
 * is READY (the scheduler idles the hart), FAST_NO for the slow path, or, if an interrupt
 * was pending the moment the line was unmasked, what irq_ack_wait_refired() returns. */
static inline __attribute__((always_inline)) int irq_ack_wait_fast(struct hart *me,
								   struct thread *t)
{
	struct irq_desc *d = (struct irq_desc *)fast_cap(t, fast_arg(t, 0), TACET_CAP_IRQ,
							 TACET_RIGHT_WRITE, NULL);
	struct notification *n = (struct notification *)fast_cap(t, fast_arg(t, 2),
								 TACET_CAP_NOTIFICATION,
								 TACET_RIGHT_READ, NULL);
	struct irq_binder *b;

	if (!d || !n || n->bits || d->nbinders != 1 || d->state != IRQ_PENDING ||
	    d->acks_due != 1 || !arch_ctx_arg(&t->ctx, 1))
		return 0; /* an error, bits there, shared, or not handled (detection): slow path */
	b = &d->binders[0];
	if (b->owner != t->proc || !b->waiting)
		return FAST_NO;
	irq_count_served(d, t);
	/* the ack, inline: what ack() -> binder_done() -> acks_done() do for the last ack of a
	 * handled interrupt (the streak ends, the line goes on) */
	b->waiting = false;
	d->acks_due = 0;
	d->handled = true;
	d->unhandled_streak = 0;
	d->state = IRQ_IDLE;
	arch_irq_unmask(d->irq);
	if (__builtin_expect(arch_irq_external_pending(), 0))
		return irq_ack_wait_refired(me, t, n); /* the device asserts it still, or again */
	/* the wait: t blocks on n; the next interrupt's delivery stamps it */
	arch_ctx_set_ret(&t->ctx, 1, 0);
	t->irq_stamp_wanted = true;
	return fastpath_block_on(me, t, n);
}

#endif
