/* irq_bind.c: binding lines to servers and their acknowledgements (the PENDING -> IDLE side of
 * irq.c's protocol), whose process detection's history is charged to, and the interrupt calls
 * (IRQ_BIND, IRQ_UNBIND, IRQ_ACK, IRQ_ACK_WAIT, IRQ_ENABLE, IRQ_SET_AFFINITY), each decoded
 * before it changes anything. BKL held. */
#include "irq/irq.h"
#include "irq/irqchip.h"
#include "irq/irq_inline.h"
#include "object/cap.h"
#include "object/notification.h"
#include "object/process.h"
#include "core/sched.h"
#include "core/syscall.h"
#include <tacet/abi.h>

/* Binder b leaves. The ack it owed is settled as not handled, after it is gone, so that the
 * interrupt ends (and the line unmasks) only if other binders remain. */
void irq_unbind(struct irq_desc *d, struct irq_binder *b)
{
	struct notification *n = b->ntfn;
	bool owed = b->waiting;

	b->owner->irq_refs--;
	*b = d->binders[--d->nbinders];
	d->binders[d->nbinders] = (struct irq_binder){ 0 };
	if (owed)
		irq_ack_one(d, false);
	if (!d->nbinders) {
		arch_irq_mask(d->irq);
		d->state = IRQ_UNBOUND;
		d->shared = false;
		d->hart_chosen = d->msi; /* the next driver's line follows it, but a message-
					  * signalled line goes where its device writes */
	}
	kobj_put(&n->obj);
}

/* d's detection history is charged to p (or to nobody: NULL); each process counts the lines
 * that name it, as binder, as history's owner or as a message-signalled line's lender, in
 * irq_refs. */
static void history_set(struct irq_desc *d, struct process *p)
{
	if (d->history_of)
		d->history_of->irq_refs--;
	d->history_of = p;
	if (p)
		p->irq_refs++;
}

/* The process d's detection history is charged to has ended: it passes to a binder still
 * there (one of them may have made it with the one that ended), or, the line free, starts
 * afresh for the next binder. */
static void history_pass(struct irq_desc *d)
{
	if (d->nbinders) {
		history_set(d, d->binders[0].owner);
		return;
	}
	history_set(d, NULL);
	irq_detect_reset(d);
}

void irq_release_owner(struct process *p)
{
	/* the walk stops once nothing names p: nothing at all for most processes, and for a
	 * driver after its own lines */
	for (unsigned int irq = 1; p->irq_refs && irq < IRQ_MAX && irq_descs[irq]; irq++) {
		struct irq_desc *d = irq_descs[irq];

		for (unsigned int i = 0; i < d->nbinders;)
			if (d->binders[i].owner == p)
				irq_unbind(d, &d->binders[i]);
			else
				i++;
		if (d->history_of == p)
			history_pass(d); /* p's pointer must not outlive it */
		if (d->msi && d->lender == p)
			irq_msi_end(d); /* its device's driver, if still bound, is ended by the bus
					 * watch (the bus server's end) */
	}
}

/* Whether binder b of d, owing its ack, has not even taken the interrupt's signal: its badge's
 * bits are still in its notification. */
static bool signal_untaken(const struct irq_binder *b)
{
	return (b->ntfn->bits & b->badge) == b->badge;
}

/* The older of two stamps (0: none). */
static uint64_t older(uint64_t oldest, uint64_t stamp)
{
	return !oldest || stamp < oldest ? stamp : oldest;
}

void irq_held_by(const struct process *p, uint64_t *shared, uint64_t *own)
{
	unsigned int seen = 0;

	*shared = *own = 0;
	for (unsigned int irq = 1; seen < p->irq_refs && irq < IRQ_MAX && irq_descs[irq]; irq++) {
		const struct irq_desc *d = irq_descs[irq];

		seen += (d->history_of == p) + (d->msi && d->lender == p);
		for (unsigned int i = 0; i < d->nbinders; i++) {
			const struct irq_binder *b = &d->binders[i];

			if (b->owner != p)
				continue;
			seen++;
			if (b->waiting && d->shared)
				*shared = older(*shared, d->last_trap);
			else if (b->waiting && signal_untaken(b))
				*own = older(*own, d->last_trap);
		}
	}
}

/* The binder of d that belongs to t's process, or NULL. */
static struct irq_binder *binder_of(struct irq_desc *d, const struct thread *t)
{
	for (unsigned int i = 0; i < d->nbinders; i++)
		if (d->binders[i].owner == t->proc)
			return &d->binders[i];
	return NULL;
}

/* The line t's call names in argument 0 (WRITE), or NULL with *err; a capability to a message-
 * signalled line freed since it was made reaches nothing (TACET_EINVAL, as for a line free). */
