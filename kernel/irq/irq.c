/* irq.c: the generic interrupt layer. Owns irq_descs[] (one struct irq_desc per line, made at boot,
 * never freed) and the controller's operations. The BKL guards each line's state and binding;
 * the top half takes it when it must signal (from user mode the trap path already holds it).
 * Statistics are per line, updated under the BKL by whichever hart takes the line; readers
 * (irq_info) hold it too.
 *
 * A line's protocol (threaded delivery, oneshot; one or, with TACET_IRQ_SHARED, several binders):
 *
 *   UNBOUND --irq_bind--> IDLE (routed to the binder's hart, or to the one irq_set_affinity
 *           chose while the line was free; unmasked); DISABLED instead if detection had
 *           disabled it and its history carries on (below)
 *   IDLE --fires--> top half: claim; mask; signal every binder; complete --> PENDING
 *   PENDING --the last binder's irq_ack--> IDLE: unmask (fires again at once if still asserted)
 *           (the ack says whether the interrupt was that binder's device: handled)
 *   PENDING --IRQ_UNHANDLED_LIMIT acks in a row say "not handled"--> DISABLED (masked,
 *           reported on the console; that ack, and any later ack or ack_wait, returns
 *           TACET_EDISABLED) --irq_enable--> IDLE
 *   A busy line is never disabled for its rate: it is oneshot, so it cannot fire again before
 *   its server has acknowledged, and it can starve nobody but that server (whose priority
 *   bounds it). The rate rule is for fast handlers (irq_request_fast), which run in the top
 *   half and could livelock a hart: more than IRQ_STORM_LIMIT within IRQ_STORM_WINDOW_US
 *   --> DISABLED, reported by irq_report() outside the top half.
 *   any --a binder leaves (irq_unbind, or its process ends)--> the same state without it; an
 *           ack it owed (PENDING) counts as given, not handled, so the others' acks (or its
 *           own leaving) end the interrupt and detection counts it
 *   any --the last binder leaves--> UNBOUND (masked)
 *
 * Release: a binder that leaves never leaves the line stuck. If it owed an ack, that ack is
 * settled as "not handled" (with the last binder gone, detection still counts the interrupt,
 * but the line is masked instead of unmasked). An interrupt that comes while the line is
 * UNBOUND (or PENDING, or DISABLED) stays pending in the controller, masked, and reaches the
 * next binder when a bind or ack unmasks the line; one the top half finds while the line is not
 * IDLE is counted spurious. Nothing is dropped without being delivered or counted.
 *
 * Detection history (unhandled_streak, the rate window, and whether detection disabled the
 * line) belongs to the line: unbinding and binding again keep it, so a driver cannot dodge
 * detection by rebinding; a DISABLED line rebound is DISABLED until irq_enable. It is charged
 * to a process (history_of: the first binder after a fresh start). When that process ends the
 * history passes to a binder still there, or, nobody bound, starts afresh: the device's next
 * driver (pci resets the function between drivers) is not blamed for the last one's record.
 *
 * What the PLIC sees: a line is masked through its priority (0), never by clearing its enable
 * bit, because the PLIC ignores a completion for a source not enabled for that context and the
 * claim would stay open. The claim is completed in the top half, never held until the ack
 * (that would block the hart's other lines). Affinity = the one context whose enable bit is set.
 */
#include "irq/irq.h"
#include "irq/irqchip.h"
#include "irq/irq_fast.h"
#include "arch.h"
#include "object/cap.h"
#include "mm/kalloc.h"
#include "object/notification.h"
#include "core/panic.h"
#include "object/process.h"
#include "core/runqueue.h"
#include "core/sched.h"
#include "core/syscall.h"
#include "core/console.h"
#include "core/timer.h"
#include <tacet/abi.h>

const struct irqchip *irq_chip;
struct irq_desc *irq_descs[IRQ_MAX];
static unsigned int irq_lines; /* irq_descs[1..irq_lines] exist */
static uint64_t spurious;
bool irq_reports_due; /* some line's report_due is set (irq_report() looks inline) */

void irqchip_register(const struct irqchip *c)
{
	irq_chip = c;
}

/* After the page allocator is up: a descriptor for every line, all UNBOUND. */
void irq_init(void)
{
	unsigned int n = irq_chip ? irq_chip->nr_irqs : 0;

	for (unsigned int irq = 1; irq <= n && irq < IRQ_MAX; irq++) {
		struct irq_desc *d = kalloc(sizeof(*d));

		if (!d)
			panic("irq_init: no memory for line %u", irq);
		d->obj.type = TACET_CAP_IRQ;
		d->obj.refs = 1; /* irq_descs[]'s own: lines live for ever */
		d->irq = irq;
		arch_irq_mask(irq); /* routed nowhere until bound (each hart starts with none enabled) */
		irq_descs[irq] = d;
		irq_lines = irq;
	}
}

/* A fast handler's line, in the top half: more than IRQ_STORM_LIMIT within the window mask
 * it (no printing here: irq_report() says so later). */
