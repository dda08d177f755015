/* page_alloc.h: the physical page allocator's core: free-memory arithmetic over physical ranges
 * and struct page_pool, the free 4 KiB pages of a few ranges (never-used pages kept as a mark per
 * range, pages given back on a free list). Not locked: the caller serialises each pool
 * (kernel/mm/mm.c wraps the kernel's one pool in a spinlock). */
#ifndef KERNEL_PAGE_ALLOC_H
#define KERNEL_PAGE_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#define PAGE_SHIFT 12
#define PAGE_SIZE  (1UL << PAGE_SHIFT)

/* [start, end), physical addresses; start == end is empty. */
struct phys_range {
	uint64_t start, end;
};

/*
 * Free memory = `mem` minus `resv`: writes the result to out[] sorted by address, with
 * overlapping/adjacent results merged, each range shrunk inward to page boundaries and empty
 * ones dropped. Inputs may be unsorted, overlapping, empty (start == end) and reserved ranges may
 * lie partly or wholly outside memory. Returns the number of ranges written, or -1 if more than
 * max_out would be needed or an input range has end < start (out[] may then hold partial
 * results). Pure function, no allocation; any context. Quadratic in the number of inputs, which
 * is a handful at boot.
 */
int phys_ranges_subtract(const struct phys_range *mem, int nmem, const struct phys_range *resv,
			 int nresv, struct phys_range *out, int max_out);

#define PAGE_POOL_MAX_RANGES 16

/*
 * A pool of free 4 KiB pages, reached through a linear map: virtual = physical + virt_offset.
 * Adding memory costs O(1) and touches none of it, so that boot time does not grow with the
 * memory size. Each range keeps a window, [fresh, fresh_end): its pages there have never been
 * handed out (untouched), those below it are allocated or on the free list. The free list is
 * a LIFO threaded through the pages given back: each holds the physical address of the next
 * (0 ends the list) in its first word and a poison value derived from its own address in its
 * second, for the double-free check. An allocation takes the free list's head if there is one
 * (the most recently used page), else the lowest fresh page of the first range that has any.
 * Physical address 0 is never a valid page, because 0 is the list's terminator and
 * page_pool_alloc()'s "none left": a range starting at 0 is accepted, but its first page is
 * never handed out.
 * Not locked: the caller serialises every call on a pool.
 */
struct page_pool_range {
	uint64_t start, end; /* what the pool manages */
	uint64_t fresh;      /* [fresh, fresh_end): free, never handed out (single pages */
	uint64_t fresh_end;  /* come from its bottom, contiguous runs from its top) */
};

struct page_pool {
	uintptr_t virt_offset;
	struct page_pool_range ranges[PAGE_POOL_MAX_RANGES];
	int nranges;
	int first_fresh;    /* no range below this index has fresh pages left */
	uint64_t free_head; /* physical address of the first page given back, 0 if none */
	size_t nfree;       /* fresh pages plus the free list's */
	size_t ntotal;
};

/* An empty pool whose pages are reached at physical + virt_offset. */
void page_pool_init(struct page_pool *pool, uintptr_t virt_offset);
/* Hands every whole page of [start, end) to the pool (except physical page 0, see above); they
 * must be mapped at physical + virt_offset by the time they are handed out (or given back).
 * O(number of ranges), writes to none of the pages. Returns 0, or -1 (and changes nothing) if
 * the range is not page aligned, empty, overlaps a range already given, or the pool has no room
 * for another range. */
int page_pool_add_range(struct page_pool *pool, uint64_t start, uint64_t end);
/* Physical address of a free page (contents undefined: whatever RAM held, for a fresh page),
 * or 0 if none is left. O(1) amortised. The most recently freed page comes first; then the
 * ranges' fresh pages, range by range in the order they were added, each in ascending order. */
uint64_t page_pool_alloc(struct page_pool *pool);
/* Returns a page. Returns 0, or -1 (and changes nothing) if pa is not page aligned, is 0,
 * lies outside every range of the pool, or is already free (fresh, or on the free list). */
int page_pool_free(struct page_pool *pool, uint64_t pa);

/* The most pages page_pool_alloc_run() hands out at once. */
#define PAGE_POOL_RUN_MAX 256
/*
 * Physical address of `pages` free pages that are physically contiguous (contents undefined),
 * or 0 if 0 or more than PAGE_POOL_RUN_MAX pages are asked for or no such run is free. The
 * highest free run is taken, leaving low memory to single pages. Each page goes back on its own
 * with page_pool_free(). Costs a pass over the pool's pages plus a walk of the free list per
 * candidate run: for the rare large allocation (DMA buffers), not for the page-at-a-time path.
 */
uint64_t page_pool_alloc_run(struct page_pool *pool, size_t pages);

#endif
