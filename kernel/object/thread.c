/* thread.c: thread creation, exit, user faults and destruction; owns all_threads, the thread
 * ids and each process's list of live threads (process->threads). BKL held. A thread holds one
 * reference on itself while it lives; the scheduler drops it once a dead thread is off its
 * hart. Creation, exit and destruction cost O(1): ending a process of n threads costs O(n).
 * A thread's end never ends another thread directly: the caller it leaves without a reply,
 * its process, what its process held go through the reaper's queue (reaper.h). */
#include "object/thread.h"
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
	sched_ready(t);
	return t;
}

void thread_wake_all(struct tqueue *q, long err)
{
	struct thread *t;

	while ((t = tqueue_pop(q))) {
		arch_ctx_set_ret(&t->ctx, 0, (unsigned long)-err);
		t->blocked_on = NULL;
		sched_ready(t);
	}
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
	if (t->bound_ntfn) {
		t->bound_ntfn->bound = NULL;
		kobj_put(&t->bound_ntfn->obj);
		t->bound_ntfn = NULL;
	}
	if (t->reply_to) { /* a caller waits for an answer that will not come */
		endpoint_reply_error(t->reply_to, TACET_EDEAD);
		t->reply_to = NULL;
	}
}

void thread_exit(struct thread *t, long status)
{
	if (t->state == TACET_THREAD_DEAD || t->obj.queued)
		return;
	t->exit_status = status;
	reaper_end(&t->obj);
}

void thread_reap(struct thread *t)
{
	if (t->state != TACET_THREAD_DEAD)
		thread_end(t, t->exit_status);
}

void thread_end(struct thread *t, long status)
{
	struct process *p = t->proc;
	int running = harts[t->hart].current == t;

	thread_detach(t);
	t->state = TACET_THREAD_DEAD;
	list_remove(&t->proc_link);
	if (--p->nthreads == 0)
		process_end(p, status);
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

	kprintf("tacet: thread %u of %s faulted: scause %#lx pc %#lx address %#lx\n", t->tid,
		p->name, tf->scause, tf->sepc, tf->stval);
	if (p->fault_ep && endpoint_send_fault(t) == 0)
		return; /* the supervisor decides */
	thread_exit(t, -TACET_EFAULT);
}

void thread_destroy(struct thread *t)
{
	KASSERT(list_empty(&t->proc_link), "thread_destroy: thread %u has not exited", t->tid);
	ilist_remove(&all_threads, &t->all_link);
	kobj_put(&t->proc->obj);
	kobj_free(&t->obj, sizeof(*t));
}
