/* account.c: kernel memory accounts (see account.h): owns struct account and the charged
 * allocations every object and page of a process goes through; BKL held. */
#include "object/account.h"
#include "mm/kalloc.h"
#include "mm/mm.h"
#include "mm/page_alloc.h"
#include "core/panic.h"

struct account *account_new(struct account *parent, uint64_t limit)
{
	struct account *a;

	if (parent && account_charge(parent, limit) < 0)
		return NULL;
	a = kalloc(sizeof(*a));
	if (!a) {
		if (parent)
			account_refund(parent, limit);
		return NULL;
	}
	a->limit = limit;
	a->refs = 1;
	a->parent = parent;
	if (parent)
		account_get(parent);
	return a;
}

void account_put(struct account *a)
{
	/* a loop, not recursion: a chain of nested accounts may be long */
	while (a) {
		struct account *parent = a->parent;

		KASSERT(a->refs > 0, "account_put: an account without references");
		if (--a->refs)
			return;
		KASSERT(a->used == 0, "account_put: an account ends with %lu bytes still charged",
			(unsigned long)a->used);
		if (parent)
			account_refund(parent, a->limit);
		kfree(a, sizeof(*a));
		a = parent;
	}
}

int account_charge(struct account *a, uint64_t bytes)
{
	if (bytes > a->limit - a->used)
		return -1;
	a->used += bytes;
	return 0;
}

void account_refund(struct account *a, uint64_t bytes)
{
	KASSERT(bytes <= a->used, "account_refund: %lu bytes back, only %lu charged",
		(unsigned long)bytes, (unsigned long)a->used);
	a->used -= bytes;
}

void *account_kalloc(struct account *a, size_t size)
{
	void *obj;

	if (a && account_charge(a, kalloc_size(size)) < 0)
		return NULL;
	obj = kalloc(size);
	if (!obj && a)
		account_refund(a, kalloc_size(size));
	return obj;
}

void account_kfree(struct account *a, void *obj, size_t size)
{
	kfree(obj, size);
	if (a)
		account_refund(a, kalloc_size(size));
}

uint64_t account_page_alloc(struct account *a)
{
	uint64_t pa;

	if (a && account_charge(a, PAGE_SIZE) < 0)
		return 0;
	pa = page_alloc_zeroed();
	if (!pa && a)
		account_refund(a, PAGE_SIZE);
	return pa;
}

void account_page_free(struct account *a, uint64_t pa)
{
	page_free(pa);
	if (a)
		account_refund(a, PAGE_SIZE);
}

uint64_t account_pages_alloc(struct account *a, size_t pages, bool dma)
{
	uint64_t pa;

	if (a && account_charge(a, (uint64_t)pages * PAGE_SIZE) < 0)
		return 0;
	pa = page_alloc_frame(pages, dma);
	if (!pa && a)
		account_refund(a, (uint64_t)pages * PAGE_SIZE);
	return pa;
}

void account_pages_free(struct account *a, uint64_t pa, size_t pages)
{
	page_free_run(pa, pages);
	if (a)
		account_refund(a, (uint64_t)pages * PAGE_SIZE);
}
