/* notification.c: notification objects; owns their bits and waiter queues, and each hart's
 * deadline tree of armed notification timers (BKL held).
 * A waiter woken by a signal gets the bits in a0 and the word is cleared: each bit set between
 * two waits is seen exactly once. */
#include <stddef.h>
#include "object/notification.h"
#include "object/cap.h"
#include "core/syscall.h"
#include "object/endpoint.h"
#include "mm/kalloc.h"
#include "object/process.h"
#include "object/process_watch.h"
#include "object/reaper.h"
#include "core/sched.h"
#include "core/trace.h"
#include "core/hart.h"
#include "core/timer.h"

static struct dtree timers[MAX_HARTS]; /* per hart, by deadline (BKL) */

/* The hart's soonest deadline where timer.h reads it without the BKL. */
static void timer_publish(unsigned int hart)
{
	struct dtree_node *first = dtree_first(&timers[hart]);

	__atomic_store_n(&harts[hart].ntfn_timer_next, first ? first->key : UINT64_MAX,
			 __ATOMIC_RELAXED);
}

static struct notification *soonest(unsigned int hart)
{
	struct dtree_node *first = dtree_first(&timers[hart]);

	return first ? (struct notification *)((char *)first - offsetof(struct notification, timer))
		     : NULL;
}

static void timer_unlink(struct notification *n)
{
	if (!n->timer.key)
		return;
	dtree_remove(&timers[n->timer_hart], &n->timer); /* key 0 again */
	timer_publish(n->timer_hart);
}

static void timer_link(struct notification *n, unsigned int hart, uint64_t deadline)
{
	n->timer_hart = hart;
	dtree_insert(&timers[hart], &n->timer, deadline);
	timer_publish(hart);
}

void notification_timers_expire(unsigned int hart, uint64_t now)
{
	int locked = bkl_held();
	struct notification *n;

	if (!locked)
		bkl_lock(); /* from the idle wait */
	while ((n = soonest(hart)) && n->timer.key <= now) {
		uint64_t badge = n->timer_badge;

		timer_unlink(n);
		notification_signal(n, badge);
	}
	if (!locked)
		bkl_unlock();
}

/* (ntfn, badge, deadline): signal badge at deadline (timebase ticks; 0 disarms) from this
 * hart. A badge that may not be signalled is refused (notification_badge_ok). */
void sys_timer_set(struct thread *t)
{
	long err;
	struct cap *c = cap_lookup(t->proc->cspace, syscall_arg(t, 0), TACET_CAP_NOTIFICATION,
				   TACET_RIGHT_WRITE, &err);
	uint64_t badge = syscall_arg(t, 1), deadline = syscall_arg(t, 2);
	struct notification *n;

	if (!c || !notification_badge_ok(badge)) {
		syscall_ret(t, c ? -TACET_EINVAL : -err);
		return;
	}
	n = (struct notification *)c->obj;
	timer_unlink(n);
	if (deadline) {
		n->timer_badge = badge;
		timer_link(n, this_hart()->id, deadline);
		timer_reprogram(); /* this hart's hardware timer: the soonest of everything */
	}
	syscall_ret(t, 0);
}

struct notification *notification_new(struct account *acct)
{
	struct notification *n = kobj_new(acct, sizeof(*n), TACET_CAP_NOTIFICATION);

	if (n)
		list_init(&n->process_watches);
	return n;
}

void notification_free(struct notification *n)
{
	timer_unlink(n);
	endpoint_unwatch(n);
	if (!thread_wake_some(&n->waiters, TACET_EDEAD, THREAD_WAKE_STEP) ||
	    !process_watch_unlink_step(&n->process_watches)) {
		reaper_free(&n->obj); /* the next step later: nobody names it */
		return;
	}
	kobj_free(&n->obj, sizeof(*n));
}

struct thread *notification_signal(struct notification *n, uint64_t bits)
{
	return notification_signal_stamped(n, bits, 0);
}

struct thread *notification_signal_stamped(struct notification *n, uint64_t bits,
					   uint64_t stamp)
{
	struct thread *w;

	n->bits |= bits;
	if (!n->bits)
		return NULL;
	w = notification_woken(n);
	trace_event(TACET_TRACE_SIGNAL, w, stamp, 0);
	if (!w)
		return NULL;
	notification_deliver(n, w, 0, stamp);
	sched_ready(w);
	return w;
}

static struct notification *decode(struct thread *t, uint32_t rights, long *err)
{
	struct cap *c = cap_lookup(t->proc->cspace, syscall_arg(t, 0),
				   TACET_CAP_NOTIFICATION, rights, err);

	return c ? (struct notification *)c->obj : NULL;
}

/* (ntfn, bits) */
void sys_signal(struct thread *t)
{
	long err;
	struct cap *c = cap_lookup(t->proc->cspace, syscall_arg(t, 0), TACET_CAP_NOTIFICATION,
				   TACET_RIGHT_WRITE, &err);

	/* no bits is no signal, but the reserved bit is refused (notification_badge_ok) */
	if (!c || syscall_arg(t, 1) & TACET_NTFN_BIT_RESERVED) {
		syscall_ret(t, c ? -TACET_EINVAL : -err);
		return;
	}
	/* a badged capability signals its badge; an unbadged one the bits given */
	notification_signal((struct notification *)c->obj,
			    c->badge ? c->badge : syscall_arg(t, 1));
	syscall_ret(t, 0);
}

void notification_wait(struct thread *t, struct notification *n)
{
	if (n->bits) {
		arch_ctx_set_ret(&t->ctx, 0, notification_take(n));
	} else {
		notification_enqueue(n, t);
		sched_block(t, TACET_THREAD_BLOCKED_NTFN);
	}
}

void sys_wait(struct thread *t)
{
	long err;
	struct notification *n = decode(t, TACET_RIGHT_READ, &err);

	if (!n)
		syscall_ret(t, -err);
	else
		notification_wait(t, n);
}

void sys_poll(struct thread *t)
{
	long err;
	struct notification *n = decode(t, TACET_RIGHT_READ, &err);

	syscall_ret(t, n ? (long)notification_take(n) : -err);
}

void notification_cancel(struct thread *t)
{
	struct notification *n = t->blocked_on;

	if (n)
		tqueue_remove(&n->waiters, t);
	t->blocked_on = NULL;
}

void sys_ntfn_bind(struct thread *t)
{
	long err;
	struct notification *n = decode(t, TACET_RIGHT_READ, &err);

	if (!n || n->bound || t->bound_ntfn) {
		syscall_ret(t, n ? -TACET_EBUSY : -err);
		return;
	}
	kobj_get(&n->obj);
	n->bound = t;
	t->bound_ntfn = n;
	syscall_ret(t, 0);
}

uint64_t notification_take_bound(struct thread *t)
{
	return t->bound_ntfn ? notification_take(t->bound_ntfn) : 0;
}

/* (slot): a new one, every right, in the empty slot. */
void sys_ntfn_new(struct thread *t)
{
	long err;
	struct cap *dst = cap_empty_slot(t->proc->cspace, syscall_arg(t, 0), &err);

	syscall_ret(t, dst ? cap_install_new(dst, (struct kobj *)notification_new(t->proc->acct))
			   : -err);
}
