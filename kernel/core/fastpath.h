/* fastpath.h: the IPC fast paths (in the spirit of seL4's): a call that finds its server
 * waiting, a reply_recv whose caller can run at once, and a signal that wakes a more urgent
 * waiter, all on this hart, switch straight from one thread to the other: no scheduler pass;
 * a wait takes its bits at once or blocks and switches the same way, and so does a receive
 * that finds nothing to take. Anything unusual (a
 * capability in the message, another hart, a more urgent READY thread, a pending earlier
 * caller, senders already queued) returns FAST_NO (0) and the ordinary path (endpoint.c or
 * notification.c) runs. BKL held; on success the caller must return to user mode on this
 * hart's current thread (FAST_SCHEDULE: through the scheduler).
 * Inline, for the trap entry only: each is one step of a path whose calls would cost as much
 * as its work (docs/benchmarks.md). */
#ifndef KERNEL_FASTPATH_H
#define KERNEL_FASTPATH_H

#include "object/cap.h"
#include "object/endpoint.h"
#include "core/hart.h"
#include "object/notification.h"
#include "object/process.h"
#include "core/sched.h"
#include "core/syscall.h"
#include "core/trace.h"
#include "inject/inject.h"

/* The object of a capability in slot with type and right, or NULL (then the slow path reports
 * the error); the capability itself in *cap unless cap is NULL. */
static inline __attribute__((always_inline)) struct kobj *
fast_cap(const struct thread *t, unsigned long slot, uint32_t type, uint32_t right,
	 const struct cap **cap)
{
	const struct cap *c = cap_peek(t->proc->cspace, slot, type, right);

	if (!c)
		return NULL;
	if (cap)
		*cap = c;
	return c->obj;
}

static inline __attribute__((always_inline)) int
fastpath_call(struct hart *me, struct thread *t)
{
	unsigned long tag = syscall_arg(t, 1);
	const struct cap *c;
	struct endpoint *ep;
	struct thread *r;

	if (TACET_TAG_HAS_CAP(tag) || !endpoint_tag_ok(tag) || syscall_arg(t, 6))
		return 0; /* a capability either way, or a bad tag: the slow path */
	ep = (struct endpoint *)fast_cap(t, syscall_arg(t, 0), TACET_CAP_ENDPOINT, TACET_RIGHT_WRITE, &c);
	if (!ep)
		return 0;
	r = ep->receivers.head; /* none on an ended endpoint: the slow path says EDEAD */
	if (!r || r->reply_to || r->prio < t->prio || !sched_may_switch_to(me, r))
		return 0;
	tqueue_pop(&ep->receivers);
	r->blocked_on = NULL;
	endpoint_put_message(r, tag, arch_ctx_args(&t->ctx) + 2); /* the words: a2.. */
	arch_ctx_set_ret(&r->ctx, 6, c->badge);
	r->reply_to = t;
	t->recv_slot = 0; /* no capability in the reply */
	t->replier = r;
	t->state = TACET_THREAD_BLOCKED_REPLY;
	sched_switch_direct(me, t, r);
	trace_event(TACET_TRACE_SWITCH, NULL, TACET_TRACE_BY_CALL, 0);
	return 1;
}

/* The endpoint t's receive names (slot, READ) if the receive would block at once, into a
 * valid recv_slot (none, or an empty slot): the endpoint lives, no sender waits, and t's bound
 * notification has no bits. NULL: the general receive decides. The receive fast paths' check. */
static inline __attribute__((always_inline)) struct endpoint *
fastpath_recv_blocks(const struct thread *t, unsigned long slot, unsigned long recv_slot)
{
	struct endpoint *ep;

	if (recv_slot >= CSPACE_SLOTS || (recv_slot && t->proc->cspace->slots[recv_slot].obj))
		return NULL;
	ep = (struct endpoint *)fast_cap(t, slot, TACET_CAP_ENDPOINT, TACET_RIGHT_READ, NULL);
	if (!ep || !ep->owner || ep->senders.head || (t->bound_ntfn && t->bound_ntfn->bits))
		return NULL;
	return ep;
}

/* t, fastpath_recv_blocks's, blocks receiving on ep; the caller switches away. */
static inline __attribute__((always_inline)) void
fastpath_recv_enqueue(struct thread *t, struct endpoint *ep, unsigned long recv_slot)
{
	t->recv_slot = recv_slot;
	endpoint_enqueue(ep, &ep->receivers, t);
	t->state = TACET_THREAD_BLOCKED_RECV;
}

