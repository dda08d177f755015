/* preempt.c: preempt_point's out-of-line part (preempt.h), a wrapper of the BKL's preemption
 * point, BKL held.
 *
 * It is bkl_yield() but for the hand-over. bkl_yield(), when a hart waits for the lock, releases
 * it and spins until a waiter has taken it. Under -icount QEMU runs one hart at a time, and the
 * waiter runs only once this hart's turn ends (a timer deadline, or QEMU's kick every 100 ms):
 * each hand-over costs a turn. The teardown's points rarely meet a waiter, but two harts each
 * making 256-page frames meet one at nearly every point: make bench-stress's stress_frames
 * went past its 180 s limit (it took 8 s), and two threads making 20 frames each with a 10 us
 * pause took 1,984 million instructions where they took 122 million without points. Here the
 * releasing hart waits for a waiter at most PREEMPT_HANDOVER_LOOKS looks, then takes the lock
 * back: on hardware (or QEMU without -icount) the spinning waiter takes it within a few looks;
 * under -icount nobody can, and the hart goes on as it did before the points, the waiter
 * getting the lock when the turns come round (the two threads: 113 million; stress_frames 2 s).
 *
 * What the BKL should offer instead, and its rework under way does: a bkl_yield() whose
 * hand-over does not hang on the releasing hart spinning (waiters queued, sleeping in wfi, the
 * lock handed to the queue's head). Measured with that rework applied to this branch and
 * bkl_yield() in place of this function: the two threads took 10.6 million instructions,
 * stress_frames 0.3 s, its cross-hart maximum 26,994 instructions. Then this function is
 * bkl_yield(): the rework drops bkl_waiting, which this file reads, so the change cannot be
 * missed. */
#include "core/preempt.h"

/* How long a releasing hart waits for a waiter to take the lock: a waiter spinning on it (bkl.c)
 * sees it free within a look or two; 64 looks are a few hundred instructions. */
#define PREEMPT_HANDOVER_LOOKS 64

void preempt_point_due(void)
{
	if (!__atomic_load_n(&bkl_waiting, __ATOMIC_RELAXED)) {
		bkl_yield(); /* nobody waits: it takes the interrupts, or ends the measured hold */
		return;
	}
	bkl_unlock();
	arch_take_pending_interrupts(); /* each top half takes the BKL itself */
	for (int i = 0; i < PREEMPT_HANDOVER_LOOKS && __atomic_load_n(&bkl_waiting, __ATOMIC_RELAXED) &&
			!__atomic_load_n(&bkl.locked, __ATOMIC_RELAXED);
	     i++)
		;
	bkl_lock();
}
