/* frame.c: frame objects. RAM frames own their pages; BKL held. */
#include "frame.h"
#include "kalloc.h"
#include "mm.h"
#include "page_alloc.h"

struct frame *frame_wrap(uint64_t pa, uint64_t pages, int device)
{
	struct frame *f = kalloc(sizeof(*f));

	if (!f)
		return NULL;
	f->obj.type = TACET_CAP_FRAME;
	f->pa = pa;
	f->pages = pages;
	f->device = device;
	return f;
}

struct frame *frame_alloc(uint64_t pages)
{
	struct frame *f;
	uint64_t pa;

	/* one page at a time from the pool: contiguity holds only for a single page today */
	if (pages != 1)
		return NULL;
	pa = page_alloc_zeroed();
	if (!pa)
		return NULL;
	f = frame_wrap(pa, 1, 0);
	if (!f)
		page_free(pa);
	return f;
}

struct frame *frame_derive(struct frame *f, uint64_t first, uint64_t pages)
{
	struct frame *d = frame_wrap(f->pa + first * PAGE_SIZE, pages, f->device);

	if (d) {
		kobj_get(&f->obj);
		d->parent = f;
	}
	return d;
}

void frame_destroy(struct frame *f)
{
	if (f->parent)
		kobj_put(&f->parent->obj); /* the pages are the parent's */
	else if (!f->device && f->pages == 1)
		page_free(f->pa);
	kfree(f, sizeof(*f));
}