static inline __attribute__((always_inline)) int
fastpath_reply_recv(struct hart *me, struct thread *t)
{
	struct thread *caller = t->reply_to;
	unsigned long tag = syscall_arg(t, 1), recv_slot = syscall_arg(t, 6);
	struct endpoint *ep;

	if (!caller || caller->in_fault || TACET_TAG_HAS_CAP(tag) || !endpoint_tag_ok(tag) ||
	    INJECT_REPLY_PENDING(t))
		return 0;
	ep = fastpath_recv_blocks(t, syscall_arg(t, 0), recv_slot);
	if (!ep || !sched_may_switch_to(me, caller))
		return 0;
	endpoint_put_message(caller, tag, arch_ctx_args(&t->ctx) + 2);
	caller->replier = NULL;
	t->reply_to = NULL;
	fastpath_recv_enqueue(t, ep, recv_slot);
	sched_switch_direct(me, t, caller);
	trace_event(TACET_TRACE_SWITCH, NULL, TACET_TRACE_BY_REPLY, 0);
	return 1;
}

static inline __attribute__((always_inline)) int
fastpath_signal(struct hart *me, struct thread *t)
{
	unsigned long bits = syscall_arg(t, 1);
	const struct cap *c;
	struct notification *n;
	struct thread *w;

	n = (struct notification *)fast_cap(t, syscall_arg(t, 0), TACET_CAP_NOTIFICATION,
					    TACET_RIGHT_WRITE, &c);
	if (!n)
		return 0;
	w = notification_woken(n);
	if (c->badge)
		bits = c->badge;
	if (!w || !notification_badge_ok(bits) || w->prio <= t->prio || !sched_may_switch_to(me, w))
		return 0;
	notification_deliver(n, w, bits, 0);
	arch_ctx_set_ret(&t->ctx, 0, 0);
	sched_preempted(me, t); /* t stays ready, first in line at its priority */
	sched_switch_direct(me, t, w);
	trace_event(TACET_TRACE_SWITCH, NULL, TACET_TRACE_BY_SIGNAL, 0);
	return 1;
}

/* t has blocked (a wait or a receive); the hart switches straight to its most urgent READY
 * thread (FAST_DONE) or, nothing READY, leaves itself to the scheduler, which idles it
 * (FAST_SCHEDULE). */
static inline __attribute__((always_inline)) int fastpath_switch_away(struct hart *me,
								     struct thread *t)
{
	struct thread *next;

	if (rq_top(me->rq) < 0)
		return FAST_SCHEDULE;
	next = rq_take_first(me->rq);
	sched_switch_ready(me, t, next);
	trace_event(TACET_TRACE_SWITCH, NULL, TACET_TRACE_BY_WAIT, 0);
	return FAST_DONE;
}

/* t, finding nothing in n, blocks there and the hart switches away. The wait's and
 * IRQ_ACK_WAIT's (irq_inline.h) common end. */
static inline __attribute__((always_inline)) int
fastpath_block_on(struct hart *me, struct thread *t, struct notification *n)
{
	notification_enqueue(n, t);
	t->state = TACET_THREAD_BLOCKED_NTFN;
	return fastpath_switch_away(me, t);
}

/* A receive with nothing to take (fastpath_recv_blocks): t blocks on the endpoint and the hart
 * switches away, as a wait does; a service loop's way back to sleep. FAST_NO: the general
 * receive (a sender waits, bits, an error). */
static inline __attribute__((always_inline)) int fastpath_recv(struct hart *me, struct thread *t)
{
	unsigned long recv_slot = syscall_arg(t, 1);
	struct endpoint *ep = fastpath_recv_blocks(t, syscall_arg(t, 0), recv_slot);

	if (!ep)
		return FAST_NO;
	fastpath_recv_enqueue(t, ep, recv_slot);
	return fastpath_switch_away(me, t);
}

/* A wait: bits there are taken at once (t goes on); otherwise t blocks on n and the hart
 * switches straight to its most urgent READY thread, or, nothing READY, leaves the hart to
 * the scheduler (which idles it). Returns FAST_* (sched.h); an error (no such capability,
 * no READ) takes the slow path, which says which. */
static inline __attribute__((always_inline)) int
fastpath_wait(struct hart *me, struct thread *t)
{
	struct notification *n = (struct notification *)fast_cap(t, syscall_arg(t, 0),
								 TACET_CAP_NOTIFICATION,
								 TACET_RIGHT_READ, NULL);

	if (!n)
		return FAST_NO;
	if (n->bits) {
		arch_ctx_set_ret(&t->ctx, 0, notification_take(n));
		return FAST_DONE;
	}
	return fastpath_block_on(me, t, n);
}

#endif
