/* fake_pages.c: host fakes of page_alloc_zeroed, page_free, page_alloc_run, page_alloc_frame,
 * page_free_run, page_zero, arch_phys_to_virt and panic (see fake_pages.h), for every host
 * test of code that takes pages: fake_kernel.c's users and the real object caches
 * (test_kalloc.c). Single-threaded, like the tests. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sanitizer/asan_interface.h>

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

/* The last run given back, kept (poisoned: a use after its free is still an ASan report) for
 * the next run of its size: a test that makes thousands of 1 MiB frames would spend its time
 * mapping and faulting in fresh host memory otherwise. */
static void *kept_run;
static size_t kept_pages;

/* libasan's (LLVM's sanitizer/allocator_interface.h; gcc ships no header for it): the size of
 * the live allocation starting at p, an ASan report if there is none. */
size_t __sanitizer_get_allocated_size(const volatile void *p);

/* A run is one host allocation, so it must go back whole, with page_free_run. Not zeroed, as
 * the kernel's: it holds FAKE_PAGES_DIRTY bytes, a previous owner's. */
uint64_t page_alloc_run(size_t pages)
{
	void *p;

	if (pages == 0 || pages > page_limit || pages_in_use > page_limit - pages)
		return 0;
	if (kept_run && kept_pages == pages) {
		p = kept_run;
		kept_run = NULL;
		ASAN_UNPOISON_MEMORY_REGION(p, pages * PAGE_SIZE);
	} else {
		p = aligned_alloc(PAGE_SIZE, pages * PAGE_SIZE);
	}
	if (!p)
		return 0;
	memset(p, FAKE_PAGES_DIRTY, pages * PAGE_SIZE);
	pages_in_use += pages;
	return (uintptr_t)p;
}

/* The kernel's takes a frame from its side of memory; here, as any run. */
uint64_t page_alloc_frame(size_t pages, bool dma)
{
	(void)dma;
	return page_alloc_run(pages);
}

void page_zero(uint64_t pa)
{
	if (pa & (PAGE_SIZE - 1))
		fail_msg("page_zero(%#llx): not page aligned", (unsigned long long)pa);
	memset((void *)(uintptr_t)pa, 0, PAGE_SIZE);
}

void page_free_run(uint64_t pa, size_t pages)
{
	if (pa & (PAGE_SIZE - 1))
		fail_msg("page_free_run(%#llx): not page aligned", (unsigned long long)pa);
	if (pages_in_use < pages)
		fail_msg("page_free_run(%#llx, %zu): only %zu pages in use", (unsigned long long)pa,
			 pages, pages_in_use);
	pages_in_use -= pages;
	/* the run handed out whole (ASan checks pa is where an allocation starts) */
	if (__sanitizer_get_allocated_size((void *)(uintptr_t)pa) != pages * PAGE_SIZE)
		fail_msg("page_free_run(%#llx, %zu): not a run of that size", (unsigned long long)pa,
			 pages);
	if (kept_run)
		free(kept_run);
	kept_run = (void *)(uintptr_t)pa;
	kept_pages = pages;
	ASAN_POISON_MEMORY_REGION(kept_run, pages * PAGE_SIZE);
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