static struct irq_desc *decode(struct thread *t, long *err)
{
	struct cap *c = cap_lookup(t->proc->cspace, syscall_arg(t, 0), TACET_CAP_IRQ,
				   TACET_RIGHT_WRITE, err);

	if (c && !irq_cap_live((struct irq_desc *)c->obj, c->badge)) {
		*err = TACET_EINVAL;
		return NULL;
	}
	return c ? (struct irq_desc *)c->obj : NULL;
}

/* The line t's call names and t's process's binder of it (*b), or NULL after answering the
 * error (not bound by this process: TACET_EINVAL). */
static struct irq_desc *decode_bound(struct thread *t, struct irq_binder **b)
{
	long err;
	struct irq_desc *d = decode(t, &err);

	*b = d ? binder_of(d, t) : NULL;
	if (d && !*b)
		err = TACET_EINVAL;
	if (!*b) {
		syscall_ret(t, -err);
		return NULL;
	}
	return d;
}

/* The first binder of a free line: route it and let it fire, unless detection disabled it and
 * its history carried on through the unbind (then only irq_enable lets it fire). */
static void line_bound(struct irq_desc *d)
{
	irq_chip->set_affinity(d->irq, d->hart);
	irq_chip->set_priority(d->irq, 1);
	if (d->disabled) {
		d->state = IRQ_DISABLED;
		return;
	}
	d->state = IRQ_IDLE;
	arch_irq_unmask(d->irq);
}

/* IRQ_BIND's decode: a line (WRITE), a notification (WRITE) and a badge it can signal, known
 * flags, and a line free for this binder: not the kernel's (a fast handler), not bound
 * already unless both this bind and the line's binders share it, room for one more. */
static long decode_bind(struct thread *t, struct irq_desc **d, struct cap **n)
{
	uint64_t badge = syscall_arg(t, 2);
	unsigned long flags = syscall_arg(t, 3);
	bool shared = flags & TACET_IRQ_SHARED;
	long err;

	*d = decode(t, &err);
	if (!*d)
		return err;
	*n = cap_lookup(t->proc->cspace, syscall_arg(t, 1), TACET_CAP_NOTIFICATION,
			TACET_RIGHT_WRITE, &err);
	if (!*n)
		return err;
	if (flags & ~(unsigned long)TACET_IRQ_SHARED || !notification_badge_ok(badge))
		return TACET_EINVAL; /* the badge is signalled */
	if ((*d)->handler)
		return TACET_EBUSY; /* the kernel handles it (fast path) */
	if ((*d)->msi && shared)
		return TACET_EINVAL; /* a message is one function's (one in the pool: decode's) */
	if ((*d)->nbinders && (!shared || !(*d)->shared || binder_of(*d, t)))
		return TACET_EBUSY; /* bound already, and not both ways shared */
	if ((*d)->nbinders == IRQ_MAX_BINDERS)
		return TACET_ENOMEM;
	return 0;
}

/* (line, ntfn, badge, flags) */
void sys_irq_bind(struct thread *t)
{
	struct irq_desc *d = NULL;
	struct cap *n = NULL;
	long err = decode_bind(t, &d, &n);
	uint64_t badge = syscall_arg(t, 2);
	bool shared = syscall_arg(t, 3) & TACET_IRQ_SHARED;

	if (err) {
		syscall_ret(t, -err);
		return;
	}
	kobj_get(n->obj);
	d->binders[d->nbinders++] = (struct irq_binder){ (struct notification *)n->obj, badge,
							  t->proc, false };
	t->proc->irq_refs++;
	d->shared = shared;
	if (!d->history_of)
		history_set(d, t->proc); /* a fresh history: charged to its first binder */
	if (d->state == IRQ_UNBOUND) {
		if (!d->hart_chosen)
			d->hart = t->hart; /* a line follows its driver: no cross-hart wake each time */
		line_bound(d);
	}
	syscall_ret(t, 0);
}

/* t's acknowledgement (handled: its device's interrupt): the server's time is counted and
 * the line goes on once nobody owes an ack. Returns 0, or -TACET_EDISABLED if detection has
 * disabled the line (this ack or an earlier one): the driver learns it here. */
static long ack(struct thread *t, struct irq_desc *d, struct irq_binder *b, bool handled)
{
	irq_count_served(d, t);
	irq_binder_ack(d, b, handled);
	trace_event(TACET_TRACE_ACK, d, handled, 0);
	return d->state == IRQ_DISABLED ? -TACET_EDISABLED : 0;
}

/* An acknowledgement has just unmasked a line: if the controller holds an interrupt for this
 * hart already (the device still asserts it, or raised the next), take it here, in the system
 * call, instead of leaving for user mode only to be interrupted at once: its top half runs now,
 * and counts from now (me->trap_cycle, the stamp a waiter gets). Whoever it wakes runs when
 * the call returns through the scheduler. Returns whether there was one. */
