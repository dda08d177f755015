/* fake_kernel.c: host fakes of kobj_put, kalloc and kfree for unit tests of generic kernel code
 * (see fake_kernel.h); pages and panic come from fake_pages.c. Single-threaded, like the
 * tests. */
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
#include "mm/kalloc.h"
#include "object/kobj.h"
#include "mm/mm.h"
#include "mm/page_alloc.h"
#include "core/panic.h"

/* A kalloc() object: the list link and its size in front of the memory handed out. */
struct fake_object {
	struct fake_object *next;
	size_t size;
	max_align_t mem[];
};

static size_t put_calls;
static size_t ndestroyed;
static struct kobj *destroyed[FAKE_DESTROYED_MAX];
static struct fake_object *objects;
static size_t nobjects;

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

size_t kalloc_size(size_t size)
{
	return size;
}

size_t kalloc_live(void)
{
	return nobjects;
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
	fake_pages_set_limit(SIZE_MAX);
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
