/* spinlock.h: test-and-set spinlocks for short critical sections between harts.
 * Lock order (outermost first): console. A spinlock may only be taken with interrupts masked
 * (the kernel always runs so); spin_lock() asserts it. */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include <stdint.h>

struct spinlock {
	uint32_t locked;  /* 0 or 1, atomic */
	int owner;        /* logical hart id of the holder, -1 when free; for the assertions */
	const char *name;
};

#define SPINLOCK_INIT(n) { .locked = 0, .owner = -1, .name = (n) }

void spin_lock(struct spinlock *lock);
void spin_unlock(struct spinlock *lock);
int spin_is_held_by_me(const struct spinlock *lock);

#endif