static bool take_pending(struct hart *me)
{
	if (!arch_irq_external_pending())
		return false;
	me->trap_cycle = arch_cycles();
	irq_external();
	return true;
}

void sys_irq_ack(struct thread *t)
{
	struct irq_binder *b;
	struct irq_desc *d = decode_bound(t, &b);
	long err;

	if (!d)
		return;
	err = ack(t, d, b, syscall_arg(t, 1) != 0);
	syscall_ret(t, err);
	if (!err)
		take_pending(this_hart());
}

/* The wait that follows the ack in the same call: bits there (a pending interrupt taken first)
 * are taken at once, else t blocks and the next delivery stamps it. */
static void wait_after_ack(struct hart *me, struct thread *t, struct notification *n)
{
	uint64_t before = n->bits;

	arch_ctx_set_ret(&t->ctx, 1, 0);
	if (take_pending(me) && (n->bits & ~before))
		arch_ctx_set_ret(&t->ctx, 1, me->trap_cycle); /* as if the interrupt woke t */
	if (n->bits) {
		arch_ctx_set_ret(&t->ctx, 0, notification_take(n));
		t->irq_stamp_wanted = false;
		return;
	}
	t->irq_stamp_wanted = true;
	notification_wait(t, n); /* nothing there: t blocks */
}

int irq_ack_wait_refired(struct hart *me, struct thread *t, struct notification *n)
{
	wait_after_ack(me, t, n);
	/* bits at once and nothing more urgent readied here: t goes on, no scheduler pass */
	return t->state == TACET_THREAD_RUNNING && !me->need_resched ? FAST_DONE
								   : FAST_SCHEDULE;
}

/* (irq, handled, ntfn): acknowledge, then wait on ntfn (READ) in the same entry. a0 = the
 * bits; a1 = the trap-entry cycle count of the interrupt whose delivery woke it, 0 if it was
 * something else (a timer, a signal) or bits were there at once (the line cannot have fired
 * again before this ack). If the line fired again by the time the ack unmasked it, the call
 * takes that interrupt itself (take_pending) and returns its bits at once, stamped with the
 * moment it took it. Like irq_ack, it acknowledges only an interrupt that was delivered,
 * so a driver's loop starts with a plain wait: for (bits = wait();;) bits = ack_wait(...). */
void sys_irq_ack_wait(struct thread *t)
{
	struct irq_binder *b;
	struct irq_desc *d = decode_bound(t, &b);
	struct cap *c;
	long err;

	if (!d)
		return;
	c = cap_lookup(t->proc->cspace, syscall_arg(t, 2), TACET_CAP_NOTIFICATION,
		       TACET_RIGHT_READ, &err);
	if (!c) {
		syscall_ret(t, -err); /* nothing acknowledged: the call did nothing */
		return;
	}
	err = ack(t, d, b, syscall_arg(t, 1) != 0);
	if (err) {
		syscall_ret(t, err); /* disabled: waiting would be for ever */
		return;
	}
	wait_after_ack(this_hart(), t, (struct notification *)c->obj);
}

void sys_irq_unbind(struct thread *t)
{
	struct irq_binder *b;
	struct irq_desc *d = decode_bound(t, &b);

	if (!d)
		return;
	irq_unbind(d, b);
	syscall_ret(t, 0);
}

int irq_enable_line(unsigned int irq)
{
	struct irq_desc *d = irq_desc_get(irq);

	if (!d || d->state != IRQ_DISABLED)
		return -1;
	irq_detect_reset(d); /* asked for: detection starts again from nothing */
	for (unsigned int i = 0; i < d->nbinders; i++)
		d->binders[i].waiting = false;
	d->state = IRQ_IDLE;
	arch_irq_unmask(d->irq);
	return 0;
}

void sys_irq_enable(struct thread *t)
{
	long err;
	struct irq_desc *d = decode(t, &err);

	if (d)
		err = irq_enable_line(d->irq) ? TACET_EINVAL : 0;
	syscall_ret(t, -err);
}

void sys_irq_set_affinity(struct thread *t)
{
	long err;
	struct irq_desc *d = decode(t, &err);
	unsigned long hart = syscall_arg(t, 1);

	if (!d || hart >= nharts || !harts[hart].online) {
		syscall_ret(t, d ? -TACET_EINVAL : -err);
		return;
	}
	/* A line pending in the PLIC stays pending: the new hart's context claims it. A message-
	 * signalled line's device writes the new address from when it is reprogrammed; one sent
	 * before lands in the old hart's file, which sends it on (aia.c). */
	d->hart = (unsigned int)hart;
	d->hart_chosen = true;
	irq_chip->set_affinity(d->irq, d->hart);
	syscall_ret(t, 0);
	if (d->msi)
		arch_ctx_set_ret(&t->ctx, 1, irq_chip->msi_address(d->irq, d->hart));
}
