/* kalloc.c: owns the size-class caches of kernel objects; kalloc_lock guards every slab, list
 * and counter here (taken inside the BKL or alone; the page pool's lock nests inside it).
 *
 * Each cache is a set of slabs: one page each, a struct slab header at its start and equal
 * objects after it. A new slab's objects are carved one at a time as they are first handed
 * out (`fresh`, the first never used), so taking a page costs the same whatever its class:
 * nothing is zeroed or linked ahead. A slab with a free object (freed or never used) is on its
 * class's partial list; a full one is on
 * no list; a slab whose last object is freed goes back to the page allocator at once, so memory
 * a dead process's objects held is free again for everybody (nothing is kept "for later").
 * kfree() finds an object's slab by rounding its address down to the page. */
#include "mm/kalloc.h"
#include "arch.h"
#include "lib/kstring.h"
#include "mm/mm.h"
#include "mm/page_alloc.h"
#include "core/panic.h"
#include "core/spinlock.h"

struct free_obj {
	struct free_obj *next;
};

struct slab {
	struct slab *next, *prev; /* on its class's partial list (only while it has a free object) */
	struct free_obj *free;    /* its objects freed since they were handed out */
	uint16_t inuse;           /* objects handed out */
	uint16_t cls;             /* its size class */
	uint32_t fresh;           /* offset of its first object never handed out; PAGE_SIZE-ish
				   * (no whole object left after it) once all were */
};

/* Sizes chosen so that whole objects fill a page after the header with little left over
 * (multiples of 16; 127, 63, 31, 15, 8, 4 and 2 per page). */
static const uint32_t class_size[] = { 32, 64, 128, 256, 496, 1008, 2032 };
#define KALLOC_CLASSES (sizeof(class_size) / sizeof(class_size[0]))

_Static_assert(sizeof(struct slab) <= 32, "the slab header fits before the first object");
_Static_assert(KALLOC_MAX == 2032, "KALLOC_MAX is the largest class");

static struct slab *partial[KALLOC_CLASSES];
static size_t live;
static size_t cache_pages;
static struct spinlock kalloc_lock = SPINLOCK_INIT("kalloc");

static unsigned int size_class(size_t size)
{
	unsigned int c = 0;

	while (class_size[c] < size)
		c++;
	return c;
}

size_t kalloc_size(size_t size)
{
	return class_size[size_class(size)];
}

static void partial_add_locked(struct slab *s)
{
	s->prev = NULL;
	s->next = partial[s->cls];
	if (s->next)
		s->next->prev = s;
	partial[s->cls] = s;
}

static void partial_remove_locked(struct slab *s)
{
	if (s->prev)
		s->prev->next = s->next;
	else
		partial[s->cls] = s->next;
	if (s->next)
		s->next->prev = s->prev;
}

/* A new slab of class c, on the partial list; NULL when no page is left. Its page is not
 * zeroed: kalloc zeroes each object it hands out. */
static struct slab *grow_locked(unsigned int c)
{
	uint64_t pa = page_alloc_run(1);
	struct slab *s;

	if (!pa)
		return NULL;
	s = (struct slab *)arch_phys_to_virt(pa);
	*s = (struct slab){ .cls = (uint16_t)c, .fresh = sizeof(struct slab) };
	cache_pages++;
	partial_add_locked(s);
	return s;
}

static bool fresh_left(const struct slab *s)
{
	return s->fresh + class_size[s->cls] <= PAGE_SIZE;
}

/* An object of s, which has one free: a freed one, else the next never used. */
static void *take_locked(struct slab *s)
{
	struct free_obj *f = s->free;

	if (f) {
		s->free = f->next;
	} else {
		f = (struct free_obj *)((char *)s + s->fresh);
		s->fresh += class_size[s->cls];
	}
	s->inuse++;
	if (!s->free && !fresh_left(s))
		partial_remove_locked(s); /* full */
	return f;
}

void *kalloc(size_t size)
{
	unsigned int c;
	struct slab *s;
	struct free_obj *f;

	KASSERT(size > 0 && size <= KALLOC_MAX, "kalloc: size %lu out of range", (unsigned long)size);
	c = size_class(size);
	spin_lock(&kalloc_lock);
	s = partial[c] ? partial[c] : grow_locked(c);
	if (!s) {
		spin_unlock(&kalloc_lock);
		return NULL;
	}
	f = take_locked(s);
	live++;
	spin_unlock(&kalloc_lock);
	memset(f, 0, class_size[c]);
	return f;
}

void kfree(void *obj, size_t size)
{
	struct slab *s = (struct slab *)((uintptr_t)obj & ~(uintptr_t)(PAGE_SIZE - 1));
	struct free_obj *f = obj;
	int was_full;

	if (!obj)
		return;
	spin_lock(&kalloc_lock);
	KASSERT(s->cls == size_class(size) && s->inuse > 0,
		"kfree: %p (size %lu) is not a live object of that size", obj, (unsigned long)size);
	was_full = !s->free && !fresh_left(s);
	f->next = s->free;
	s->free = f;
	s->inuse--;
	live--;
	if (!s->inuse) {
		if (!was_full)
			partial_remove_locked(s);
		cache_pages--;
		page_free((uintptr_t)s - arch_phys_to_virt(0)); /* the direct map is linear */
	} else if (was_full) {
		partial_add_locked(s);
	}
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
