/* spinlock.h: test-and-set spinlocks for short critical sections between harts.
 * Lock order (outermost first): bkl, then kalloc / page pool / console. A spinlock may only be
 * taken with interrupts masked (the kernel always runs so); debug builds assert it, and that
 * the lock is not taken twice or released by another hart. Inline: the BKL is on every path.
 * A waiter looks HART_WAIT_LOOKS times, then sleeps until the holder's release wakes it (its
 * bit in sleepers; spinlock.c), as the BKL's waiters do: a hold is short, but the holder may
 * not be running (under -icount QEMU runs one hart at a time, and a spinner would spend its
 * whole turn, the BKL held, waiting for a holder that cannot run: 4 million instructions). */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include <stdint.h>
#include "core/hart.h"
#include "core/panic.h"

struct spinlock {
	uint32_t locked;   /* 0 or 1, atomic */
	uint32_t sleepers; /* harts asleep waiting for it, a bit each (atomic) */
	int owner;         /* logical hart id of the holder, -1 when free; for the assertions */
	const char *name;
};
_Static_assert(MAX_HARTS <= 32, "a sleeper's bit in a uint32_t");

#define SPINLOCK_INIT(n) { .locked = 0, .sleepers = 0, .owner = -1, .name = (n) }

/* Out of line (spinlock.c): the wait of a lock found taken, and the release's wake-up. */
void spin_lock_wait(struct spinlock *lock);
void spin_wake_sleepers(struct spinlock *lock);

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
	if (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE))
		spin_lock_wait(lock);
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
	/* a swap, not a store: ordered before the look at sleepers (a sleeper sets its bit, then
	 * looks at locked: one of the two sees the other) */
	__atomic_exchange_n(&lock->locked, 0, __ATOMIC_SEQ_CST);
	if (__builtin_expect(__atomic_load_n(&lock->sleepers, __ATOMIC_RELAXED) != 0, 0))
		spin_wake_sleepers(lock);
}

#endif