static void fast_storm_check(struct irq_desc *d)
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
static void deliver(struct irq_desc *d)
{
	arch_irq_mask(d->irq);
	if (d->state == IRQ_IDLE) {
		d->state = IRQ_PENDING;
		d->acks_due = d->nbinders;
		d->handled = false;
		for (unsigned int i = 0; i < d->nbinders; i++) {
			struct irq_binder *b = &d->binders[i];
			struct thread *w = notification_signal_stamped(b->ntfn, b->badge,
								       this_hart()->trap_cycle);

			b->waiting = true;
			if (w) {
				w->irq_woken_by = d;
				w->irq_woken_at = arch_cycles();
				w->irq_running_at = 0;
			}
		}
	} else {
		/* unbound, pending or disabled: it should not have been able to fire */
		__atomic_fetch_add(&spurious, 1, __ATOMIC_RELAXED);
	}
}

/* The top half of a claimed line (NULL: the claim found none). BKL held. Inline: it is the
 * fast handlers' way in. */
static inline __attribute__((always_inline)) void top_half(struct hart *me, struct irq_desc *d)
{
	if (!d) {
		__atomic_fetch_add(&spurious, 1, __ATOMIC_RELAXED);
		me->empty_claims++;
		return; /* nothing pending any more: another hart claimed it */
	}
	if (d->handler) {
		unsigned int saved = irq_hardirq_enter();

		d->handler(d->irq);
		irq_hardirq_exit(saved);
		fast_storm_check(d);
	} else {
		deliver(d);
	}
	arch_irq_complete(&me->arch, d->irq);
	irq_account(d, me);
}

void irq_top_half(struct hart *me, struct irq_desc *d)
{
	top_half(me, d);
}

void irq_external(void)
{
	struct hart *me = this_hart();
	int locked = bkl_held();

	/* Not holding it (a handler's window opened outside a system call), take the BKL before
	 * the claim: no system call may move the line between its claim and its completion,
	 * which the PLIC would ignore from a context the line is no longer enabled for (the
	 * claim would stay open, the line dead). irq_external_idle() does the same. */
	if (!locked)
		bkl_lock();
	top_half(me, irq_desc_get(arch_irq_claim(&me->arch)));
	if (!locked)
		bkl_unlock();
}

void irq_external_idle(void)
{
	struct hart *me = this_hart();

	bkl_lock_masked(); /* the idle wait never unmasks interrupts */
	top_half(me, irq_desc_get(arch_irq_claim(&me->arch)));
	bkl_unlock();
}

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

unsigned int irq_hardirq_enter(void)
{
	struct hart *me = this_hart();

	if (++me->irq_depth > me->irq_depth_max)
		me->irq_depth_max = me->irq_depth;
	return me->hardirq_windows;
}

void irq_hardirq_exit(unsigned int saved)
{
	struct hart *me = this_hart();

	if (me->hardirq_windows != saved) {
		arch_local_irq_disable(); /* the handler's window closes with it */
		me->hardirq_windows = saved;
	}
	me->irq_depth--;
}

uint64_t irq_spurious(void)
{
	return __atomic_load_n(&spurious, __ATOMIC_RELAXED);
}

uint64_t irq_count(const struct irq_desc *d)
{
	uint64_t n = 0;

	for (unsigned int h = 0; h < MAX_HARTS; h++)
		n += d->per_hart[h];
	return n;
}

uint64_t irq_hart_count(unsigned int h)
{
	uint64_t n = harts[h].empty_claims;

	for (unsigned int irq = 1; irq <= irq_lines; irq++) /* the controller's, not IRQ_MAX */
		n += irq_descs[irq]->per_hart[h];
	return n;
}

bool irq_note_unhandled(struct irq_desc *d)
{
	d->unhandled++;
	if (++d->unhandled_streak < IRQ_UNHANDLED_LIMIT)
		return false;
	d->disabled = true;
	d->disabled_count++;
	kprintf("tacet: irq %u disabled: nobody handled it in a row of interrupts; irq_enable "
		"turns it back on\n", d->irq);
	return true;
}

/* Binder b leaves. The ack it owed is settled as not handled, after it is gone, so that the
 * interrupt ends (and the line unmasks) only if other binders remain. */
static void unbind(struct irq_desc *d, struct irq_binder *b)
{
	struct notification *n = b->ntfn;
	bool owed = b->waiting;

	*b = d->binders[--d->nbinders];
	d->binders[d->nbinders] = (struct irq_binder){ 0 };
	if (owed)
		irq_ack_one(d, false);
	if (!d->nbinders) {
		arch_irq_mask(d->irq);
		d->state = IRQ_UNBOUND;
		d->shared = false;
		d->hart_chosen = false; /* the next driver's line follows it */
	}
	kobj_put(&n->obj);
}

/* The process d's detection history is charged to has ended: it passes to a binder still
 * there (one of them may have made it with the one that ended), or, the line free, starts
 * afresh for the next binder. */
