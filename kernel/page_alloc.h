/* page_alloc.h: the physical page allocator's core: free-memory arithmetic over physical ranges
 * and struct page_pool, a free list of 4 KiB pages. Not locked: the caller serialises each pool
 * (kernel/mm.c wraps the kernel's one pool in a spinlock). */
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
 * A pool of free 4 KiB pages: a LIFO free list threaded through the free pages themselves,
 * which are reached through a linear map: virtual = physical + virt_offset. Each free page holds
 * the physical address of the next free page (0 ends the list) in its first word and a poison
 * value derived from its own address in its second, for the double-free check. Physical address
 * 0 is never a valid page, because 0 is the list's terminator and page_pool_alloc()'s "none
 * left": a range starting at 0 is accepted, but its first page is never handed out.
 * Not locked: the caller serialises every call on a pool.
 */
struct page_pool {
	uintptr_t virt_offset;
	struct phys_range ranges[PAGE_POOL_MAX_RANGES]; /* what the pool manages */
	int nranges;
	uint64_t free_head; /* physical address of the first free page, 0 if none */
	size_t nfree, ntotal;
};

/* An empty pool whose pages are reached at physical + virt_offset. */
void page_pool_init(struct page_pool *pool, uintptr_t virt_offset);
/* Hands every whole page of [start, end) to the pool (except physical page 0, see above); they
 * must be mapped at physical + virt_offset. Returns 0, or -1 (and changes nothing) if the range
 * is not page aligned, empty, overlaps a range already given, or the pool has no room for
 * another range. */
int page_pool_add_range(struct page_pool *pool, uint64_t start, uint64_t end);
/* Physical address of a free page (contents undefined), or 0 if none is left. The most
 * recently freed page comes first; a fresh range hands out its pages in ascending order. */
uint64_t page_pool_alloc(struct page_pool *pool);
/* Returns a page. Returns 0, or -1 (and changes nothing) if pa is not page aligned, is 0,
 * lies outside every range of the pool, or is already free. */
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
