/* irq_inline.h: the steps of the line protocol (irq.c's header) both the general path and the
 * fast paths take: the statistics, IDLE -> PENDING (irq_line_pend) and the acknowledgement
 * (irq_binder_ack); and the fast paths themselves, for the trap entry (and the host tests): the
 * direct delivery of an interrupt taken from user mode (irq_external_user), IRQ_ACK's and
 * IRQ_ACK_WAIT's common case (irq_ack_fast, irq_ack_wait_fast). Inline because each is one step
 * of a path whose every call costs as much as the work (docs/benchmarks.md); anything but a
 * fast path's one common case falls back to the general path. BKL held throughout. */
#ifndef KERNEL_IRQ_IRQ_INLINE_H
#define KERNEL_IRQ_IRQ_INLINE_H

#include "irq/irq.h"
#include "irq/irqchip.h"
#include "arch.h"
#include "object/cap.h"
#include "core/panic.h"
#include "core/fastpath.h"
#include "object/notification.h"
#include "object/process.h"
#include "core/runqueue.h"
#include "core/sched.h"
#include "core/trace.h"


/* One value (cycles) into a statistic: its maximum, its total and its histogram (struct
 * irq_hist: indexed by the value's leading zeros, one instruction with Zbb), whose sum is the
 * number of values. */
static inline __attribute__((always_inline)) void irq_stat_add(uint64_t *max, uint64_t *total,
							       uint64_t *hist, uint64_t v)
{
	if (v > *max)
		*max = v;
	*total += v;
	hist[arch_clz(v)]++;
}

/* A wake-up's latency is counted off the path from the interrupt to its server: taken as the
 * thread begins to run (irq_count_wake), it goes into the line's maximum, total and histogram
 * when the thread acknowledges (irq_count_served), is woken again or ends (irq_settle_wake), so
 * what the driver waits for costs a stamp and a subtraction, and the rest is paid after its
 * work, by its acknowledgement. A top half's time is counted at once (irq_account): its reader
 * sees every interrupt taken, and never more wake-ups than top halves. */

/* t's wake-up by t->irq_woken_by, owed since it began to run, into that line's statistics. */
static inline __attribute__((always_inline)) void irq_settle_wake(struct thread *t)
{
	struct irq_desc *d = t->irq_woken_by;

	irq_stat_add(&d->wake_max, &d->wake_total, d->hist->wake, t->irq_wake);
}

/* t, woken by d's delivery, runs now: its wake-up latency, from the end of the top half that
 * woke it (d->last_done: the line is PENDING until t acknowledges, so no later interrupt of it
 * has moved that stamp), whichever way it was delivered; owed until irq_settle_wake. */
static inline __attribute__((always_inline)) void irq_count_wake(struct irq_desc *d,
								 struct thread *t)
{
	t->irq_running_at = arch_cycles();
	t->irq_wake = t->irq_running_at - d->last_done;
}

/* t acknowledges d: if d's delivery got it running, its wake-up counts, and the time since it
 * began to run as its handling. */
