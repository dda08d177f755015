/* fake_kernel.c: host fakes of page_alloc_zeroed, page_free, arch_phys_to_virt, kobj_put, kalloc,
 * kfree and panic for unit tests of generic kernel code (see fake_kernel.h). Single-threaded,
 * like the tests. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_kernel.h"
#include "arch.h"
#include "kalloc.h"
#include "kobj.h"
#include "mm.h"
#include "page_alloc.h"
#include "panic.h"

/* A kalloc() object: the list link and its size in front of the memory handed out. */
struct fake_object {
	struct fake_object *next;
	size_t size;
	max_align_t mem[];
};

static size_t pages_in_use;
static size_t page_limit = SIZE_MAX;
static size_t put_calls;
static size_t ndestroyed;
static struct kobj *destroyed[FAKE_DESTROYED_MAX];
static struct fake_object *objects;
static size_t nobjects;

uint64_t page_alloc_zeroed(void)
{
	void *p;

	if (pages_in_use >= page_limit)
		return 0;
	p = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	if (!p)
		return 0;
	memset(p, 0, PAGE_SIZE);
	pages_in_use++;
	return (uintptr_t)p;
}

void page_free(uint64_t pa)
{
	if (pa & (PAGE_SIZE - 1))
		fail_msg("page_free(%#llx): not page aligned", (unsigned long long)pa);
	if (!pages_in_use)
		fail_msg("page_free(%#llx): no page is in use", (unsigned long long)pa);
	pages_in_use--;
	free((void *)(uintptr_t)pa);
}

uintptr_t arch_phys_to_virt(uint64_t pa)
{
	return (uintptr_t)pa;
}

void kobj_put(struct kobj *o)
{
	put_calls++;
	if (!o->refs)
		fail_msg("kobj_put: object %p of type %u has no references", (void *)o, o->type);
	if (--o->refs)
		return;
	if (ndestroyed == FAKE_DESTROYED_MAX)
		fail_msg("kobj_put: more than %d objects destroyed", FAKE_DESTROYED_MAX);
	destroyed[ndestroyed++] = o;
}

void *kalloc(size_t size)
{
	struct fake_object *o = calloc(1, sizeof(*o) + size);

	if (!o)
		return NULL;
	o->size = size;
	o->next = objects;
	objects = o;
	nobjects++;
	return o->mem;
}

void kfree(void *obj, size_t size)
{
	for (struct fake_object **link = &objects; *link; link = &(*link)->next) {
		struct fake_object *o = *link;

		if ((void *)o->mem != obj)
			continue;
		if (o->size != size)
			fail_msg("kfree(%p, %zu): allocated with size %zu", obj, size, o->size);
		*link = o->next;
		nobjects--;
		free(o);
		return;
	}
	fail_msg("kfree(%p, %zu): not a live kalloc() object", obj, size);
}

size_t kalloc_live(void)
{
	return nobjects;
}

void panic(const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fail_msg("panic: %s", msg);
	abort(); /* fail_msg() leaves the test; this only tells the compiler */
}

size_t fake_pages_in_use(void)
{
	return pages_in_use;
}

void fake_pages_set_limit(size_t limit)
{
	page_limit = limit;
}

size_t fake_kobj_put_calls(void)
{
	return put_calls;
}

size_t fake_destroyed_count(void)
{
	return ndestroyed;
}

struct kobj *fake_destroyed(size_t i)
{
	assert_true(i < ndestroyed);
	return destroyed[i];
}

size_t fake_destroyed_times(const struct kobj *o)
{
	size_t n = 0;

	for (size_t i = 0; i < ndestroyed; i++)
		n += destroyed[i] == o;
	return n;
}

void fake_kernel_reset(void)
{
	page_limit = SIZE_MAX;
	put_calls = 0;
	ndestroyed = 0;
}

/* The capability-count hooks of kobj.c: only processes act on them, and the cap tests use none. */
void kobj_cap_added(struct kobj *o)
{
	(void)o;
}

void kobj_cap_removed(struct kobj *o)
{
	(void)o;
}
