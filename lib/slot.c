/* slot.c: lib's capability slots, TACET_CHILD_LIB_SLOTS..127 (<tacet/init_proto.h>), handed
 * out one at a time from a bitmap so that the kit and the drivers built on it hard-code no slot.
 * Not thread-safe (see <tacet/driver.h>). */
#include <stddef.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define LIB_SLOTS 32 /* up to the 128-slot capability table's end */

static uint32_t used; /* bit i: slot TACET_CHILD_LIB_SLOTS + i is handed out */

long tacet_slot_alloc(void)
{
	for (unsigned long i = 0; i < LIB_SLOTS; i++) {
		if (used & (1u << i))
			continue;
		/* a slot someone filled without asking (or a leftover) is not handed out */
		if (tacet_cap_info(TACET_CHILD_LIB_SLOTS + i, NULL, NULL) != -TACET_EEMPTY)
			continue;
		used |= 1u << i;
		return (long)(TACET_CHILD_LIB_SLOTS + i);
	}
	return -TACET_ENOMEM;
}

void tacet_slot_free(unsigned long slot)
{
	unsigned long i = slot - TACET_CHILD_LIB_SLOTS;

	if (slot < TACET_CHILD_LIB_SLOTS || i >= LIB_SLOTS)
		return;
	tacet_cap_delete(slot);
	used &= ~(1u << i);
}