static void history_pass(struct irq_desc *d)
{
	if (d->nbinders) {
		d->history_of = d->binders[0].owner;
		return;
	}
	d->history_of = NULL;
	d->unhandled_streak = 0;
	d->window_count = 0;
	d->disabled = false;
}

void irq_release_owner(struct process *p)
{
	for (unsigned int irq = 1; irq < IRQ_MAX && irq_descs[irq]; irq++) {
		struct irq_desc *d = irq_descs[irq];

		for (unsigned int i = 0; i < d->nbinders;)
			if (d->binders[i].owner == p)
				unbind(d, &d->binders[i]);
			else
				i++;
		if (d->history_of == p)
			history_pass(d); /* p's pointer must not outlive it */
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

void irq_note_running(struct thread *t)
{
	struct irq_desc *d = t->irq_woken_by;

	if (d && !t->irq_running_at)
		irq_count_wake(d, t);
}

static struct irq_desc *decode(struct thread *t, long *err)
{
	struct cap *c = cap_lookup(t->proc->cspace, arch_ctx_arg(&t->ctx, 0), TACET_CAP_IRQ,
				   TACET_RIGHT_WRITE, err);

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
	uint64_t badge = arch_ctx_arg(&t->ctx, 2);
	unsigned long flags = arch_ctx_arg(&t->ctx, 3);
	bool shared = flags & TACET_IRQ_SHARED;
	long err;

	*d = decode(t, &err);
	if (!*d)
		return err;
	*n = cap_lookup(t->proc->cspace, arch_ctx_arg(&t->ctx, 1), TACET_CAP_NOTIFICATION,
			TACET_RIGHT_WRITE, &err);
	if (!*n)
		return err;
	if (flags & ~(unsigned long)TACET_IRQ_SHARED || !badge || badge >> 63)
		return TACET_EINVAL; /* the badge is signalled: bit 63 is reserved */
	if ((*d)->handler)
		return TACET_EBUSY; /* the kernel handles it (fast path) */
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
	uint64_t badge = arch_ctx_arg(&t->ctx, 2);
	bool shared = arch_ctx_arg(&t->ctx, 3) & TACET_IRQ_SHARED;

	if (err) {
		syscall_ret(t, -err);
		return;
	}
	kobj_get(n->obj);
	d->binders[d->nbinders++] = (struct irq_binder){ (struct notification *)n->obj, badge,
							  t->proc, false };
	d->shared = shared;
	if (!d->history_of)
		d->history_of = t->proc; /* a fresh history: charged to its first binder */
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
	err = ack(t, d, b, arch_ctx_arg(&t->ctx, 1) != 0);
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
	c = cap_lookup(t->proc->cspace, arch_ctx_arg(&t->ctx, 2), TACET_CAP_NOTIFICATION,
		       TACET_RIGHT_READ, &err);
	if (!c) {
		syscall_ret(t, -err); /* nothing acknowledged: the call did nothing */
		return;
	}
	err = ack(t, d, b, arch_ctx_arg(&t->ctx, 1) != 0);
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
	unbind(d, b);
	syscall_ret(t, 0);
}

int irq_enable_line(unsigned int irq)
{
	struct irq_desc *d = irq_desc_get(irq);

	if (!d || d->state != IRQ_DISABLED)
		return -1;
	d->unhandled_streak = 0; /* asked for: detection starts again from nothing */
	d->window_count = 0;
	d->disabled = false;
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
	unsigned long hart = arch_ctx_arg(&t->ctx, 1);

	if (!d || hart >= nharts || !harts[hart].online) {
		syscall_ret(t, d ? -TACET_EINVAL : -err);
		return;
	}
	/* A line pending in the PLIC stays pending: the new hart's context claims it. */
	d->hart = (unsigned int)hart;
	d->hart_chosen = true;
	irq_chip->set_affinity(d->irq, d->hart);
	syscall_ret(t, 0);
}

long irq_info(unsigned long index, void *out)
{
	struct tacet_irq_info *ii = out;
	struct irq_desc *d = index < IRQ_MAX ? irq_descs[index] : NULL;

	if (!d)
		return -TACET_ENOENT;
	ii->irq = d->irq;
	ii->state = d->state;
	ii->hart = d->hart;
	ii->bound = d->handler ? 1 : d->nbinders;
	ii->unhandled = d->unhandled;
	ii->disabled_count = d->disabled_count;
	ii->count = irq_count(d);
	for (unsigned int h = 0; h < MAX_HARTS && h < TACET_INFO_MAX_HARTS; h++)
		ii->per_hart[h] = d->per_hart[h];
	ii->top_half_max = d->top_half_max;
	ii->top_half_total = d->top_half_total;
	ii->last_trap = d->last_trap;
	ii->last_done = d->last_done;
	ii->spurious_all = irq_spurious();
	ii->wake_max = d->wake_max;
	ii->wake_avg = d->wakes ? d->wake_total / d->wakes : 0;
	ii->server_max = d->server_max;
	ii->server_avg = d->served ? d->server_total / d->served : 0;
	return sizeof(*ii);
}
