/* notification.h: notification objects: a word of badge bits that signal() ORs in and wait()
 * takes (blocking) or poll() takes (not blocking). BKL held. */
#ifndef KERNEL_NOTIFICATION_H
#define KERNEL_NOTIFICATION_H

#include "arch.h"
#include "object/kobj.h"
#include "core/runqueue.h"
#include "object/thread.h"
#include "lib/dtree.h"
#include "lib/list.h"
#include "object/endpoint.h"

struct notification {
	struct kobj obj;
	uint64_t bits;
	struct tqueue waiters; /* BLOCKED_NTFN, oldest first */
	struct thread *bound;  /* its RECV also ends on a signal (NTFN_BIND), or NULL */
	/* Its timer (TIMER_SET): signals timer_badge at the deadline timer.key (0: none), on hart
	 * timer_hart, whose armed timers are a deadline tree (lib/dtree.h). */
	struct dtree_node timer;
	uint64_t timer_badge;
	unsigned int timer_hart;
	/* The endpoint it watches (ENDPOINT_WATCH), on whose watchers it is, or NULL: signalled
	 * watch_badge at the endpoint's end. */
	struct endpoint *watching;
	struct list_node watch_link;
	uint64_t watch_badge;
	/* The processes it watches (PROCESS_WATCH): their records' ntfn_link (process_watch.h),
	 * freed at its end, PROCESS_WATCH_STEP a step. */
	struct list_node process_watches;
};

/* The one wake of a notification's waiter: w, the first in n's queue, leaves it with n's bits
 * and `bits` in a0 (n's word is cleared: each bit is seen once) and, if it waits in
 * IRQ_ACK_WAIT, `stamp` in a1 (the trap entry's cycle count of the interrupt that wakes it; 0:
 * not an interrupt). The caller makes w run: sched_ready() (notification_signal) or a direct
 * switch (the fast paths). Inline: it is on the signal and interrupt fast paths. BKL held. */
static inline __attribute__((always_inline)) void
notification_wake(struct notification *n, struct thread *w, uint64_t bits, uint64_t stamp)
{
	tqueue_pop(&n->waiters);
	w->blocked_on = NULL;
	arch_ctx_set_ret(&w->ctx, 0, n->bits | bits);
	n->bits = 0;
	if (w->irq_stamp_wanted) {
		arch_ctx_set_ret(&w->ctx, 1, stamp);
		w->irq_stamp_wanted = false;
	}
}

/* Whom a signal of n wakes: its oldest waiter, else its bound thread if that is receiving (a
 * service loop waits there, for a client or for n); NULL if neither. The one choice of
 * notification_signal, the signal fast path and an interrupt's direct delivery. */
static inline __attribute__((always_inline)) struct thread *
notification_woken(const struct notification *n)
{
	struct thread *w = n->waiters.head;

	if (!w && n->bound && n->bound->state == TACET_THREAD_BLOCKED_RECV)
		w = n->bound;
	return w;
}

/* w, notification_woken(n)'s, takes n's bits and `bits`: a waiter as its wait's result
 * (notification_wake, with the stamp), the bound thread as the NOTIFY message that ends its
 * receive (endpoint_notify_receiver). The caller makes w run. Inline: on the fast paths. */
static inline __attribute__((always_inline)) void
notification_deliver(struct notification *n, struct thread *w, uint64_t bits, uint64_t stamp)
{
	if (__builtin_expect(w != n->waiters.head, 0)) { /* the bound thread */
		bits |= n->bits;
		n->bits = 0;
		endpoint_notify_receiver(w, bits);
		return;
	}
	notification_wake(n, w, bits, stamp);
}

/* May a notification be signalled with badge? Some bit, and not TACET_NTFN_BIT_RESERVED (a
 * wait returns the bits in a0): the rule of every call that names a badge to signal. */
static inline bool notification_badge_ok(uint64_t badge)
{
	return badge && !(badge & TACET_NTFN_BIT_RESERVED);
}

/* n's bits, taken (the word cleared): what a wait returns when some are set. */
static inline __attribute__((always_inline)) uint64_t notification_take(struct notification *n)
{
	uint64_t bits = n->bits;

	n->bits = 0;
	return bits;
}

/* t, finding n empty, queues as its newest waiter; the caller blocks it (state, switch). */
static inline __attribute__((always_inline)) void notification_enqueue(struct notification *n,
								       struct thread *t)
{
	t->blocked_on = n;
	tqueue_push(&n->waiters, t, 0);
}

struct notification *notification_new(struct account *acct); /* charged to acct */
/* At its last reference (kobj_reap): its timer, watches and waiters end, then it is freed; a
 * notification that watches many processes frees their records PROCESS_WATCH_STEP a step,
 * requeued to the reaper between two. */
void notification_free(struct notification *n);
/* OR bits in; the oldest waiter (or the bound thread in RECV) takes them all and becomes READY;
 * returns it, or NULL if nobody was waiting. From any kernel path. */
struct thread *notification_signal(struct notification *n, uint64_t bits);
/* The same, from the top half: a waiter blocked in IRQ_ACK_WAIT also gets `stamp` (the trap
 * entry's cycle count) in a1. */
struct thread *notification_signal_stamped(struct notification *n, uint64_t bits,
					   uint64_t stamp);
/* t waits on n: takes its bits at once (a0) if some are set, else blocks until a signal. */
void notification_wait(struct thread *t, struct notification *n);
void sys_ntfn_new(struct thread *t);
void sys_signal(struct thread *t);
void sys_wait(struct thread *t);
void sys_poll(struct thread *t);
void notification_cancel(struct thread *t);
void sys_ntfn_bind(struct thread *t);
void sys_timer_set(struct thread *t);
/* Each hart's soonest notification timer is kept in its struct hart (ntfn_timer_next), which
 * timer.h reads without the BKL: at worst stale, which costs one early interrupt. */
/* Signal the hart's notification timers that are due (timer interrupt; takes the BKL). */
void notification_timers_expire(unsigned int hart, uint64_t now);
/* Take the bits of t's bound notification, if any are set (0 if none). */
uint64_t notification_take_bound(struct thread *t);
/* t's bound notification (NTFN_BIND), if any, unbound and its reference dropped: t's receive
 * no longer ends on its signals (t's end; the injector's TACET_INJECT_DEAF). */
static inline void notification_unbind(struct thread *t)
{
	if (!t->bound_ntfn)
		return;
	t->bound_ntfn->bound = NULL;
	kobj_put(&t->bound_ntfn->obj);
	t->bound_ntfn = NULL;
}

#endif
