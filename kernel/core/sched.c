/* sched.c: owns the per-hart run queues (runqueues[h] holds READY threads whose
 * affinity is hart h; a RUNNING thread is in no queue). Everything here runs with the BKL held,
 * except the idle wait, which drops it. */
#include "core/sched.h"
#include "object/reaper.h"
#include "core/console.h"
#include "core/hart.h"
#include "irq/irq.h"
#include "test/ktest.h"
#include "core/panic.h"
#include "object/process.h"
#include "core/spinlock.h"
#include "core/timer.h"
#include "core/runqueue.h"
#include "core/trace.h"

struct runqueue runqueues[MAX_HARTS];
/* A hart's time slice (struct hart's slice): none armed (idle, or not yet started), running
 * (the slice timer is armed), or over (it fired, or the thread yielded). A slice belongs to the
 * hart's current run of work: a direct switch (IPC, a woken driver) keeps it going. */
enum sched_slice { SLICE_NONE, SLICE_RUNNING, SLICE_OVER };
static uint64_t slice_ticks;

void sched_ready(struct thread *t)
{
	struct hart *h = &harts[t->hart];

	KASSERT(bkl_held(), "sched_ready: BKL not held");
	t->state = TACET_THREAD_READY;
	rq_push(h->rq, t, false);
	if (h->current && h->current->state == TACET_THREAD_RUNNING && t->prio <= h->current->prio)
		return; /* it waits its turn */
	if (h == this_hart())
		h->need_resched = true;
	else
		hart_signal(h, IPI_RESCHED);
}

void sched_unready(struct thread *t)
{
	KASSERT(t->state == TACET_THREAD_READY, "sched_unready: thread %u is not ready", t->tid);
	rq_remove(harts[t->hart].rq, t);
}

void sched_block(struct thread *t, enum tacet_thread_state state)
{
	t->state = state;
	harts[t->hart].need_resched = true;
}

void sched_yield(void)
{
	this_hart()->slice = SLICE_OVER;
}

static void slice_end(void)
{
	this_hart()->slice = SLICE_OVER;
}

/* A slice belongs to the hart's current run of work: a direct IPC switch keeps it going. */
static inline __attribute__((always_inline)) void slice_start(struct hart *me)
{
	if (!slice_ticks)
		slice_ticks = timer_us_to_ticks(SCHED_SLICE_US);
	me->slice = SLICE_RUNNING;
	me->current->slice_seq = ++me->slice_seq; /* the slice is the running thread's own */
	timer_arm_locked(me, timer_now() + slice_ticks, slice_end);
}

/* Is the hart's slice cur's own, and not over? A slice cur runs in without its own (another's,
 * kept by a direct switch: the hart's after a more urgent thread blocked, or one renewed for
 * that thread) is no turn of cur's: a spinner that gets the hart whenever a busy more urgent
 * thread sleeps, and is preempted at its wake-up, must not keep the hart from its equals. */
static bool own_slice(const struct hart *me, const struct thread *cur)
{
	return me->slice == SLICE_RUNNING && cur->slice_seq == me->slice_seq;
}

/* Keep running cur? Only if nothing better is READY (an equal one only once its slice ended). */
static bool keep_running(struct hart *me, struct thread *cur)
{
	int top = rq_top(me->rq);

	if (!cur || cur->state != TACET_THREAD_RUNNING)
		return false;
	if (top < cur->prio || (top == cur->prio && me->slice != SLICE_OVER))
		return true;
	/* preempted: a higher priority goes first, and cur waits first among its equals if it was
	 * running in a slice of its own that is not over (it goes on with it), else behind them;
	 * a spent slice sends it behind them too */
	cur->preemptions++;
	cur->state = TACET_THREAD_READY;
	rq_push(me->rq, cur, top > cur->prio && own_slice(me, cur));
	return false;
}

/* The previous thread is off this hart: keep its FPU state; drop the last reference of a
 * dead one. */
/* prev leaves the hart; true if it was dead and its own reference went with it. */
static bool switch_from(struct thread *prev)
{
	arch_fp_save(&prev->ctx, &prev->fp);
	if (prev->state != TACET_THREAD_DEAD)
		return false;
	kobj_put(&prev->obj);
	return true;
}

