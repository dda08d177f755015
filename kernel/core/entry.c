/* entry.c: the generic side of every way in from user mode (entry.h): the BKL, the fast paths
 * of the commonest system calls and of an interrupt's direct delivery (core/fastpath.h,
 * irq/irq_inline.h: inline here, and only here), and the general paths (syscall_dispatch, the
 * port's interrupt dispatch, thread_fault) otherwise. What runs next is the scheduler's
 * decision (core/sched.c) except where a fast path switches directly, by sched.h's rules.
 * kernel/core is built with -fno-jump-tables (Makefile): fast_syscall's seven compares cost less
 * than a jump table on the hottest paths. Interrupts masked; BKL taken here, released on the
 * way out. */
#include "core/entry.h"
#include "core/fastpath.h"
#include "core/hart.h"
#include "core/sched.h"
#include "core/syscall.h"
#include "irq/irq.h"
#include "irq/irq_inline.h"
#include "object/reaper.h"
#include "object/thread.h"
#include "core/trace.h"

/* The system calls with a fast path: FAST_DONE if it was done (this hart runs its current
 * thread next, perhaps another one than before), FAST_SCHEDULE if it was done but the
 * scheduler picks, FAST_NO for the slow path. */
static inline __attribute__((always_inline)) int fast_syscall(struct hart *me, struct thread *t,
							      unsigned long nr)
{
	if (nr == TACET_SYS_CALL)
		return fastpath_call(me, t);
	if (nr == TACET_SYS_REPLY_RECV)
		return fastpath_reply_recv(me, t);
	if (nr == TACET_SYS_SIGNAL)
		return fastpath_signal(me, t);
	if (nr == TACET_SYS_IRQ_ACK_WAIT)
		return irq_ack_wait_fast(me, t);
	if (nr == TACET_SYS_WAIT)
		return fastpath_wait(me, t);
	if (nr == TACET_SYS_RECV) /* a service loop's: a receive, after an acknowledgement */
		return fastpath_recv(me, t);
	if (nr == TACET_SYS_IRQ_ACK)
		return irq_ack_fast(me, t);
	return FAST_NO;
}

/* Run the call in t's registers (a7 = number) through the table (syscall.h); results go to t's
 * registers. Inline: a call of its own cost every slow system call its prologue. */
static inline __attribute__((always_inline)) void syscall_dispatch(struct thread *t)
{
	unsigned long n = arch_ctx_syscall_nr(&t->ctx);

	this_hart()->syscalls++;
	/* a teardown another hart is running, preempted (its hart let this one in), or one this
	 * thread's call left: end it first, so that no call sees objects half-way through their
	 * end (a leak check, a process watched ending, memory its budget will get back...); if a
	 * thread more urgent than this one is ready here meanwhile, this call waits (it has done
	 * nothing yet, or it is a resume: made again as it is) */
	if (reaper_pending()) {
		if (!sched_reap_call()) {
			if (t->state == TACET_THREAD_RUNNING)
				arch_ctx_restart_syscall(&t->ctx);
			return;
		}
		if (t->state == TACET_THREAD_DEAD)
			return; /* ended by another hart while the lock was let go */
	}
	if (n >= TACET_SYS_COUNT || !syscall_table[n]) {
		syscall_ret(t, -TACET_ENOSYS);
		return;
	}
	syscall_table[n](t);
	/* what the call left to end: its caller sees one call that ended it all */
	if (!sched_reap_call())
		syscall_hold_back(t);
}

void trap_syscall(struct trap_frame *tf)
{
	struct hart *me = this_hart();
	struct thread *t = me->current;
	int fast;

	bkl_lock_masked();
	if (t->state == TACET_THREAD_DEAD)
		sched_exit_to_user(); /* ended by another hart while it trapped here: just leave it */
	arch_ctx_skip_syscall(tf); /* t resumes after the call whenever it runs again */
	fast = fast_syscall(me, t, arch_ctx_syscall_nr(tf));
	if (fast) {
		me->syscalls++;
		if (fast == FAST_SCHEDULE)
			sched_exit_to_user();
		bkl_unlock();
		arch_return_to_user(me->user_ctx);
	}
	syscall_dispatch(t);
	sched_exit_to_user();
}

/* The timer or an IPI: the port handles it, the scheduler picks. */
void trap_interrupt(struct trap_frame *tf)
{
	bkl_lock_masked();
	if (this_hart()->current->state != TACET_THREAD_DEAD)
		arch_trap_interrupt(tf);
	sched_exit_to_user();
}

/* An external interrupt whose delivery wakes a more urgent thread on this hart switches to it
 * directly (irq_external_user); the rest goes through the scheduler. */
void trap_external(struct trap_frame *tf)
{
	struct hart *me = this_hart();
	struct thread *t = me->current;
	struct thread *w;

	(void)tf; /* the controller says which line (irq_external_user's claim) */
	bkl_lock_urgent();
	if (t->state == TACET_THREAD_DEAD)
		sched_exit_to_user();
	w = irq_external_user(me, t);
	if (w) { /* the woken driver runs at once: no scheduler pass */
		sched_preempted(me, t);
		sched_switch_direct(me, t, w);
		bkl_unlock();
		trace_event(TACET_TRACE_IRQ, NULL, NULL, 0); /* direct: the line is w's irq_woken_by */
		arch_return_to_user(me->user_ctx);
	}
	if (!me->need_resched && t->state == TACET_THREAD_RUNNING && !irq_disabled_unreported) {
		/* nothing here outranks t (a woken thread runs elsewhere or waits its turn): t goes
		 * on, no scheduler pass; a TLB shootdown answered while waiting for the BKL may have
		 * moved the hart to the kernel's tables */
		arch_aspace_activate(t->proc->root);
		bkl_unlock();
		arch_return_to_user(me->user_ctx);
	}
	sched_exit_to_user();
}

void trap_exception(struct trap_frame *tf)
{
	struct thread *t = this_hart()->current;

	bkl_lock_masked();
	if (t->state != TACET_THREAD_DEAD && !arch_fp_trap(tf, &t->fp)) {
		thread_fault(t);
		sched_reap(); /* a fault nobody supervises ends the thread */
	}
	sched_exit_to_user();
}
