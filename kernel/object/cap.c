/* cap.c: capability tables. A slot holds one reference on its object; copying takes another,
 * deleting drops it. Guarded by the BKL like every kernel object. */
#include "object/cap.h"
#include "lib/kstring.h"
#include "mm/mm.h"
#include "arch.h"
#include "mm/page_alloc.h"

_Static_assert(sizeof(struct cspace) <= PAGE_SIZE, "a cspace fits one page");

struct cspace *cspace_new(void)
{
	uint64_t pa = page_alloc_zeroed();

	return pa ? (struct cspace *)arch_phys_to_virt(pa) : NULL;
}

void cspace_free(struct cspace *cs)
{
	for (int i = 0; i < CSPACE_SLOTS; i++)
		cap_clear(&cs->slots[i]);
	page_free((uintptr_t)cs - arch_phys_to_virt(0));
}

struct cap *cap_lookup(struct cspace *cs, unsigned long slot, uint32_t type, uint32_t rights,
		       long *err)
{
	struct cap *c;

	if (slot == 0 || slot >= CSPACE_SLOTS) {
		*err = TACET_EBADSLOT;
		return NULL;
	}
	c = &cs->slots[slot];
	if (!c->obj)
		*err = TACET_EEMPTY;
	else if (type != TACET_CAP_NULL && c->obj->type != type)
		*err = TACET_ETYPE;
	else if (!cap_has_rights(c, rights))
		*err = TACET_EPERM;
	else
		return c;
	return NULL;
}

struct cap *cap_empty_slot(struct cspace *cs, unsigned long slot, long *err)
{
	if (slot == 0 || slot >= CSPACE_SLOTS) {
		*err = TACET_EBADSLOT;
		return NULL;
	}
	if (cs->slots[slot].obj) {
		*err = TACET_EEXIST;
		return NULL;
	}
	return &cs->slots[slot];
}

void cap_install(struct cap *dst, struct kobj *obj, uint32_t rights, uint64_t badge)
{
	kobj_get(obj);
	kobj_cap_added(obj);
	dst->obj = obj;
	dst->rights = (uint8_t)rights;
	dst->badge = badge;
}

void cap_clear(struct cap *c)
{
	struct kobj *o = c->obj;

	if (!o)
		return;
	memset(c, 0, sizeof(*c));
	kobj_cap_removed(o);
	kobj_put(o);
}
