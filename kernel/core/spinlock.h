/* spinlock.h: test-and-set spinlocks for short critical sections between harts.
 * Lock order (outermost first): bkl, then kalloc / page pool / console. A spinlock may only be
 * taken with interrupts masked (the kernel always runs so); debug builds assert it, and that
 * the lock is not taken twice or released by another hart. Inline: the BKL is on every path. */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include <stdint.h>
#include "core/hart.h"
#include "core/panic.h"

struct spinlock {
	uint32_t locked;  /* 0 or 1, atomic */
	int owner;        /* logical hart id of the holder, -1 when free; for the assertions */
	const char *name;
};

#define SPINLOCK_INIT(n) { .locked = 0, .owner = -1, .name = (n) }

static inline __attribute__((always_inline)) int spin_is_held_by_me(const struct spinlock *lock)
{
	return __atomic_load_n(&lock->locked, __ATOMIC_RELAXED) &&
	       lock->owner == (int)this_hart()->id;
}

/* The assertions' reports, out of line. */
_Noreturn void spin_misuse(const struct spinlock *lock, const char *what);

static inline void spin_lock(struct spinlock *lock)
{
	if (KDEBUG && !arch_irqs_masked())
		spin_misuse(lock, "interrupts are enabled");
	if (KDEBUG && spin_is_held_by_me(lock))
		spin_misuse(lock, "already held by this hart");
	while (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&lock->locked, __ATOMIC_RELAXED))
			;
	lock->owner = (int)this_hart()->id;
}

/* One attempt; 1 if taken. */
static inline int spin_trylock(struct spinlock *lock)
{
	if (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE))
		return 0;
	lock->owner = (int)this_hart()->id;
	return 1;
}

static inline void spin_unlock(struct spinlock *lock)
{
	if (KDEBUG && !spin_is_held_by_me(lock))
		spin_misuse(lock, "not held by this hart");
	lock->owner = -1;
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

#endif
