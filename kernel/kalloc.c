/* kalloc.c: owns the size-class caches; kalloc_lock guards the free lists and counters.
 * A cache grows a page at a time and never shrinks (kernel objects are few and reused). */
#include "kalloc.h"
#include "arch.h"
#include "kstring.h"
#include "mm.h"
#include "page_alloc.h"
#include "panic.h"
#include "spinlock.h"

#define KALLOC_MIN_SHIFT 5 /* 32-byte objects */
#define KALLOC_CLASSES   7 /* 32 .. 2048 */

struct free_obj {
	struct free_obj *next;
};

static struct free_obj *free_lists[KALLOC_CLASSES];
static size_t live;
static size_t cache_pages;
static struct spinlock kalloc_lock = SPINLOCK_INIT("kalloc");

static int size_class(size_t size)
{
	int c = 0;

	while (((size_t)1 << (c + KALLOC_MIN_SHIFT)) < size)
		c++;
	return c;
}

static int grow_locked(int c)
{
	uint64_t pa = page_alloc_zeroed();
	size_t obj = (size_t)1 << (c + KALLOC_MIN_SHIFT);
	char *page;

	if (!pa)
		return -1;
	page = (char *)arch_phys_to_virt(pa);
	cache_pages++;
	for (size_t off = 0; off + obj <= PAGE_SIZE; off += obj) {
		struct free_obj *f = (struct free_obj *)(page + off);

		f->next = free_lists[c];
		free_lists[c] = f;
	}
	return 0;
}

void *kalloc(size_t size)
{
	int c;
	struct free_obj *f;

	KASSERT(size > 0 && size <= KALLOC_MAX, "kalloc: size %lu out of range", (unsigned long)size);
	c = size_class(size);
	spin_lock(&kalloc_lock);
	if (!free_lists[c] && grow_locked(c) < 0) {
		spin_unlock(&kalloc_lock);
		return NULL;
	}
	f = free_lists[c];
	free_lists[c] = f->next;
	live++;
	spin_unlock(&kalloc_lock);
	memset(f, 0, (size_t)1 << (c + KALLOC_MIN_SHIFT));
	return f;
}

void kfree(void *obj, size_t size)
{
	int c = size_class(size);
	struct free_obj *f = obj;

	if (!obj)
		return;
	spin_lock(&kalloc_lock);
	f->next = free_lists[c];
	free_lists[c] = f;
	live--;
	spin_unlock(&kalloc_lock);
}

size_t kalloc_live(void)
{
	return __atomic_load_n(&live, __ATOMIC_RELAXED);
}

size_t kalloc_pages(void)
{
	return __atomic_load_n(&cache_pages, __ATOMIC_RELAXED);
}
