/* slot.h: a server's capability slots, part of the driver kit (<tacet/driver.h>, lib/slot.c):
 * one allocator; lib's pool, or a pool a thread names its own. Host-compilable (no system call
 * inline here), so that a host test links lib/slot.c. Included by <tacet/driver.h>. */
#ifndef TACET_SLOT_H
#define TACET_SLOT_H

#include <stdint.h>

/* An empty slot from the calling thread's pool, or -TACET_ENOMEM when all are in use: lib's
 * pool (TACET_CHILD_LIB_SLOTS..127, 32 slots) unless the thread named one of its own with
 * tacet_slot_pool_use. tacet_slot_free deletes whatever the slot holds and makes it free again
 * (a slot of another pool: nothing). The kit's own calls take their slots here too. */
long tacet_slot_alloc(void);
void tacet_slot_free(unsigned long slot);
/* Add the server's own slots first..first+count-1 (from TACET_CHILD_FIRST_FREE up, below the
 * devices' TACET_CHILD_DEVICE_SLOTS) to the calling thread's pool, handed out after lib's range:
 * for a server that keeps many capabilities of its clients and hard-codes none of those slots. */
void tacet_slot_pool_add(unsigned long first, unsigned long count);
/* A pool of slots of the thread's own: the calling thread's slots (the kit's calls' too) come
 * from pool from now on, empty until tacet_slot_pool_add fills it (NULL: lib's pool again). A
 * pool is one thread's: a server with two threads that both take slots gives each its own, of
 * ranges apart (init does). */
#define TACET_SLOTS 128 /* a process's capability table */
struct tacet_slot_pool {
	uint64_t may[TACET_SLOTS / 64];  /* the slots it may hand out */
	uint64_t used[TACET_SLOTS / 64]; /* ...and those handed out */
};
void tacet_slot_pool_use(struct tacet_slot_pool *pool);

#endif
