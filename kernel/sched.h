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
#include "thread.h"
#include "hart.h"
#include "spinlock.h"

struct hart;

#define SCHED_SLICE_US 5000

extern struct spinlock bkl;

/* Like spin_lock(), but a hart waiting for the BKL still answers TLB shootdowns: the holder
 * may be waiting for exactly that (process.c). */
static inline void bkl_lock(void)
{
	if (KDEBUG && !arch_irqs_masked())
		spin_misuse(&bkl, "interrupts are enabled");
	if (KDEBUG && spin_is_held_by_me(&bkl))
		spin_misuse(&bkl, "already held by this hart");
	while (!spin_trylock(&bkl))
		while (__atomic_load_n(&bkl.locked, __ATOMIC_RELAXED))
			hart_tlb_flush_if_asked();
}

static inline void bkl_unlock(void)
{
	spin_unlock(&bkl);
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
/* Fast paths (fastpath.c): may `next` run on this hart right now, ahead of every READY one?
 * Then switch to it directly, no run queue involved (prev no longer runs). */
extern struct runqueue runqueues[MAX_HARTS];

static inline bool sched_may_switch_to(const struct hart *me, const struct thread *next)
{
	const struct runqueue *rq = &runqueues[me->id];

	return next->hart == me->id && (!rq->nready || rq_top(rq) <= (int)next->prio);
}
void sched_switch_direct(struct hart *me, struct thread *prev, struct thread *next);
/* The running thread t gives way to a more urgent one: READY, first among its equals. */
void sched_preempted(struct hart *me, struct thread *t);

/* The boot path of every hart: enter the scheduler without a current thread. */
_Noreturn void sched_start_hart(void);

#endif
