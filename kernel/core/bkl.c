/* bkl.c: the big kernel lock (bkl.h): the lock, and its contended path. */
#include "core/bkl.h"
#include "core/console.h"
#include "core/hart.h"
#include "core/panic.h"

struct spinlock bkl = SPINLOCK_INIT("bkl");

/* bkl_lock_masked()'s swap found the lock taken: a hart that holds it already is a bug (it
 * would wait for itself for ever); otherwise wait, still answering TLB shootdowns. */
uint32_t bkl_waiting;

void bkl_lock_slow(void)
{
	struct hart *me = this_hart();
	uint64_t start = arch_cycles();

	if (KDEBUG && bkl.owner == (int)me->id)
		spin_misuse(&bkl, "already held by this hart");
	__atomic_fetch_add(&bkl_waiting, 1, __ATOMIC_RELAXED);
	while (!spin_trylock(&bkl))
		while (__atomic_load_n(&bkl.locked, __ATOMIC_RELAXED))
			hart_tlb_flush_if_asked();
	__atomic_fetch_sub(&bkl_waiting, 1, __ATOMIC_RELAXED);
	me->bkl_since = arch_cycles();
	if (me->bkl_since - start > me->bkl_wait_max)
		me->bkl_wait_max = me->bkl_since - start;
}

void bkl_note_hold(struct hart *me, uint64_t hold)
{
	const struct trap_frame *tf = me->user_ctx;

	me->bkl_hold_max = hold;
	me->bkl_hold_cause = tf ? arch_ctx_cause(tf) : 0;
	me->bkl_hold_call = tf ? arch_ctx_syscall_nr(tf) : 0;
}

void bkl_unlock_console(struct hart *me)
{
	console_written_after_unlock(me);
}

void bkl_yield(void)
{
	struct hart *me = this_hart();
	uint64_t now = arch_cycles();

	if (now - me->bkl_since < BKL_YIELD_AFTER)
		return; /* held briefly yet: going on costs others less than a hand-over */
	if (!arch_interrupts_pending() && !__atomic_load_n(&bkl_waiting, __ATOMIC_RELAXED)) {
		/* nobody to let in: the hold goes on, but what a waiter could have waited ends
		 * here, so the measured hold does too (bkl_hold_max: the longest stretch without a
		 * point where the lock would have been let go) */
		if (now - me->bkl_since > me->bkl_hold_max)
			bkl_note_hold(me, now - me->bkl_since);
		me->bkl_since = now;
		return;
	}
	bkl_unlock();
	arch_take_pending_interrupts(); /* each top half takes the BKL itself */
	/* a waiter goes first: wait until one has taken the lock, or none waits any more */
	while (__atomic_load_n(&bkl_waiting, __ATOMIC_RELAXED) &&
	       !__atomic_load_n(&bkl.locked, __ATOMIC_RELAXED))
		;
	bkl_lock();
}
