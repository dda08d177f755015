/* kobj.h: the header every capability-reachable kernel object starts with: its type and a
 * reference count (one per capability and per kernel-internal reference). BKL held. */
#ifndef KERNEL_KOBJ_H
#define KERNEL_KOBJ_H

#include <stdint.h>
#include <tacet/abi.h>

struct kobj {
	uint32_t type; /* enum tacet_cap_type */
	uint32_t refs;
};

static inline void kobj_get(struct kobj *o)
{
	o->refs++;
}

/* Drop a reference; destroys the object (by type) at zero. */
void kobj_put(struct kobj *o);

#endif
