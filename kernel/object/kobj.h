/* kobj.h: the header every capability-reachable kernel object starts with: its type and a
 * reference count (one per capability and per kernel-internal reference), and its link on the
 * reaper's queue (reaper.h). BKL held. */
#ifndef KERNEL_KOBJ_H
#define KERNEL_KOBJ_H

#include <stddef.h>
#include <stdint.h>
#include <tacet/abi.h>

struct account;

struct kobj {
	uint16_t type;   /* enum tacet_cap_type */
	uint16_t queued; /* on the reaper's queue to be ended (reaper_end) */
	uint32_t refs;
	struct account *acct; /* what it is charged to (a reference), NULL: the kernel's own */
	struct kobj *reap_next; /* the reaper's queue (reaper.c) */
};

/* A new object of `size` bytes and type, zeroed but for the header, charged to acct (NULL:
 * nobody), with no reference yet (its first capability or holder takes one). NULL when acct's
 * limit or the machine's memory would be passed. */
void *kobj_new(struct account *acct, size_t size, uint32_t type);
/* The end of an object from kobj_new: memory and charge go back. */
void kobj_free(struct kobj *o, size_t size);

static inline void kobj_get(struct kobj *o)
{
	o->refs++;
}

/* Drop a reference; at zero the object is freed (by type: X_free), before the outermost kobj_put
 * or reaper call returns: through the reaper's queue, so that an object whose destruction
 * drops the last reference to another, which drops the last to another... is no recursion. */
void kobj_put(struct kobj *o);

/* A capability now names o / no longer does (cap.c). Besides the reference, a process counts
 * the capabilities to it: when the last one goes, nobody can supervise it any more and its
 * threads are ended (a process holding a capability to itself lives on). */
void kobj_cap_added(struct kobj *o);
void kobj_cap_removed(struct kobj *o);

#endif
