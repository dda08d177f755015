/* frame.c: frame objects. RAM frames own their pages (one physically contiguous run, from
 * page_alloc_run_zeroed), charged (like the object) to the account that asked for them; BKL
 * held. A derived frame holds a reference to the root frame whose pages it names, whatever it
 * was derived from: derivation is always one level deep. */
#include "object/frame.h"
#include "object/account.h"
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
