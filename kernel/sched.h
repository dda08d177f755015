/* sched.h: per-hart run queues with 256 fixed priorities, round-robin within a priority on a
 * one-shot timer slice, and the big kernel lock (BKL).
 *
 * The BKL: like seL4 on SMP, one lock serialises every kernel entry that touches kernel
 * objects (syscalls, faults, the scheduler). The kernel is non-preemptible and its paths are
 * short, so one lock is simple and, for a handful of harts, cheap. A hart takes it at entry from
 * user mode and drops it just before returning to user mode or idling. */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include "thread.h"

#define SCHED_SLICE_US 5000

void bkl_lock(void);
void bkl_unlock(void);
int bkl_held(void);

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
/* The boot path of every hart: enter the scheduler without a current thread. */
_Noreturn void sched_start_hart(void);

#endif
