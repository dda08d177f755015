/* slot.c: the one allocator of a server's capability slots (<tacet/driver.h>): lib's own,
 * TACET_CHILD_LIB_SLOTS..127 (<tacet/init_proto.h>), and any range a server adds with
 * tacet_slot_pool_add (its own, from TACET_CHILD_FIRST_FREE, once it hard-codes none there),
 * handed out one at a time from a bitmap. Not thread-safe (see <tacet/driver.h>). */
#include <stddef.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define SLOTS 128 /* the capability table's size */

static uint64_t pool[SLOTS / 64] = { 0, ~0ull << (TACET_CHILD_LIB_SLOTS - 64) }; /* may hand out */
static uint64_t used[SLOTS / 64]; /* handed out */

long tacet_slot_alloc(void)
{
	for (unsigned long n = 0; n < SLOTS; n++) { /* lib's range first, then the added ones */
		unsigned long i = (n + TACET_CHILD_LIB_SLOTS) % SLOTS;
		uint64_t bit = 1ull << (i % 64);

		if (!(pool[i / 64] & bit) || (used[i / 64] & bit))
			continue;
		/* a slot someone filled without asking (or a leftover) is not handed out */
		if (tacet_cap_info(i, NULL, NULL) != -TACET_EEMPTY)
			continue;
		used[i / 64] |= bit;
		return (long)i;
	}
	return -TACET_ENOMEM;
}

void tacet_slot_free(unsigned long slot)
{
	if (slot >= SLOTS || !(pool[slot / 64] & (1ull << (slot % 64))))
		return;
	tacet_cap_delete(slot);
	used[slot / 64] &= ~(1ull << (slot % 64));
}

void tacet_slot_pool_add(unsigned long first, unsigned long count)
{
	for (unsigned long i = first; i < first + count && i < SLOTS; i++)
		if (i >= TACET_CHILD_FIRST_FREE)
			pool[i / 64] |= 1ull << (i % 64);
}
