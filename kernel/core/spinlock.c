/* spinlock.c: the report of a broken spinlock rule (the locks themselves are inline). */
#include "core/spinlock.h"

void spin_misuse(const struct spinlock *lock, const char *what)
{
	panic("spinlock %s: %s", lock->name, what);
}