static inline __attribute__((always_inline)) void irq_count_served(struct irq_desc *d,
								   struct thread *t)
{
	if (t->irq_woken_by != d || !t->irq_running_at)
		return;
	irq_settle_wake(t);
	irq_stat_add(&d->server_max, &d->server_total, d->hist->server,
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
	irq_stat_add(&d->top_half_max, &d->top_half_total, d->hist->top, top);
}

/* The line protocol's acknowledgement (irq.c's header: PENDING --the last ack--> IDLE), one
 * copy for the general path (irq_bind.c) and the fast paths. Inline: on every server cycle; the
 * rare branch (detection disables the line) is irq_note_unhandled, out of line. */

/* Detection on a threaded line, once every binder has acknowledged (or left): whether it
 * disables the line (Linux's note_interrupt: only interrupts nobody handled count). */
static inline __attribute__((always_inline)) bool irq_detect(struct irq_desc *d)
{
	if (d->handled) {
		d->unhandled_streak = 0;
		return false;
	}
	return irq_note_unhandled(d);
}

/* Every binder has acknowledged, or left: the line may fire again, unless detection disabled
 * it (irq_line_disable) or nobody is bound any more (irq.c's unbind leaves it UNBOUND). */
static inline __attribute__((always_inline)) void irq_acks_done(struct irq_desc *d)
{
	if (!irq_detect(d) && d->nbinders) {
		d->state = IRQ_IDLE;
		arch_irq_unmask(d->irq);
	}
}

/* One acknowledgement fewer is due; the last ends the interrupt. Every waiting binder owes
 * exactly one: acks_due must count them. */
static inline __attribute__((always_inline)) void irq_ack_one(struct irq_desc *d, bool handled)
{
	KASSERT(d->acks_due > 0, "irq %u: an acknowledgement nobody owed", d->irq);
	d->handled |= handled;
	if (--d->acks_due == 0 && d->state == IRQ_PENDING)
		irq_acks_done(d);
}

/* Binder b acknowledges (handled: the interrupt was its device's): the line goes on when
 * nobody owes an ack. An ack not owed (b is not waiting) changes nothing. */
static inline __attribute__((always_inline)) void irq_binder_ack(struct irq_desc *d,
								 struct irq_binder *b, bool handled)
{
	if (!b->waiting)
		return;
	b->waiting = false;
	irq_ack_one(d, handled);
}

/* w was woken by d's interrupt, on either way of delivery: its wake-up latency is taken when
 * it runs (irq_count_wake), from the end of d's top half; one it still owes is counted first. */
static inline __attribute__((always_inline)) void irq_woke(struct irq_desc *d, struct thread *w)
{
	if (__builtin_expect(w->irq_running_at != 0, 0)) /* (only with irq_woken_by set) */
		irq_settle_wake(w); /* woken again before it acknowledged the last */
	w->irq_woken_by = d;
	w->irq_running_at = 0;
}

/* The line protocol's IDLE -> PENDING (irq.c's header), the one copy for both ways a threaded
 * line's interrupt is delivered: every binder owes an acknowledgement, none has said yet that
 * the interrupt was its device's, each is signalled with the trap's stamp (the thread it wakes
 * marked as woken by d), and the line is masked. direct: the direct delivery's thread (one
 * binder; notification_woken's, which the caller switches to); NULL: the top half's, each
 * binder's notification signalled (notification_signal_stamped readies whom it wakes). */
static inline __attribute__((always_inline)) void irq_line_pend(struct hart *me,
								struct irq_desc *d,
								struct thread *direct)
{
	d->state = IRQ_PENDING;
	d->acks_due = d->nbinders;
	d->handled = false;
	for (unsigned int i = 0; i < d->nbinders; i++) {
		struct irq_binder *b = &d->binders[i];
		struct thread *w;

		b->waiting = true;
		if (direct) { /* marked woken by the caller, after the top half's accounting */
			notification_deliver(b->ntfn, direct, b->badge, me->trap_cycle);
		} else if ((w = notification_signal_stamped(b->ntfn, b->badge, me->trap_cycle))) {
			irq_woke(d, w);
		}
	}
	/* Masked last, before the completion: the open claim keeps the source from firing
	 * meanwhile, and the controller's write is a barrier to the compiler, which would
	 * otherwise reload everything above. */
	arch_irq_mask(d->irq);
}

/* The common case of a line's delivery, at the floor: one binder, a threaded line, and the
 * thread its notification's signal wakes (notification_woken: a waiter, or a service loop's
 * bound thread receiving) on this hart, more urgent than t and than anything READY. Then it
 * gets the bits now and runs next, without a pass through the run queue; returns it (its
 * wake-up latency counted as it starts). NULL: nothing done, the general top half decides. */
static inline __attribute__((always_inline)) struct thread *
irq_deliver_direct(struct hart *me, struct irq_desc *d, struct thread *t)
{
	struct thread *w;

	if (d->nbinders != 1 || d->state != IRQ_IDLE || d->handler)
		return NULL;
	w = notification_woken(d->binders[0].ntfn);
	if (!w || w->prio <= t->prio || !sched_may_switch_to(me, w))
		return NULL;
	irq_line_pend(me, d, w);
	arch_irq_complete(&me->arch, d->irq);
	irq_account(d, me);
	irq_woke(d, w);
	irq_count_wake(d, w); /* it is switched to next (its trace event: trap_external's) */
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

/* The common case of an acknowledgement, for IRQ_ACK's and IRQ_ACK_WAIT's fast paths (BKL
 * held): t's process is the line's one binder, owes the one acknowledgement due and says the
 * interrupt was its device's. Then the line goes on (irq_binder_ack, as the general path's
 * ack does) and is returned; NULL: nothing done, the general path decides (an error, a shared
 * line, an ack not owed, or one that says "not handled": detection's). */
static inline __attribute__((always_inline)) struct irq_desc *irq_ack_owed_fast(struct thread *t)
{
	struct irq_desc *d = (struct irq_desc *)fast_cap(t, syscall_arg(t, 0), TACET_CAP_IRQ,
							 TACET_RIGHT_WRITE, NULL);
	struct irq_binder *b;

	if (!d || d->nbinders != 1 || d->state != IRQ_PENDING || d->acks_due != 1 ||
	    !syscall_arg(t, 1))
		return NULL;
	b = &d->binders[0];
	if (b->owner != t->proc || !b->waiting)
		return NULL;
	irq_count_served(d, t);
	irq_binder_ack(d, b, true); /* the last ack of a handled interrupt: the line goes on */
	trace_event(TACET_TRACE_ACK, d, 1, 0);
	return d;
}

/* IRQ_ACK's fast path (BKL held): a service loop's acknowledgement (irq_ack_owed_fast) answers
 * 0 at once (FAST_DONE). If the line fired again the moment it was unmasked, its top half is
 * taken here, as the general path's ack does, and the scheduler picks (FAST_SCHEDULE). FAST_NO:
 * the general path. */
static inline __attribute__((always_inline)) int irq_ack_fast(struct hart *me, struct thread *t)
{
	if (!irq_ack_owed_fast(t))
		return FAST_NO;
	arch_ctx_set_ret(&t->ctx, 0, 0);
	if (__builtin_expect(arch_irq_external_pending(), 0)) {
		me->trap_cycle = arch_cycles(); /* the top half counts from here */
		irq_external();
		return FAST_SCHEDULE;
	}
	return FAST_DONE;
}

/* IRQ_ACK_WAIT's fast path (BKL held): t acknowledges its line's interrupt as handled
 * (irq_ack_owed_fast) and nothing is waiting in the notification, so t blocks there and
 * the hart switches straight to its most urgent READY thread. Returns FAST_DONE (the
 * caller returns to user mode on this hart's current thread), FAST_SCHEDULE when nothing
 * is READY (the scheduler idles the hart), FAST_NO for the slow path, or, if an interrupt
 * was pending the moment the line was unmasked, what irq_ack_wait_refired() returns. */
static inline __attribute__((always_inline)) int irq_ack_wait_fast(struct hart *me,
								   struct thread *t)
{
	struct notification *n = (struct notification *)fast_cap(t, syscall_arg(t, 2),
								 TACET_CAP_NOTIFICATION,
								 TACET_RIGHT_READ, NULL);

	if (!n || n->bits || !irq_ack_owed_fast(t))
		return FAST_NO; /* an error, bits there, or not the common case: slow path */
	if (__builtin_expect(arch_irq_external_pending(), 0))
		return irq_ack_wait_refired(me, t, n); /* the device asserts it still, or again */
	/* the wait: t blocks on n; the next interrupt's delivery stamps it */
	arch_ctx_set_ret(&t->ctx, 1, 0);
	t->irq_stamp_wanted = true;
	return fastpath_block_on(me, t, n);
}

#endif
