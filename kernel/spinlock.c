/* spinlock.c: spinlocks with acquire/release ordering and the rules checked by panics:
 * interrupts must be masked, no recursion, unlock only by the holder. */
#include "spinlock.h"
#include "hart.h"
#include "panic.h"

void spin_lock(struct spinlock *lock)
{
	if (KDEBUG && !arch_irqs_masked())
		panic("spin_lock %s: interrupts are enabled", lock->name);
	if (spin_is_held_by_me(lock))
		panic("spin_lock %s: already held by this hart", lock->name);
	while (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&lock->locked, __ATOMIC_RELAXED))
			;
	lock->owner = (int)this_hart()->id;
}

void spin_unlock(struct spinlock *lock)
{
	if (!spin_is_held_by_me(lock))
		panic("spin_unlock %s: not held by this hart", lock->name);
	lock->owner = -1;
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

int spin_is_held_by_me(const struct spinlock *lock)
{
	return __atomic_load_n(&lock->locked, __ATOMIC_RELAXED) &&
	       lock->owner == (int)this_hart()->id;
}
