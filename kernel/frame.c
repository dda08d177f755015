/* frame.c: frame objects. RAM frames own their pages, charged (like the object) to the
 * account that asked for them; BKL held. A derived frame holds a reference to the root frame
 * whose pages it names, whatever it was derived from: derivation is always one level deep. */
#include "frame.h"
#include "account.h"
#include "kalloc.h"
#include "mm.h"
#include "page_alloc.h"

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

	/* one page at a time from the pool: contiguity holds only for a single page today */
	if (pages != 1)
		return NULL;
	pa = account_page_alloc(acct);
	if (!pa)
		return NULL;
	f = frame_wrap(acct, pa, 1, 0);
	if (!f)
		account_page_free(acct, pa);
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
	else if (!f->device && f->pages == 1)
		account_page_free(f->obj.acct, f->pa);
	kobj_free(&f->obj, sizeof(*f));
}
