/* sched.h: per-hart run queues with 256 fixed priorities, round-robin within a priority on a
 * one-shot timer slice, and the big kernel lock (BKL).
 *
 * The BKL: like seL4 on SMP, one lock serialises every kernel entry that touches kernel
 * objects (syscalls, faults, the scheduler). The kernel is non-preemptible and its paths are
 * short, so one lock is simple and, for a handful of harts, cheap. A hart takes it at entry from
 * user mode and drops it just before returning to user mode or idling. */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include <stdbool.h>
#include "core/runqueue.h"
#include "object/thread.h"
#include "core/hart.h"
#include "core/spinlock.h"
#include "object/process.h"
#include "irq/irq.h"
#include "core/timer.h"

struct hart;

#define SCHED_SLICE_US 5000

extern struct spinlock bkl;

/* Like spin_lock(), but a hart waiting for the BKL still answers TLB shootdowns: the holder
 * may be waiting for exactly that (process.c). */
/* The contended case, and the debug build's report of a hart taking it twice, out of line. */
void bkl_lock_slow(void);

/* Where interrupts are masked by construction (a trap entry from user mode, the idle wait's
 * handlers): one swap when the lock is free, the common case on every kernel entry. A hart
 * that holds it already finds it taken, and the slow path says so (debug builds). */
static inline __attribute__((always_inline)) void bkl_lock_masked(void)
{
	if (__builtin_expect(__atomic_exchange_n(&bkl.locked, 1, __ATOMIC_ACQUIRE) != 0, 0)) {
		bkl_lock_slow();
		return;
	}
	bkl.owner = (int)this_hart()->id;
}

/* Anywhere else: the same, after the debug build's check that interrupts are masked. */
static inline __attribute__((always_inline)) void bkl_lock(void)
{
	if (KDEBUG && !arch_irqs_masked())
		spin_misuse(&bkl, "interrupts are enabled");
	bkl_lock_masked();
}

static inline __attribute__((always_inline)) void bkl_unlock(void)
{
	if (KDEBUG && bkl.owner != (int)this_hart()->id)
		spin_misuse(&bkl, "not held by this hart");
	bkl.owner = -1;
	__atomic_store_n(&bkl.locked, 0, __ATOMIC_RELEASE);
	if (__builtin_expect(this_hart()->timer_dirty, 0))
		timer_program(this_hart()); /* what it armed while holding the lock (timer.h) */
}

static inline int bkl_held(void)
{
	return spin_is_held_by_me(&bkl);
}

/* t becomes READY on its hart's queue; that hart is told to reschedule if t should preempt. */
void sched_ready(struct thread *t);
/* Take t off its run queue (it is READY) — for blocking, moving or killing it. */
void sched_unready(struct thread *t);
/* The current thread stops running with `state`; the hart picks another on the way out. */
void sched_block(struct thread *t, enum tacet_thread_state state);
/* Round-robin: the current thread goes behind its equals. */
void sched_yield(void);
/* Leave the kernel: pick the thread to run on this hart (idling until there is one), switch
 * to it and return to user mode. Called with the BKL held; releases it. */
_Noreturn void sched_exit_to_user(void);
extern struct runqueue runqueues[MAX_HARTS];

/* What a system call's fast path did (fastpath.h, irq/irq_fast.h): nothing (the slow path
 * runs), or done: return to user mode on this hart's current thread, directly or through the
 * scheduler (a thread to run may have been readied, or nothing is left to run). */
enum { FAST_NO = 0, FAST_DONE = 1, FAST_SCHEDULE = 2 };

/* Fast paths (fastpath.h, irq/irq_fast.h): may `next` run on this hart right now, ahead of
 * every READY one? Then switch to it directly, no run queue involved (prev no longer runs). */
static inline __attribute__((always_inline)) bool sched_may_switch_to(const struct hart *me,
								      const struct thread *next)
{
	const struct runqueue *rq = me->rq;

	return next->hart == me->id && (!rq->nready || rq_top(rq) <= (int)next->prio);
}

#ifdef TACET_HOST_TEST
/* The host tests' fake records the switch (tests/host/fake_irqchip.c). */
void sched_switch_direct(struct hart *me, struct thread *prev, struct thread *next);
#else
/* next becomes this hart's running thread (the previous one's FPU state is already saved). */
static inline __attribute__((always_inline)) void sched_make_current(struct hart *me,
								     struct thread *next)
{
	arch_aspace_activate(next->proc->root); /* a no-op within one process */
	arch_fp_restore(&next->ctx, &next->fp);
	next->state = TACET_THREAD_RUNNING;
	me->current = next;
	me->user_ctx = &next->ctx;
	if (next->irq_woken_by && !next->irq_running_at)
		irq_note_running(next);
}

/* A fast path's switch from prev (blocked, or queued) to next, without a scheduler pass;
 * inline, as it is on every fast path. */
static inline __attribute__((always_inline)) void sched_switch_direct(struct hart *me,
								      struct thread *prev,
								      struct thread *next)
{
	arch_fp_save(&prev->ctx, &prev->fp);
	sched_make_current(me, next);
}
#endif

/* The running thread t gives way to a more urgent one: READY, first among its equals. */
static inline __attribute__((always_inline)) void sched_preempted(struct hart *me,
								  struct thread *t)
{
	t->state = TACET_THREAD_READY;
	rq_push(me->rq, t, true);
}

/* The boot path of every hart: enter the scheduler without a current thread. */
_Noreturn void sched_start_hart(void);

#endif
