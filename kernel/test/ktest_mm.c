/* ktest_mm.c: test=mm, the page allocator on the real machine: every free page handed out
 * once (zeroed, inside RAM, outside reserved memory and the kernel image), then all of them
 * back, then a few reused pages zeroed again. Boot hart, once every hart is online; nothing
 * else allocates meanwhile (no init runs under test=). The pages are chained through their
 * first word, so the test needs no memory of its own. */
#ifndef CONFIG_KTEST
#error "kernel/test is built into the test kernel only (make test-kernel: -DCONFIG_KTEST)"
#endif
#include "arch.h"
#include "core/console.h"
#include "test/ktest.h"
#include "mm/mm.h"
#include "mm/page_alloc.h"
#include "core/platform.h"

#define WORDS        (PAGE_SIZE / sizeof(uint64_t))
#define REUSE_PAGES  64
#define PAGE_NEXT    0           /* the chain: the page handed out before this one */
#define PAGE_SELF    (WORDS - 1) /* the page's own address: nothing else wrote to it */

static uint64_t *words_of(uint64_t pa)
{
	return (uint64_t *)arch_phys_to_virt(pa);
}

static int page_is_zero(uint64_t pa)
{
	const uint64_t *w = words_of(pa);

	for (size_t i = 0; i < WORDS; i++)
		if (w[i])
			return 0;
	return 1;
}

static int overlaps(const struct phys_range *r, int n, uint64_t pa)
{
	for (int i = 0; i < n; i++)
		if (pa < r[i].end && r[i].start < pa + PAGE_SIZE)
			return 1;
	return 0;
}

/* Wholly inside one RAM range, and no byte of it reserved or the kernel's. */
static int page_is_free_ram(uint64_t pa)
{
	struct phys_range image = { arch_kernel_phys_start(), arch_kernel_phys_end() };
	int in_ram = 0;

	for (int i = 0; i < platform.nram; i++)
		in_ram |= platform.ram[i].start <= pa && pa + PAGE_SIZE <= platform.ram[i].end;
	return in_ram && !overlaps(platform.resv, platform.nresv, pa) && !overlaps(&image, 1, pa);
}

/* Takes pages until none is left or `max` are taken, checking each; returns the chain's head
 * (0 if none) and the count in *n. */
static uint64_t take_pages(size_t max, size_t *n)
{
	uint64_t head = 0, pa;

	for (*n = 0; *n < max && (pa = page_alloc_zeroed()) != 0; (*n)++) {
		if (!page_is_zero(pa))
			ktest_fail("page %#lx was handed out not zeroed", (unsigned long)pa);
		if (!page_is_free_ram(pa))
			ktest_fail("page %#lx is not free RAM", (unsigned long)pa);
		words_of(pa)[PAGE_NEXT] = head;
		words_of(pa)[PAGE_SELF] = pa;
		head = pa;
	}
	return head;
}

/* Gives back a chain of n pages (page_free panics on a page handed out twice). */
static void give_back(uint64_t head, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t next = words_of(head)[PAGE_NEXT];

		if (words_of(head)[PAGE_SELF] != head)
			ktest_fail("page %#lx was written while it was the test's", (unsigned long)head);
		page_free(head);
		head = next;
	}
	if (head)
		ktest_fail("the chain of pages is longer than the pages taken");
}

void ktest_mm(void)
{
	size_t free_at_start = mm_free_pages(), n, reused;
	uint64_t head = take_pages(SIZE_MAX, &n);

	if (n != free_at_start)
		ktest_fail("%lu pages handed out, %lu were free", (unsigned long)n,
			   (unsigned long)free_at_start);
	if (mm_free_pages() != 0 || page_alloc_zeroed() != 0)
		ktest_fail("pages left after the last one (%lu)", (unsigned long)mm_free_pages());
	give_back(head, n);
	if (mm_free_pages() != free_at_start)
		ktest_fail("%lu pages free after giving all back, %lu before",
			   (unsigned long)mm_free_pages(), (unsigned long)free_at_start);
	/* Given back, they were written: handed out again, they must be zeroed again. */
	head = take_pages(REUSE_PAGES, &reused);
	give_back(head, reused);
	kprintf("ktest: mm: %lu of %lu pages handed out, each zeroed and free RAM; %lu reused "
		"zeroed; %lu free again\n", (unsigned long)n, (unsigned long)mm_total_pages(),
		(unsigned long)reused, (unsigned long)mm_free_pages());
	ktest_pass();
}
