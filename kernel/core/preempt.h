/* preempt.h: the preemption point of the system calls whose work a user sizes (FRAME_NEW's
 * zeroing, object/frame.c; MAP's and UNMAP's pages, object/process.c): called between two steps
 * of that work, BKL held, where the call's state is consistent and nothing it keeps could be
 * freed under it (each caller's header says what it keeps and what it checks again after).
 * It is bkl_yield() (core/bkl.h: once the lock has been held BKL_YIELD_AFTER cycles, if an
 * interrupt is pending here or a hart waits for the lock, the first waiter is handed the lock,
 * the interrupts are taken, and this hart queues again), with bkl_yield()'s first look at the
 * clock inline: it runs between every two pages, and mostly only looks (6 instructions, where
 * a call costs 20). The teardown's point is sched_reap_point (core/sched.h). */
#ifndef KERNEL_CORE_PREEMPT_H
#define KERNEL_CORE_PREEMPT_H

#include <stdbool.h>

/* After a point that let the lock go (preempt_point true: nothing else can have made a thread
 * of this hart ready), in a call that can wait for a more urgent thread of its own hart
 * (keeping its state in its thread t, then syscall_hold_back: FRAME_NEW, MAP, UNMAP): whether
 * one is ready now. */
struct thread;
#ifdef TACET_HOST_TEST
bool preempt_point(void); /* the host tests bring their own: another hart's acts */
bool preempt_urgent(const struct thread *t); /* and their own urgent thread */
#else
#include "core/bkl.h"
#include "core/hart.h"
#include "core/sched.h"

static inline __attribute__((always_inline)) bool preempt_point(void)
{
	return bkl_hold_is_long() && bkl_yield();
}

static inline bool preempt_urgent(const struct thread *t)
{
	return sched_more_urgent_here(t);
}
#endif

#endif
