/* cap.c: capability tables, and the calls on capabilities themselves (copy, delete, info). A
 * slot holds one reference on its object; copying takes another, deleting drops it. Guarded
 * by the BKL like every kernel object. */
#include "object/cap.h"
#include "core/syscall.h"
#include "irq/irq.h"
#include "lib/kstring.h"
#include "object/account.h"
#include "object/frame.h"
#include "object/process.h"
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
	uint64_t next = 0;

	while (!cspace_free_step(cs, &next))
		;
}

bool cspace_free_step(struct cspace *cs, uint64_t *next)
{
	uint64_t end = *next + CSPACE_FREE_STEP;

	for (; *next < end && *next < CSPACE_SLOTS; (*next)++)
		cap_clear(&cs->slots[*next]);
	if (*next < CSPACE_SLOTS)
		return false;
	page_free((uintptr_t)cs - arch_phys_to_virt(0));
	return true;
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

/* --- system calls (syscall.h: decode, then invoke) --- */

long cap_install_new(struct cap *dst, struct kobj *obj)
{
	if (!obj)
		return -TACET_ENOMEM;
	cap_install(dst, obj, TACET_RIGHTS_ALL, 0);
	return 0;
}

/* CAP_COPY's decode: the source, an empty destination, and a badge it may carry. */
static long decode_copy(struct thread *t, struct cap **src, struct cap **dst)
{
	struct cspace *cs = t->proc->cspace;
	long err;

	*src = cap_lookup(cs, syscall_arg(t, 0), TACET_CAP_NULL, 0, &err);
	if (!*src)
		return err;
	*dst = cap_empty_slot(cs, syscall_arg(t, 1), &err);
	if (!*dst)
		return err;
	/* a notification's badge is what it signals: the reserved bit is refused there too */
	if ((*src)->obj->type == TACET_CAP_NOTIFICATION && !(*src)->badge &&
	    syscall_arg(t, 3) & TACET_NTFN_BIT_RESERVED)
		return TACET_EINVAL;
	return 0;
}

/* (src, dst, rights, badge) */
void sys_cap_copy(struct thread *t)
{
	struct cap *src = NULL, *dst = NULL;
	long err = decode_copy(t, &src, &dst);

	if (err) {
		syscall_ret(t, -err);
		return;
	}
	/* a badge can be set once, on an unbadged capability; rights only shrink */
	cap_install(dst, src->obj, src->rights & syscall_arg(t, 2),
		    src->badge ? src->badge : syscall_arg(t, 3));
	syscall_ret(t, 0);
}

/* (slot) */
void sys_cap_delete(struct thread *t)
{
	long err;
	struct cap *c = cap_lookup(t->proc->cspace, syscall_arg(t, 0), TACET_CAP_NULL, 0, &err);

	if (!c) {
		syscall_ret(t, -err);
		return;
	}
	cap_clear(c);
	syscall_ret(t, 0);
}

/* (slot) -> type; a1 = rights, a2 = badge, a3..a5 by type: a frame's physical address (a
 * device frame's only: a RAM frame's is given with a pin, FRAME_PIN, frame.c's DMA
 * quarantine), size and kind (a5: TACET_FRAME_DEVICE when it is no RAM of FRAME_NEW's but
 * device MMIO or boot memory, which a driver must never give a device as a DMA buffer;
 * TACET_FRAME_DMA for RAM made for DMA); a process's kernel memory, what its account holds and
 * may hold, in bytes; a line's number. a5 is 0 but for a frame. */
void sys_cap_info(struct thread *t)
{
	long err;
	struct cap *c = cap_lookup(t->proc->cspace, syscall_arg(t, 0), TACET_CAP_NULL, 0, &err);
	const struct frame *f;
	const struct process *p;
	const struct irq_desc *d;

	if (!c) {
		syscall_ret(t, -err);
		return;
	}
	f = c->obj->type == TACET_CAP_FRAME ? (const struct frame *)c->obj : NULL;
	p = c->obj->type == TACET_CAP_PROCESS ? (const struct process *)c->obj : NULL;
	d = c->obj->type == TACET_CAP_IRQ ? (const struct irq_desc *)c->obj : NULL;
	arch_ctx_set_ret(&t->ctx, 1, c->rights);
	arch_ctx_set_ret(&t->ctx, 2, c->badge);
	arch_ctx_set_ret(&t->ctx, 3, f ? (f->device ? f->pa : 0) : p ? p->acct->used : d ? d->irq : 0);
	arch_ctx_set_ret(&t->ctx, 4, f ? f->pages : p ? p->acct->limit : 0);
	arch_ctx_set_ret(&t->ctx, 5, !f ? 0 : f->device ? TACET_FRAME_DEVICE :
				     frame_made_for_dma(f) ? TACET_FRAME_DMA : 0);
	syscall_ret(t, c->obj->type);
}
