/* preempt.h: the preemption point of the system calls whose work a user sizes (FRAME_NEW's
 * zeroing, object/frame.c; MAP's and UNMAP's pages, object/process.c): called between two steps
 * of that work, BKL held, where the call's state is consistent and nothing it keeps could be
 * freed under it (each caller's header says what it keeps and what it checks again after).
 * Once the lock has been held BKL_YIELD_AFTER cycles, if an interrupt is pending on this hart or
 * another hart waits for the lock, it lets the lock go, takes the interrupts, lets a waiter in
 * and takes the lock again: bkl_yield()'s job (core/bkl.h); preempt.c says why it is not
 * bkl_yield() itself yet. The teardown's point is sched_reap_point (core/sched.h). */
#ifndef KERNEL_CORE_PREEMPT_H
#define KERNEL_CORE_PREEMPT_H

#ifdef TACET_HOST_TEST
void preempt_point(void); /* the host tests bring their own: another hart's acts */
#else
#include "core/bkl.h"
#include "core/hart.h"

/* The rest of the point, once the hold is long enough (preempt.c). */
void preempt_point_due(void);

/* Inline: it runs between every two pages, and mostly only looks at the clock (bkl_yield's own
 * first look, 6 instructions where a call costs 20). */
static inline __attribute__((always_inline)) void preempt_point(void)
{
	if (arch_cycles() - this_hart()->bkl_since >= BKL_YIELD_AFTER)
		preempt_point_due();
}
#endif

#endif
