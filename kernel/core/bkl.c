/* bkl.c: the big kernel lock (bkl.h): the lock, and its contended path. */
#include "core/bkl.h"
#include "core/console.h"
#include "core/hart.h"
#include "core/panic.h"

struct spinlock bkl = SPINLOCK_INIT("bkl");

/* bkl_lock_masked()'s swap found the lock taken: a hart that holds it already is a bug (it
 * would wait for itself for ever); otherwise wait, still answering TLB shootdowns. */
void bkl_lock_slow(void)
{
	struct hart *me = this_hart();
	uint64_t start = arch_cycles();

	if (KDEBUG && bkl.owner == (int)me->id)
		spin_misuse(&bkl, "already held by this hart");
	while (!spin_trylock(&bkl))
		while (__atomic_load_n(&bkl.locked, __ATOMIC_RELAXED))
			hart_tlb_flush_if_asked();
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
