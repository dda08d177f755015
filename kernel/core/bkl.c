/* bkl.c: the big kernel lock (bkl.h): the lock, and its contended path. */
#include "core/bkl.h"
#include "core/hart.h"
#include "core/panic.h"

struct spinlock bkl = SPINLOCK_INIT("bkl");

/* bkl_lock_masked()'s swap found the lock taken: a hart that holds it already is a bug (it
 * would wait for itself for ever); otherwise wait, still answering TLB shootdowns. */
void bkl_lock_slow(void)
{
	if (KDEBUG && bkl.owner == (int)this_hart()->id)
		spin_misuse(&bkl, "already held by this hart");
	while (!spin_trylock(&bkl))
		while (__atomic_load_n(&bkl.locked, __ATOMIC_RELAXED))
			hart_tlb_flush_if_asked();
}
