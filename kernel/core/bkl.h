/* bkl.h: the big kernel lock (BKL). Like seL4 on SMP, one lock serialises every kernel entry
 * that touches kernel objects (system calls, faults, interrupts' top halves, the scheduler).
 * The kernel is non-preemptible and its paths are short, so one lock is simple and, for a
 * handful of harts, cheap. A hart takes it at entry from user mode (core/entry.c) or in the
 * idle wait's handlers, and drops it just before returning to user mode or idling. It is the
 * outermost lock (spinlock.h gives the order). The lock itself is bkl.c's. */
#ifndef KERNEL_CORE_BKL_H
#define KERNEL_CORE_BKL_H

#include "core/hart.h"
#include "core/spinlock.h"
#include "core/timer.h"

extern struct spinlock bkl;

/* Like spin_lock(), but a hart waiting for the BKL still answers TLB shootdowns: the holder
 * may be waiting for exactly that (process.c). */
/* The contended case, and the debug build's report of a hart taking it twice, out of line. */
void bkl_lock_slow(void);

/* Harts spinning in bkl_lock_slow (atomic). */
extern uint32_t bkl_waiting;

/* A preemption point, for work whose length a user chooses (BKL held; the caller's state
 * consistent, nothing on its stack that another hart could change under it): once the lock has
 * been held BKL_YIELD_AFTER cycles (instructions under -icount), if an interrupt is pending on
 * this hart or another hart waits for the BKL, release it, take the interrupts (their top
 * halves run now), let a waiter in, and take the BKL again. So a hold lasts at most
 * BKL_YIELD_AFTER plus one step of the work, and a long teardown hands the lock over that
 * often, not at every step. Out of line. */
#define BKL_YIELD_AFTER 4000
void bkl_yield(void);

/* Where interrupts are masked by construction (a trap entry from user mode, the idle wait's
 * handlers): one swap when the lock is free, the common case on every kernel entry. A hart
 * that holds it already finds it taken, and the slow path says so (debug builds). */
static inline __attribute__((always_inline)) void bkl_lock_masked(void)
{
	struct hart *me;

	if (__builtin_expect(__atomic_exchange_n(&bkl.locked, 1, __ATOMIC_ACQUIRE) != 0, 0)) {
		bkl_lock_slow();
		return;
	}
	me = this_hart();
	bkl.owner = (int)me->id;
	me->bkl_since = arch_cycles();
}

/* Anywhere else: the same, after the debug build's check that interrupts are masked. */
static inline __attribute__((always_inline)) void bkl_lock(void)
{
	if (KDEBUG && !arch_irqs_masked())
		spin_misuse(&bkl, "interrupts are enabled");
	bkl_lock_masked();
}

/* After a release: write out what this hart printed while holding the lock (console.c). Out
 * of line. */
void bkl_unlock_console(struct hart *me);

/* A hold longer than any before on this hart: record it and what it was. Out of line. */
void bkl_note_hold(struct hart *me, uint64_t hold);

static inline __attribute__((always_inline)) void bkl_unlock(void)
{
	struct hart *me = this_hart();
	uint64_t hold = arch_cycles() - me->bkl_since;

	if (KDEBUG && bkl.owner != (int)me->id)
		spin_misuse(&bkl, "not held by this hart");
	if (__builtin_expect(hold > me->bkl_hold_max, 0))
		bkl_note_hold(me, hold);
	bkl.owner = -1;
	__atomic_store_n(&bkl.locked, 0, __ATOMIC_RELEASE);
	if (__builtin_expect(me->unlock_work, 0)) { /* what it left for after the release */
		if (me->timer_dirty)
			timer_program(me); /* what it armed while holding the lock (timer.h) */
		if (__builtin_expect(me->console_dirty, 0))
			bkl_unlock_console(me);
	}
}

static inline int bkl_held(void)
{
	return spin_is_held_by_me(&bkl);
}

#endif
