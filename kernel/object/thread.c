/* thread.c: thread creation, exit, user faults and destruction, and the calls on threads
 * (THREAD_NEW, THREAD_SET, EXIT, SELF); owns all_threads, the thread
 * ids and each process's list of live threads (process->threads). BKL held. A thread holds one
 * reference on itself while it lives; the scheduler drops it once a dead thread is off its
 * hart. Creation, exit and destruction cost O(1): ending a process of n threads costs O(n).
 * A thread's end never ends another thread directly: the caller it leaves without a reply,
 * its process, what its process held go through the reaper's queue (reaper.h). */
#include "object/thread.h"
#include "object/frame.h"
#include "core/syscall.h"
#include "object/cap.h"
#include "core/console.h"
#include "object/endpoint.h"
#include "core/hart.h"
#include "mm/kalloc.h"
#include "object/notification.h"
#include "core/panic.h"
#include "core/platform.h"
#include "object/process.h"
#include "object/reaper.h"
#include "core/sched.h"
#include "core/trace.h"
#include "irq/irq.h"

struct ilist all_threads = ILIST_INIT(all_threads);
static unsigned int next_tid = 1;

struct thread *thread_new(struct process *p, uintptr_t pc, uintptr_t sp, unsigned long arg,
			  unsigned int prio, unsigned int hart)
{
	struct thread *t = kobj_new(p->acct, sizeof(struct thread), TACET_CAP_THREAD);

	if (!t)
		return NULL;
	t->obj.refs = 1; /* alive */
	t->proc = p;
	kobj_get(&p->obj);
	p->nthreads++;
	t->tid = next_tid++;
	t->prio = (uint8_t)prio;
	t->hart = (uint8_t)hart;
	arch_ctx_init_user(&t->ctx, pc, sp, arg);
	ilist_append(&all_threads, &t->all_link);
	list_push_back(&p->threads, &t->proc_link);
	trace_event(TACET_TRACE_THREAD, t, NULL, 0); /* the trace's name for it, after its end too */
	sched_ready(t);
	return t;
}

bool thread_wake_some(struct tqueue *q, long err, unsigned int max)
{
	struct thread *t;

	for (unsigned int i = 0; i < max && (t = tqueue_pop(q)); i++) {
		arch_ctx_set_ret(&t->ctx, 0, (unsigned long)-err);
		t->blocked_on = NULL;
		sched_ready(t);
	}
	return !q->head;
}

/* Take t out of whatever it waits in. */
static void thread_detach(struct thread *t)
{
	switch (t->state) {
	case TACET_THREAD_READY:
		sched_unready(t);
		break;
	case TACET_THREAD_BLOCKED_SEND:
	case TACET_THREAD_BLOCKED_RECV:
		endpoint_cancel(t);
		break;
	case TACET_THREAD_BLOCKED_NTFN:
		notification_cancel(t);
		break;
	case TACET_THREAD_BLOCKED_REPLY:
		if (t->replier)
			t->replier->reply_to = NULL;
		t->replier = NULL;
		break;
	default:
		break;
	}
	notification_unbind(t);
	if (t->reply_to) { /* a caller waits for an answer that will not come */
		endpoint_reply_error(t->reply_to, TACET_EDEAD);
		t->reply_to = NULL;
	}
}

void thread_end(struct thread *t, long status)
{
	if (t->state == TACET_THREAD_DEAD || t->obj.queued)
		return;
	t->exit_status = status;
	reaper_end(&t->obj);
}

void thread_reap(struct thread *t, long status)
{
	struct process *p = t->proc;
	int running = harts[t->hart].current == t;

	if (t->state == TACET_THREAD_DEAD)
		return;
	thread_detach(t);
	irq_thread_gone(t);
	t->state = TACET_THREAD_DEAD;
	if (t->held_frame) { /* a FRAME_NEW it will not finish: nobody saw the frame */
		frame_free(t->held_frame);
		t->held_frame = NULL;
		p->calls--;
	}
	if (t->held_proc) /* a MAP or UNMAP it will not finish */
		process_held_end(t);
	list_remove(&t->proc_link);
	if (--p->nthreads == 0)
		process_reap_start(p, status);
	/* the alive reference: the scheduler drops a running thread's once it is off the hart */
	if (!running)
		kobj_put(&t->obj);
	else if (&harts[t->hart] != this_hart())
		hart_signal(&harts[t->hart], IPI_RESCHED); /* it must stop running there */
}

void thread_fault(struct thread *t)
{
	struct process *p = t->proc;
	const struct trap_frame *tf = &t->ctx;

	static struct ratelimit faults = KLOG_LIMIT_INIT;

	if (klog_allowed(&faults, "thread fault"))
		kprintf("tacet: thread %u of %s faulted: scause %#lx pc %#lx address %#lx\n",
			t->tid, p->name, tf->scause, tf->sepc, tf->stval);
	if (p->fault_ep && endpoint_send_fault(t) == 0)
		return; /* the supervisor decides */
	thread_end_faulted(t);
}

