/* cap.h: capability tables (cspaces): one per process, a fixed array of slots naming kernel
 * objects with rights and a badge. All functions run with the BKL held. */
#ifndef KERNEL_CAP_H
#define KERNEL_CAP_H

#include <stdbool.h>
#include <stdint.h>
#include "object/kobj.h"

#define CSPACE_SLOTS 128 /* slot 0 is never used: 0 means "no slot" in messages */

struct cap {
	struct kobj *obj; /* NULL: empty slot */
	uint64_t badge;
	uint8_t rights;   /* TACET_RIGHT_* */
};

struct cspace {
	struct cap slots[CSPACE_SLOTS];
};

struct cspace *cspace_new(void);
/* Delete every capability, then the table. */
void cspace_free(struct cspace *cs);
/* The same in steps (a process's end, one step of the reaper each): deletes the capabilities
 * of slots *next to *next + CSPACE_FREE_STEP - 1 and moves *next past them (start it at 0);
 * true once every slot is empty and the table freed. */
#define CSPACE_FREE_STEP 8
bool cspace_free_step(struct cspace *cs, uint64_t *next);

/* The one rights check: c carries every right in `rights` (0: none asked). */
static inline __attribute__((always_inline)) bool cap_has_rights(const struct cap *c,
								 uint32_t rights)
{
	return (c->rights & rights) == rights;
}

/* Decode: the capability in slot, checked for type (TACET_CAP_NULL: any) and rights. Returns
 * it, or NULL with *err set (TACET_EBADSLOT, TACET_EEMPTY, TACET_ETYPE, TACET_EPERM). */
struct cap *cap_lookup(struct cspace *cs, unsigned long slot, uint32_t type, uint32_t rights,
		       long *err);
/* The fast paths' decode: the capability in slot if cap_lookup would return it (type, every
 * right in rights), else NULL (the slow path then says why, with cap_lookup). No error code,
 * no type wildcard. */
static inline __attribute__((always_inline)) const struct cap *
cap_peek(const struct cspace *cs, unsigned long slot, uint32_t type, uint32_t rights)
{
	const struct cap *c;

	if (slot == 0 || slot >= CSPACE_SLOTS)
		return NULL;
	c = &cs->slots[slot];
	return c->obj && c->obj->type == type && cap_has_rights(c, rights) ? c : NULL;
}
/* The empty slot `slot`, or NULL with *err (TACET_EBADSLOT, TACET_EEXIST). */
struct cap *cap_empty_slot(struct cspace *cs, unsigned long slot, long *err);
/* Invoke: fill an empty slot (takes a new reference on obj). */
void cap_install(struct cap *dst, struct kobj *obj, uint32_t rights, uint64_t badge);
void cap_clear(struct cap *c);
/* Invoke for the calls that make an object: obj (NULL: out of memory or budget) into the empty
 * slot dst with every right. Returns 0 or -TACET_ENOMEM. */
long cap_install_new(struct cap *dst, struct kobj *obj);

struct thread;
void sys_cap_copy(struct thread *t);
void sys_cap_delete(struct thread *t);
void sys_cap_info(struct thread *t);

#endif
