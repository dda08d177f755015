/* frame.c: frame objects. RAM frames own their pages (one physically contiguous run, from
 * page_alloc_run_zeroed), charged (like the object) to the account that asked for them; BKL
 * held. A derived frame holds a reference to the root frame whose pages it names, whatever it
 * was derived from: derivation is always one level deep. Also FRAME_NEW and FRAME_DERIVE. */
#include "object/frame.h"
#include "core/syscall.h"
#include "object/account.h"
#include "object/cap.h"
#include "object/process.h"
#include "mm/kalloc.h"
#include "mm/mm.h"
#include "mm/page_alloc.h"

_Static_assert(FRAME_MAX_PAGES <= PAGE_POOL_RUN_MAX, "a frame is one run of the page pool");

struct frame *frame_wrap(struct account *acct, uint64_t pa, uint64_t pages, int device)
{
	struct frame *f = kobj_new(acct, sizeof(struct frame), TACET_CAP_FRAME);

	if (!f)
		return NULL;
	f->pa = pa;
	f->pages = pages;
	f->device = device;
	return f;
}

struct frame *frame_alloc(struct account *acct, uint64_t pages)
{
	struct frame *f;
	uint64_t pa;

	if (pages == 0 || pages > FRAME_MAX_PAGES)
		return NULL;
	pa = account_pages_alloc(acct, pages);
	if (!pa)
		return NULL;
	f = frame_wrap(acct, pa, pages, 0);
	if (!f)
		account_pages_free(acct, pa, pages);
	return f;
}

struct frame *frame_derive(struct account *acct, struct frame *f, uint64_t first, uint64_t pages)
{
	struct frame *root = f->parent ? f->parent : f;
	struct frame *d = frame_wrap(acct, f->pa + first * PAGE_SIZE, pages, f->device);

	if (d) {
		kobj_get(&root->obj);
		d->parent = root;
	}
	return d;
}

void frame_destroy(struct frame *f)
{
	if (f->parent)
		kobj_put(&f->parent->obj); /* the pages are the parent's */
	else if (!f->device)
		account_pages_free(f->obj.acct, f->pa, f->pages);
	kobj_free(&f->obj, sizeof(*f));
}

/* --- system calls (syscall.h: decode, then invoke) --- */

/* (slot, pages): a new RAM frame of pages contiguous zeroed pages, charged to the caller. */
void sys_frame_new(struct thread *t)
{
	long err;
	struct cap *dst = cap_empty_slot(t->proc->cspace, syscall_arg(t, 0), &err);
	unsigned long pages = syscall_arg(t, 1);

	if (!dst) {
		syscall_ret(t, -err);
		return;
	}
	if (pages == 0 || pages > FRAME_MAX_PAGES) {
		syscall_ret(t, -TACET_ERANGE);
		return;
	}
	syscall_ret(t, cap_install_new(dst, (struct kobj *)frame_alloc(t->proc->acct, pages)));
}

/* FRAME_DERIVE's decode: a frame, an empty slot, and pages [first, first + pages) within it. */
static long decode_derive(struct thread *t, struct cap **src, struct cap **dst)
{
	struct cspace *cs = t->proc->cspace;
	uint64_t first = syscall_arg(t, 2), pages = syscall_arg(t, 3);
	const struct frame *f;
	long err;

	*src = cap_lookup(cs, syscall_arg(t, 0), TACET_CAP_FRAME, 0, &err);
	if (!*src)
		return err;
	*dst = cap_empty_slot(cs, syscall_arg(t, 1), &err);
	if (!*dst)
		return err;
	f = (const struct frame *)(*src)->obj;
	if (!pages || first >= f->pages || pages > f->pages - first)
		return TACET_ERANGE;
	return 0;
}

/* (src, dst, first, pages): a frame naming part of src's pages. */
void sys_frame_derive(struct thread *t)
{
	struct cap *src = NULL, *dst = NULL;
	long err = decode_derive(t, &src, &dst);
	struct frame *f;

	if (err) {
		syscall_ret(t, -err);
		return;
	}
	f = frame_derive(t->proc->acct, (struct frame *)src->obj, syscall_arg(t, 2),
			 syscall_arg(t, 3));
	if (!f) {
		syscall_ret(t, -TACET_ENOMEM);
		return;
	}
	cap_install(dst, &f->obj, src->rights, 0); /* no more rights than the whole had */
	syscall_ret(t, 0);
}
