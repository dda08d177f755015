/* bkl.h: the big kernel lock (BKL): one lock serialises every kernel entry that touches kernel
 * objects (system calls, faults, interrupts' top halves, the scheduler), as seL4 on SMP. A hart
 * takes it at entry from user mode (core/entry.c) or in the idle wait's handlers and drops it
 * just before returning to user mode or idling; it is the outermost lock (spinlock.h gives the
 * order). The word holds the holder's bkl_token (its id + 1), taken by a compare-and-swap from 0;
 * a hart that finds it taken queues in arrival order (bkl.c), spins briefly, then sleeps in wfi
 * until the release wakes it; a head that has waited BKL_STARVE cycles becomes the heir, to whom
 * the next release hands the lock, so a waiter waits at most for those ahead of it, each at most
 * BKL_STARVE plus two holds; a device interrupt's entry takes the heir's place ahead of the
 * queue (bkl_lock_urgent). docs/foundation.md, "The big kernel lock", gives the reasons. */
#ifndef KERNEL_CORE_BKL_H
#define KERNEL_CORE_BKL_H

#include <tacet/log2hist.h>
#include "core/hart.h"
#include "core/panic.h"
#include "core/timer.h"
#include "test/ktest.h"

struct bkl {
	uint32_t locked;      /* the holder's bkl_token, 0 while free (the swap's word) */
	uint32_t sleepers;    /* waiters asleep in wfi (atomic) */
	struct hart *heir;    /* the next release is its (NULL: none): the head after BKL_STARVE, or
			       * an interrupt's hart (bkl_lock_urgent); set and cleared by CAS */
	uint64_t qnext;       /* the queue's next ticket (atomic add) */
	uint64_t qhead;       /* the ticket of the queue's head: the waiter that may take it */
};

extern struct bkl bkl;

/* The contended path: queue, wait, take the lock; and the debug build's report of a hart
 * taking it twice. Out of line. */
void bkl_lock_slow(void);
/* The hand-over's record, per hart: each wait of the contended path, from the hart's arrival
 * to its take (cycles; instructions under -icount), in log2 buckets (<tacet/log2hist.h>: the
 * count of waits is their sum), their total, and how many slept (looked HART_WAIT_LOOKS times,
 * then waited in wfi for an IPI). Written by its hart only, as it takes the lock; read under
 * it (TACET_INFO_HART). The uncontended take (bkl_lock's swap) is not a wait. */
struct bkl_waits {
	uint64_t hist[TACET_LOG2HIST_BUCKETS];
	uint64_t total;
	uint64_t slept;
};
extern struct bkl_waits bkl_waits[MAX_HARTS];
/* A release that found an heir: hand it the lock. Out of line. */
void bkl_hand_over(struct bkl *l);
/* A release by a hart whose bkl_wake was set (a waiter went to sleep while it held the lock):
 * wake the queue's head if it sleeps. Out of line. */
void bkl_wake_next(struct hart *me);
/* The debug build's reports. */
_Noreturn void bkl_misuse(const char *what);

/* The holder (NULL: free), whether a hart holds it, whether a hart waits for it (as seen now). */
static inline __attribute__((always_inline)) struct hart *bkl_holder(void)
{
	uint32_t v = __atomic_load_n(&bkl.locked, __ATOMIC_ACQUIRE);

	return v ? &harts[v - 1] : NULL;
}

static inline __attribute__((always_inline)) int bkl_is_locked(void)
{
	return __atomic_load_n(&bkl.locked, __ATOMIC_RELAXED) != 0;
}

static inline __attribute__((always_inline)) int bkl_contended(void)
{
	return __atomic_load_n(&bkl.qnext, __ATOMIC_RELAXED) !=
		       __atomic_load_n(&bkl.qhead, __ATOMIC_RELAXED) ||
	       __atomic_load_n(&bkl.heir, __ATOMIC_RELAXED); /* an interrupt's hart waits there */
}

/* A preemption point, for work whose length a user chooses (BKL held; the caller's state
 * consistent, nothing on its stack that another hart could change under it): once the lock has
 * been held BKL_YIELD_AFTER cycles (instructions under -icount), if an interrupt is pending on
 * this hart or another hart waits for the BKL, hand the lock to the first waiter, take the
 * interrupts (their top halves run now), and queue for the BKL again. So a hold lasts at most
 * BKL_YIELD_AFTER plus one step of the work, and a long teardown hands the lock over that
 * often, not at every step. A hold is bounded at 5,000 instructions: 1,500 here, and every
 * step between two points at most about 3,200 (a page zeroed, copied or mapped with its two
 * new tables, a frame's run given back to the pool, a table page of an ended process freed, a
 * thread's end: the longest measured, docs/benchmarks.md). Out of line. True if the
 * lock was let go (only then can a thread of this hart have been made ready meanwhile: every
 * wake-up takes the lock). */
