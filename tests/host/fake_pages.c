/* fake_pages.c: host fakes of page_alloc_zeroed, page_free, page_alloc_run_zeroed,
 * page_free_run, arch_phys_to_virt and panic (see
 * fake_pages.h), for every host test of code that takes pages: fake_kernel.c's users and the
 * real object caches (test_kalloc.c). Single-threaded, like the tests. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_pages.h"
#include "arch.h"
#include "mm/mm.h"
#include "mm/page_alloc.h"
#include "core/panic.h"

static size_t pages_in_use;
static size_t page_limit = SIZE_MAX;

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

/* A run is one host allocation, so it must go back whole, with page_free_run. */
uint64_t page_alloc_run_zeroed(size_t pages)
{
	void *p;

	if (pages == 0 || pages > page_limit || pages_in_use > page_limit - pages)
		return 0;
	p = aligned_alloc(PAGE_SIZE, pages * PAGE_SIZE);
	if (!p)
		return 0;
	memset(p, 0, pages * PAGE_SIZE);
	pages_in_use += pages;
	return (uintptr_t)p;
}

void page_free_run(uint64_t pa, size_t pages)
{
	if (pa & (PAGE_SIZE - 1))
		fail_msg("page_free_run(%#llx): not page aligned", (unsigned long long)pa);
	if (pages_in_use < pages)
		fail_msg("page_free_run(%#llx, %zu): only %zu pages in use", (unsigned long long)pa,
			 pages, pages_in_use);
	pages_in_use -= pages;
	free((void *)(uintptr_t)pa);
}

uintptr_t arch_phys_to_virt(uint64_t pa)
{
	return (uintptr_t)pa;
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
