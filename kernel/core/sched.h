/* sched.h: per-hart run queues with 256 fixed priorities, round-robin within a priority on a
 * one-shot timer slice, and the direct switches of the fast paths. Everything here runs with
 * the BKL (core/bkl.h) held. */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include <stdbool.h>
#include "core/runqueue.h"
#include "object/thread.h"
#include "core/hart.h"
#include "core/bkl.h"
#include "core/spinlock.h"
#include "object/process.h"
#include "irq/irq.h"
#include "core/timer.h"
#include "object/reaper.h"

struct hart;

#define SCHED_SLICE_US 5000

/* t becomes READY on its hart's queue; that hart is told to reschedule if t should preempt. */
void sched_ready(struct thread *t);
/* Take t off its run queue (it is READY) — for blocking, moving or killing it. */
void sched_unready(struct thread *t);
/* The current thread stops running with `state`; the hart picks another on the way out. */
void sched_block(struct thread *t, enum tacet_thread_state state);
/* Round-robin: the current thread goes behind its equals. */
void sched_yield(void);
/* The reaper's preemption point (reaper_run's between, BKL held): a thread of this hart's that
 * ended meanwhile leaves the hart, then bkl_yield(); never stops the run. */
bool sched_reap_point(void);
/* The same, for a run on behalf of a system call (sched_reap_call): stops the run when a
 * thread more urgent than the caller is ready on this hart. */
bool sched_reap_point_call(void);
/* sched_reap's and sched_reap_call's runs (out of line: the queue is rarely pending). Each
 * starts with its point, so that what came before on this hold (the system call's own work, a
 * fault's or a thread's end) and the first object's end are two stretches of the lock, not
 * one; sched_reap_call_run returns false when that point or a later one stopped the run. */
void sched_reap_run(void);
bool sched_reap_call_run(void);
/* A thread more urgent than t, this hart's running thread, is ready here (after a preemption
 * point took an interrupt's top half, or another hart woke one): t's call is held back for it
 * where it can be (syscall_hold_back). */
static inline bool sched_more_urgent_here(const struct thread *t)
{
	return t->state == TACET_THREAD_RUNNING && rq_top(this_hart()->rq) > (int)t->prio;
}
/* Run the reaper's queue to empty, with preemption points (BKL held, at a point where nothing
 * up the stack is in the middle of anything: after a fault, when a dead thread leaves its hart,
 * at a hart's start). Inline. */
static inline void sched_reap(void)
{
	if (__builtin_expect(reaper_pending(), 0))
		sched_reap_run();
}
/* At the start and end of a system call: the same, but a thread more urgent than the caller
 * made ready on this hart meanwhile (an interrupt's top half taken at a point, another hart's
 * wake-up) stops the run; false then, and the caller's call waits (syscall.c: it is restarted,
 * or its result held back, until a run ends the queue). Inline: every system call asks. */
static inline bool sched_reap_call(void)
{
	return __builtin_expect(!reaper_pending(), 1) || sched_reap_call_run();
}
/* Leave the kernel: pick the thread to run on this hart (idling until there is one), switch
 * to it and return to user mode. Called with the BKL held; releases it. */
_Noreturn void sched_exit_to_user(void);
extern struct runqueue runqueues[MAX_HARTS];

/* What a system call's fast path did (fastpath.h, irq/irq_inline.h): nothing (the slow path
 * runs), or done: return to user mode on this hart's current thread, directly or through the
 * scheduler (a thread to run may have been readied, or nothing is left to run). */
enum { FAST_NO = 0, FAST_DONE = 1, FAST_SCHEDULE = 2 };

/* Fast paths (fastpath.h, irq/irq_inline.h): may `next` run on this hart right now, ahead of
 * every READY one? Then switch to it directly, no run queue involved (prev no longer runs). */
static inline __attribute__((always_inline)) bool sched_may_switch_to(const struct hart *me,
								      const struct thread *next)
{
	const struct runqueue *rq = me->rq;

	return next->hart == me->id && (!rq->nready || rq_top(rq) <= (int)next->prio);
}

/* next, made RUNNING, began to run: if an interrupt woke it (READY since), its wake-up latency
 * is taken now. A thread taken from a wait never owes it: it has run since any wake-up. */
static inline __attribute__((always_inline)) void sched_note_running(struct thread *next)
{
	if (next->irq_woken_by && !next->irq_running_at)
		irq_note_running(next);
}

#ifdef TACET_HOST_TEST
/* The host tests' fake records the switch (tests/host/fake_irqchip.c). */
void sched_switch_direct(struct hart *me, struct thread *prev, struct thread *next);
#else
/* next becomes this hart's running thread (the previous one's FPU state is already saved). */
static inline __attribute__((always_inline)) void sched_set_current(struct hart *me,
								    struct thread *next)
{
	arch_aspace_activate(next->proc->root); /* a no-op within one process */
	arch_fp_restore(&next->ctx, &next->fp);
	next->state = TACET_THREAD_RUNNING;
	me->current = next;
	me->user_ctx = &next->ctx;
}

/* The scheduler's switch to next, a thread it took from the run queue. */
static inline __attribute__((always_inline)) void sched_make_current(struct hart *me,
								     struct thread *next)
{
	sched_set_current(me, next);
	sched_note_running(next);
}

/* A fast path's switch from prev (blocked, or queued) to next, without a scheduler pass;
 * inline, as it is on every fast path. next was blocked (a receiver, a caller waiting for its
 * reply, a waiter: nothing owed, sched_note_running) or is the direct delivery's (counted). */
static inline __attribute__((always_inline)) void sched_switch_direct(struct hart *me,
								      struct thread *prev,
								      struct thread *next)
{
	arch_fp_save(&prev->ctx, &prev->fp);
	sched_set_current(me, next);
}
#endif

/* The same to next taken from the run queue (READY: an interrupt may have woken it). */
static inline __attribute__((always_inline)) void sched_switch_ready(struct hart *me,
								     struct thread *prev,
								     struct thread *next)
{
	sched_switch_direct(me, prev, next);
	sched_note_running(next);
}

/* The running thread t gives way to a more urgent one woken by its own signal or by a device
 * interrupt (the fast paths' direct switches): READY, first among its equals. (The
 * scheduler's own preemption, keep_running in sched.c, asks whether the slice was t's.) */
static inline __attribute__((always_inline)) void sched_preempted(struct hart *me,
								  struct thread *t)
{
	t->state = TACET_THREAD_READY;
	rq_push(me->rq, t, true);
}

/* The boot path of every hart: enter the scheduler without a current thread. */
_Noreturn void sched_start_hart(void);

#endif
