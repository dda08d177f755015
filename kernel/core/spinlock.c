/* spinlock.c: the slow side of the spinlocks (spinlock.h): the wait of a lock found taken, the
 * release's wake-up, and the report of a broken rule. Interrupts masked, as every spinlock. */
#include "core/spinlock.h"
#include "arch.h"

void spin_lock_wait(struct spinlock *lock)
{
	struct hart *me = this_hart();
	uint32_t bit = 1u << me->id;
	bool requests = false; /* hart_signal requests a sleep took: made pending again */

	for (;;) {
		for (int i = 0; i < HART_WAIT_LOOKS; i++) {
			if (!__atomic_load_n(&lock->locked, __ATOMIC_RELAXED) &&
			    !__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE))
				goto taken;
			arch_cpu_relax();
		}
		__atomic_fetch_or(&lock->sleepers, bit, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&lock->locked, __ATOMIC_SEQ_CST))
			requests |= hart_sleep_until_ipi(me);
		__atomic_fetch_and(&lock->sleepers, ~bit, __ATOMIC_RELAXED);
	}
taken:
	if (requests)
		arch_ipi_raise_self();
}

void spin_wake_sleepers(struct spinlock *lock)
{
	uint32_t s = __atomic_load_n(&lock->sleepers, __ATOMIC_RELAXED);

	for (unsigned int h = 0; s; h++, s >>= 1)
		if (s & 1)
			arch_ipi_send(&harts[h]); /* a bare wake-up: arch_ipi_wait() takes it */
}

void spin_misuse(const struct spinlock *lock, const char *what)
{
	panic("spinlock %s: %s", lock->name, what);
}