void thread_end_process(struct thread *t, long status)
{
	t->proc->kill_status = (int)status;
	thread_end(t, status);
	process_end(t->proc);
}

void thread_end_faulted(struct thread *t)
{
	thread_end_process(t, -TACET_EFAULT);
}

void thread_free(struct thread *t)
{
	KASSERT(list_empty(&t->proc_link), "thread_free: thread %u has not exited", t->tid);
	ilist_remove(&all_threads, &t->all_link);
	kobj_put(&t->proc->obj);
	kobj_free(&t->obj, sizeof(*t));
}

/* --- system calls (syscall.h: decode, then invoke) --- */

/* A scheduling word (TACET_SCHED: priority, hart) t may give: no more urgent than t itself, on
 * a hart that is online. 0 or the error. */
static long decode_sched(struct thread *t, unsigned long sched)
{
	if (sched >> 16)
		return TACET_EINVAL;
	if (TACET_SCHED_PRIO(sched) > t->prio)
		return TACET_EPERM; /* no thread makes one more urgent than itself */
	if (TACET_SCHED_HART(sched) >= nharts || !harts[TACET_SCHED_HART(sched)].online)
		return TACET_EINVAL;
	return 0;
}

/* THREAD_NEW's decode: a living process (WRITE), an empty slot if one is named, a scheduling
 * word, pc and sp inside user space. */
static long decode_thread_new(struct thread *t, struct process **p, struct cap **dst)
{
	long err;

	*p = process_decode(t, syscall_arg(t, 0), TACET_RIGHT_WRITE, &err);
	if (!*p)
		return err;
	*dst = NULL;
	if (syscall_arg(t, 1) && !(*dst = cap_empty_slot(t->proc->cspace, syscall_arg(t, 1), &err)))
		return err;
	if ((err = decode_sched(t, syscall_arg(t, 5))))
		return err;
	if (syscall_arg(t, 2) >= arch_user_top() || syscall_arg(t, 3) > arch_user_top())
		return TACET_EINVAL;
	return 0;
}

/* (process, slot or 0, pc, sp, arg, sched) -> its thread id */
void sys_thread_new(struct thread *t)
{
	struct process *p = NULL;
	struct cap *dst = NULL;
	long err = decode_thread_new(t, &p, &dst);
	unsigned long sched = syscall_arg(t, 5);
	struct thread *n;

	if (err) {
		syscall_ret(t, -err);
		return;
	}
	n = thread_new(p, syscall_arg(t, 2), syscall_arg(t, 3), syscall_arg(t, 4),
		       TACET_SCHED_PRIO(sched), TACET_SCHED_HART(sched));
	if (!n) {
		syscall_ret(t, -TACET_ENOMEM);
		return;
	}
	if (dst)
		cap_install(dst, &n->obj, TACET_RIGHTS_ALL, 0);
	syscall_ret(t, (long)n->tid);
}

/* THREAD_SET's decode: a thread (WRITE), a scheduling word, and a target that is alive and
 * not running on another hart right now. */
static long decode_thread_set(struct thread *t, struct thread **target)
{
	long err;
	struct cap *c = cap_lookup(t->proc->cspace, syscall_arg(t, 0), TACET_CAP_THREAD,
				   TACET_RIGHT_WRITE, &err);

	if (!c)
		return err;
	*target = (struct thread *)c->obj;
	if ((err = decode_sched(t, syscall_arg(t, 1))))
		return err;
	if ((*target)->state == TACET_THREAD_DEAD)
		return TACET_EDEAD;
	if ((*target)->state == TACET_THREAD_RUNNING && *target != t)
		return TACET_EBUSY; /* running on another hart right now */
	return 0;
}

/* (thread, sched): its priority and hart. */
void sys_thread_set(struct thread *t)
{
	struct thread *target = NULL;
	long err = decode_thread_set(t, &target);
	unsigned long sched = syscall_arg(t, 1);

	syscall_ret(t, -err);
	if (err)
		return;
	if (target->state == TACET_THREAD_READY)
		sched_unready(target);
	target->prio = (uint8_t)TACET_SCHED_PRIO(sched);
	target->hart = (uint8_t)TACET_SCHED_HART(sched);
	if (target->state == TACET_THREAD_READY || target == t) {
		sched_ready(target); /* the caller itself moves when it leaves the kernel */
		this_hart()->need_resched = true;
	}
}

/* (status): the calling thread ends. */
void sys_exit(struct thread *t)
{
	thread_end(t, (long)syscall_arg(t, 0));
}

/* (status): t's process ends, every thread of it with status (t first). As for EXIT, t never
 * runs user code again: it is on the reaper's queue, which every call of its runs first. */
void sys_process_exit(struct thread *t)
{
	thread_end_process(t, (long)syscall_arg(t, 0));
}

/* () -> its thread id; a1 = its hart, a2 = its priority. */
void sys_self(struct thread *t)
{
	arch_ctx_set_ret(&t->ctx, 1, t->hart);
	arch_ctx_set_ret(&t->ctx, 2, t->prio);
	syscall_ret(t, (long)t->tid);
}