#define BKL_YIELD_AFTER 1500
bool bkl_yield(void);

/* Whether this hart's hold has lasted BKL_YIELD_AFTER: bkl_yield's first test, inline for the
 * points that mostly only look (preempt_point, the reaper's first point: sched.c). */
static inline __attribute__((always_inline)) bool bkl_hold_is_long(void)
{
	return arch_cycles() - this_hart()->bkl_since >= BKL_YIELD_AFTER;
}

/* Where interrupts are masked by construction (a trap entry from user mode, the idle wait's
 * handlers): one compare-and-swap when the lock is free, the common case on every kernel
 * entry; taken, the contended path slow() waits. A hart that holds it already finds it taken,
 * and the slow path says so (debug builds). */
static inline __attribute__((always_inline)) void bkl_take(void (*slow)(void))
{
	struct hart *me = this_hart();

	if (__builtin_expect(arch_cas_from_zero_acquire(&bkl.locked, me->bkl_token) != 0, 0)) {
		slow();
		return;
	}
	me->bkl_since = arch_cycles();
	ktest_mark_hold_start();
}

static inline __attribute__((always_inline)) void bkl_lock_masked(void)
{
	bkl_take(bkl_lock_slow);
}

/* An entry for an interrupt: a top half (trap_external, irq_external_idle) or an idle hart
 * woken by one with a thread to run (the scheduler's idle loop). The same, but a hart that
 * finds the lock taken waits ahead of the queue, as the heir, if the place is free or a queue
 * head's (bkl.c, claim_heir), else in the queue: the release hands it the lock, so a device's
 * interrupt and the driver it wakes wait for the hold under way, not for every hart queued
 * before them. The place is taken at most once per release, so the queue goes on between two
 * interrupts. Out of line. */
void bkl_lock_urgent_slow(void);
/* The boot argument bkl_spin_us= (bkl.c: an interrupt's entry looks that long before it sleeps
 * for the lock). At boot, before a second hart runs. */
void bkl_spin_init(void);
static inline __attribute__((always_inline)) void bkl_lock_urgent(void)
{
	bkl_take(bkl_lock_urgent_slow);
}

/* Anywhere else: the same, after the debug build's check that interrupts are masked. */
static inline __attribute__((always_inline)) void bkl_lock(void)
{
	if (KDEBUG && !arch_irqs_masked())
		bkl_misuse("interrupts are enabled");
	bkl_lock_masked();
}

/* After a release: write out what this hart printed while holding the lock (console.c). Out
 * of line. */
void bkl_unlock_console(struct hart *me);

/* A hold longer than any before on this hart: record it and what it was. Out of line. */
void bkl_note_hold(struct hart *me, uint64_t hold);

/* Free the lock, or hand it to the heir. The release is a swap with both orderings (one
 * instruction, where a release store is two): what the holder wrote goes before it, and the
 * read of unlock_work after it (a waiter going to sleep sets the holder's bkl_wake, then reads
 * the lock word: one of the two sees the other, so a sleeper is never left asleep; bkl.c). */
static inline __attribute__((always_inline)) void bkl_unlock(void)
{
	struct hart *me = this_hart();
	struct bkl *l = &bkl;
	uint64_t hold = arch_cycles() - me->bkl_since;

	ktest_mark_hold_end();
	if (KDEBUG && __atomic_load_n(&l->locked, __ATOMIC_RELAXED) != me->bkl_token)
		bkl_misuse("not held by this hart");
	if (__builtin_expect(hold > me->bkl_hold_max, 0))
		bkl_note_hold(me, hold);
	if (__builtin_expect(__atomic_load_n(&l->heir, __ATOMIC_RELAXED) != NULL, 0)) {
		bkl_hand_over(l);
	} else {
		arch_atomic_swap_zero_fence(&l->locked);
	}
	if (__builtin_expect(__atomic_load_n(&me->unlock_work, __ATOMIC_RELAXED), 0)) {
		/* what it left for after the release */
		if (__atomic_load_n(&me->bkl_wake, __ATOMIC_RELAXED))
			bkl_wake_next(me);
		if (me->timer_dirty)
			timer_program(me); /* what it armed while holding the lock (timer.h) */
		if (__builtin_expect(me->console_dirty, 0))
			bkl_unlock_console(me);
	}
}

static inline int bkl_held(void)
{
	uint32_t v = __atomic_load_n(&bkl.locked, __ATOMIC_RELAXED);

	return v && v == this_hart()->bkl_token;
}

#endif