static void switch_to(struct hart *me, struct thread *next)
{
	sched_make_current(me, next);
	trace_event(TACET_TRACE_SWITCH, NULL, TACET_TRACE_BY_SCHED, 0);
	if (me->slice != SLICE_RUNNING)
		slice_start(me);
}

/* This hart runs no thread any more: the kernel's tables, no slice (it idles, or picks anew). */
static void hart_detach(struct hart *me)
{
	arch_aspace_activate(0);
	me->current = NULL;
	me->user_ctx = NULL;
	timer_arm_locked(me, UINT64_MAX, 0); /* bkl_unlock() disarms */
	me->slice = SLICE_NONE;
}

bool sched_reap_point(void)
{
	struct hart *me = this_hart();

	/* the hart's own thread ended in this run (its end was queued): off the hart before the
	 * lock is let go, so that its last reference goes now and nothing of it is reachable from
	 * here (a watcher told of its process's end finds it gone) */
	if (me->current && me->current->state == TACET_THREAD_DEAD) {
		switch_from(me->current);
		hart_detach(me);
	}
	bkl_yield();
	return false;
}

bool sched_reap_point_call(void)
{
	struct hart *me = this_hart();
	const struct thread *cur;

	sched_reap_point();
	cur = me->current;
	return cur && sched_more_urgent_here(cur);
}

void sched_reap_run(void)
{
	if (bkl_hold_is_long()) /* a short hold: no call */
		sched_reap_point();
	reaper_run(sched_reap_point);
}

bool sched_reap_call_run(void)
{
	if (bkl_hold_is_long() && sched_reap_point_call())
		return false;
	return reaper_run(sched_reap_point_call);
}

void sched_exit_to_user(void)
{
	struct hart *me = this_hart();
	struct thread *cur, *next;

	KASSERT(bkl_held(), "sched_exit_to_user: BKL not held");
	cur = me->current;
	irq_report(); /* what the top half disabled (it never prints) */
	if (!keep_running(me, cur)) {
		if (cur && switch_from(cur)) {
			/* a dead thread's last reference went: its end runs with the hart detached
			 * from every thread, as the lock may be let go between two objects */
			hart_detach(me);
			cur = NULL;
			sched_reap();
		}
		while (!(next = rq_pop(me->rq))) {
			if (cur)
				hart_detach(me);
			cur = NULL;
			bkl_unlock();
			if (me->console_dirty)
				console_idle(); /* the log's rest it left: nothing else to do */
			ktest_hart_poll();
			trace_event(TACET_TRACE_IDLE, NULL, 0, 0);
			arch_idle_wait();
			/* woken by an interrupt: a thread it readied here waits for the hold under
			 * way, not for the queue (the count read without the lock: a hint) */
			if (__atomic_load_n(&me->rq->nready, __ATOMIC_RELAXED))
				bkl_lock_urgent();
			else
				bkl_lock();
			irq_report();
		}
		if (next != cur)
			switch_to(me, next);
		else
			next->state = TACET_THREAD_RUNNING;
	} else if (me->slice == SLICE_OVER) {
		slice_start(me); /* alone at its priority: a new slice */
	}
	me->need_resched = false;
	/* a TLB shootdown may have moved this hart to the kernel's tables meanwhile */
	arch_aspace_activate(me->current->proc->root);
	bkl_unlock();
	arch_return_to_user(me->user_ctx);
}

void sched_start_hart(void)
{
	struct hart *me = this_hart();

	/* The longest hold is counted from here: the boot's (loading init, listing devices for it:
	 * at most ~7,000 instructions between two points) delayed nobody, as no thread existed
	 * yet, nor a driver to wait for an interrupt. */
	me->bkl_hold_max = 0;
	me->bkl_hold_cause = 0;
	me->bkl_hold_call = 0;
	ktest_mark_hold_reset(); /* the plugin's too (tools/qemu-plugins/bkl_holds.c) */
	bkl_lock();
	sched_reap(); /* what boot left to end */
	sched_exit_to_user();
}
