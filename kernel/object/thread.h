/* thread.h: threads (the kernel's TCB): saved user context, scheduling parameters, IPC state.
 * Every thread is on all_threads (creation order, for `ps`) from creation to destruction, and on
 * its process's list of live threads until it ends. Every field is guarded by the BKL. */
#ifndef KERNEL_THREAD_H
#define KERNEL_THREAD_H

#include <stdint.h>
#include <tacet/abi.h>
#include "arch.h"
#include "lib/ilist.h"
#include "object/kobj.h"
#include "lib/list.h"
struct tqueue;

struct process;
struct notification;
struct irq_desc;

struct thread {
	struct kobj obj;       /* first, like every kernel object: kobj_put casts back */
	struct trap_frame ctx; /* user registers, saved by the trap entry */
	struct fp_state fp;
	struct process *proc;  /* holds a reference */
	unsigned int tid;
	uint8_t prio;          /* 0..TACET_PRIO_MAX, larger runs first */
	uint8_t hart;          /* logical hart it runs on (affinity) */
	uint8_t slice_seq;     /* its hart's slice_seq when a slice was last started for it */
	enum tacet_thread_state state;
	/* Times the scheduler took it off its hart while it could run on (sched.c's keep_running:
	 * a more urgent thread ready, its slice's end, a yield); not a fast path's direct switch
	 * (an interrupt's driver, a signal's waiter), which costs nothing more. TACET_INFO_PROCESS
	 * reports it, for a supervisor to tell a server that did not answer although it ran (a
	 * spinner is taken off its hart, and given it back) from one that never got its hart: a
	 * count compared for a change, whose wrap no reader minds; 32 bits, in the padding before
	 * the links (the struct's size unchanged by it). */
	uint32_t preemptions;
	struct thread *next, *prev; /* run queue or wait queue links */

	/* A system call a more urgent thread of this hart interrupted (syscall_hold_back), kept
	 * while the thread's a7 says TACET_SYS_RESUME and it makes that call again when it next
	 * runs: its number, and its result (done but for the teardown it left), or its work so
	 * far: the frame FRAME_NEW makes (held_frame: no capability names it yet; ended with the
	 * thread) and the pages of it zeroed; the mapping MAP makes, or the mappings UNMAP ends
	 * (held_maps, held_cur the one under way), in held_proc (the call's reference), and the
	 * pages mapped or unmapped (of held_cur) so far (process_held_end if the thread ends). */
	bool resuming;
	unsigned long resume_nr;
	unsigned long resume_ret;
	struct frame *held_frame;
	struct mapping *held_maps, *held_cur;
	struct process *held_proc;
	unsigned long held_done;

	/* IPC: the message a blocked sender carries, or the slot a receiver takes a cap into. */
	void *blocked_on;      /* endpoint or notification it waits on */
	unsigned long msg_tag;
	unsigned long msg_w[TACET_MSG_WORDS];
	uint64_t msg_badge;    /* badge of the capability it sends with */
	int msg_is_call;       /* a blocked sender that wants a reply */
	int in_fault;          /* its "call" is a fault report: the reply resumes or ends it */
	unsigned long recv_slot; /* receiving: a sent capability's slot; calling: a reply's */
	struct thread *reply_to; /* the caller waiting for this thread's reply */
	struct thread *replier;  /* the server that owes this (BLOCKED_REPLY) thread a reply */

	struct notification *bound_ntfn; /* signals end this thread's RECV too (a reference) */
#ifdef CONFIG_FAULTS
	unsigned long inject_reply; /* garbage for its next reply (TACET_INJECT_REPLY; 0: none) */
#endif
	long exit_status;      /* thread_end's, while the thread waits on the reaper's queue */
	/* Interrupt statistics (irq_inline.h): the line that woke it, when it began to run (0: not
	 * yet, and always 0 while irq_woken_by is NULL) and its wake-up latency from that line's
	 * last_done, counted at its acknowledgement. */
	struct irq_desc *irq_woken_by;
	uint64_t irq_running_at;
	uint64_t irq_wake;
	bool irq_stamp_wanted; /* blocked in IRQ_ACK_WAIT: a delivery puts its trap time in a1 */
	struct ilist_node all_link;  /* on all_threads */
	struct list_node proc_link;  /* on proc->threads while it lives */
};

/* A new thread of p, READY on `hart` at `prio`, entering user mode at pc with sp and a0 = arg;
 * charged to p's account (NULL when its limit or memory would be passed). */
struct thread *thread_new(struct process *p, uintptr_t pc, uintptr_t sp, unsigned long arg,
			  unsigned int prio, unsigned int hart);
/* Wake up to max threads waiting in q with -err as their result (their object is going
 * away); true when none is left. A user decides how many threads wait on one object, so an
 * object's end wakes them a bounded step at a time (THREAD_WAKE_STEP), the reaper going on
 * with the rest (no BKL hold may pass 5,000 instructions: core/bkl.h). */
#define THREAD_WAKE_STEP 16
bool thread_wake_some(struct tqueue *q, long err, unsigned int max);
/* t ends (exit, a fault it cannot survive, its supervisor's end): it leaves every queue, wakes
 * its callers with TACET_EDEAD, and its process ends with its last thread. Through the reaper
 * (reaper.h): at once, unless a teardown is under way, which then ends t after the step that
 * asked (a faulted thread whose supervisor ended, in a chain of such, is no recursion). A
 * second request before t ended changes nothing. */
void thread_end(struct thread *t, long status);
/* End t now, with status, unless it has ended meanwhile: the reaper's loop only (kobj_reap for
 * a thread thread_end queued, with its status; process_reap). Anything its end ends in turn
 * is queued. */
void thread_reap(struct thread *t, long status);
/* A user fault: report to the process's fault endpoint (its supervisor, whose reply resumes t,
 * ends t or ends its process: enum tacet_fault_reply), or, with none, end t's process. */
void thread_fault(struct thread *t);
/* t faulted and nobody resumes it: its whole process ends (one faulted thread leaves the
 * others nothing to trust: its state may be half-updated), t and the process with
 * -TACET_EFAULT, the other threads too. */
void thread_end_faulted(struct thread *t);
/* t's whole process ends, every thread of it with status, t first (thread_end_faulted's and
 * PROCESS_EXIT's end: through the reaper, as thread_end). */
void thread_end_process(struct thread *t, long status);
/* At the last reference (kobj_put): t has ended. */
void thread_free(struct thread *t);

/* Every thread not yet freed (dead ones too), oldest first: TACET_INFO_THREAD lists it. */
extern struct ilist all_threads;

void sys_thread_new(struct thread *t);
void sys_thread_set(struct thread *t);
void sys_exit(struct thread *t);
void sys_process_exit(struct thread *t);
void sys_self(struct thread *t);

#endif
