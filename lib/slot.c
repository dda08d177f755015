/* slot.c: the one allocator of a server's capability slots (<tacet/driver.h>): pools of slots
 * handed out one at a time from a bitmap. lib's own pool holds TACET_CHILD_LIB_SLOTS..127
 * (<tacet/init_proto.h>) and any range a server adds with tacet_slot_pool_add (its own, from
 * TACET_CHILD_FIRST_FREE, once it hard-codes none there). A pool belongs to one thread: a
 * thread takes its slots from lib's pool, or from one of its own it names with
 * tacet_slot_pool_use (a server whose threads both allocate gives each its own); no lock. */
#include <stddef.h>
#include <tacet.h>
#include <tacet/init_proto.h>

static struct tacet_slot_pool lib_pool = { .may = { 0, ~0ull << (TACET_CHILD_LIB_SLOTS - 64) } };
static _Thread_local struct tacet_slot_pool *own; /* the calling thread's; NULL: lib_pool */

static struct tacet_slot_pool *mine(void)
{
	return own ? own : &lib_pool;
}

void tacet_slot_pool_use(struct tacet_slot_pool *pool)
{
	own = pool;
}

long tacet_slot_alloc(void)
{
	struct tacet_slot_pool *p = mine();

	for (unsigned long n = 0; n < TACET_SLOTS; n++) { /* lib's range first, then the rest */
		unsigned long i = (n + TACET_CHILD_LIB_SLOTS) % TACET_SLOTS;
		uint64_t bit = 1ull << (i % 64);

		if (!(p->may[i / 64] & bit) || (p->used[i / 64] & bit))
			continue;
		/* a slot someone filled without asking (or a leftover) is not handed out */
		if (tacet_cap_info(i, NULL, NULL) != -TACET_EEMPTY)
			continue;
		p->used[i / 64] |= bit;
		return (long)i;
	}
	return -TACET_ENOMEM;
}

void tacet_slot_free(unsigned long slot)
{
	struct tacet_slot_pool *p = mine();

	if (slot >= TACET_SLOTS || !(p->may[slot / 64] & (1ull << (slot % 64))))
		return;
	tacet_cap_delete(slot);
	p->used[slot / 64] &= ~(1ull << (slot % 64));
}

void tacet_slot_pool_add(unsigned long first, unsigned long count)
{
	struct tacet_slot_pool *p = mine();

	for (unsigned long i = first; i < first + count && i < TACET_SLOTS; i++)
		if (i >= TACET_CHILD_FIRST_FREE)
			p->may[i / 64] |= 1ull << (i % 64);
}
