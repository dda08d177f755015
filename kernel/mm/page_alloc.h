/* page_alloc.h: the physical page allocator's core: free-memory arithmetic over physical ranges
 * and struct page_pool, the free 4 KiB pages of a few ranges (a binary buddy allocator whose
 * bookkeeping lives outside the pages it manages). Not locked: the caller serialises each pool
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

/* The most pages page_pool_alloc_run() hands out at once: a block of the highest order. */
#define PAGE_POOL_RUN_MAX   256
#define PAGE_POOL_MAX_ORDER 8 /* log2(PAGE_POOL_RUN_MAX) */
#define PAGE_POOL_ORDERS    (PAGE_POOL_MAX_ORDER + 1)
/* A tree per order for the low side's small chunks and whole ones, and per order below the
 * highest for its big chunks and the DMA side's small and big ones (below: "Chunk classes"). */
#define PAGE_POOL_TREES     (PAGE_POOL_ORDERS + 3 * PAGE_POOL_MAX_ORDER)
_Static_assert(PAGE_POOL_RUN_MAX == 1 << PAGE_POOL_MAX_ORDER, "a run is one block at most");

/*
 * A pool of free 4 KiB pages, reached through a linear map: virtual = physical + virt_offset,
 * kept by a binary buddy allocator whose every decision comes from bookkeeping the kernel alone
 * writes, never from the pages themselves: a free page may hold anything (whatever its last
 * owner, or a device, wrote), and the pool neither reads nor writes a page it manages.
 *
 * Blocks. A free block of order k (0..PAGE_POOL_MAX_ORDER) is 2^k free pages, aligned to 2^k
 * pages in physical memory, inside one range. Free blocks are always maximal (eager
 * coalescing): no two free blocks are buddies of the same order, so a free block's order is
 * the largest of the aligned, wholly free blocks around its pages.
 *
 * Chunks. Each range is cut into chunks, the aligned blocks of the highest order (256 pages,
 * 1 MiB; the first and last may hold pages outside the range). A chunk that is one free block
 * is "whole". The range keeps, per order, a bitmap tree over its chunks: bit c of order k's
 * leaf level says chunk c holds a free block of order k (for the highest order: c is whole),
 * and each level above has a bit for each non-zero word of the level below, up to one word.
 * A chunk that is not whole has 8 words of its own (PAGE_POOL_CHUNK_WORDS): one bit per block
 * of each order below the highest (256 + 128 + ... + 2 bits), set when that block is free.
 * A whole chunk's words mean nothing (it may never have been split): they are cleared when it
 * is split, which is why setting up a range writes none of them but its edge chunks'.
 *
 * Chunk classes. Memory has two sides: the DMA side holds what a device may be given to read
 * or write (frames made for DMA: PAGE_POOL_DMA), the low side everything else (the kernel's own
 * pages, page tables and object caches, and every other frame: PAGE_POOL_LOW). A chunk that is
 * not whole belongs to one side, and is small or big (two spare bits of its words). The low
 * side takes from the bottom of memory, the DMA side from the top: a side's run of more than
 * half a chunk (order 8) takes the lowest (highest) whole chunk, which becomes big; anything
 * smaller, in the lowest (highest) range that has one, comes from a small chunk of the side,
 * else that range's lowest (highest) whole chunk, which becomes small; else from what the
 * side's big runs left free, and only then from the other side's chunks. Per order below the
 * highest, the range keeps a tree for each class. Why:
 *  - No IOMMU. A device writes wherever its driver says, and a driver made wrong (a fault, a
 *    bug) may give its device a right address with a wrong length: the device then writes on
 *    past the buffer, upward. Above a DMA frame lie only other DMA frames and the end of RAM
 *    (where the device's access fails), never a page table, a kernel object or a server's own
 *    memory, until memory is so full that the two sides meet (mm.c counts it).
 *  - Fragmentation. Mixed, a 129-page run would break a whole chunk, a single page then come
 *    from the 127 it left free (the smallest block), and the run go back: a chunk held by one
 *    page. Repeated, 122 pages would hold one in each MiB of 128 MiB and leave no 1 MiB run
 *    for a driver's DMA. Kept apart, a chunk turns small only when no small chunk of the side
 *    has a free block of the order asked for, so scattering pages one a chunk takes filling
 *    the chunks already taken first: what a server can deny is about what it holds.
 *
 * Where the bookkeeping lives. A range of at most PAGE_POOL_INLINE_CHUNKS chunks keeps it in
 * its struct page_pool_range (inline_words). A larger one gives up its lowest pages for it:
 * PAGE_POOL_TREES trees of about nchunks / 64 words, then 8 words per chunk, about 64 KiB
 * per GiB (33 pages of a 2 GiB range, 3 of 128 MiB); those pages are never handed out, and
 * page_pool_add_range() writes only the trees and its two edge chunks' words: about 8.7 KiB
 * for 2 GiB, so boot does not grow with the memory size.
 *
 * Costs, worst case, with L the levels of a range's trees (1 up to 64 chunks, 2 up to 4 GiB,
 * 3 up to 256 GiB, at most PAGE_POOL_TREE_LEVELS) and independent of how fragmented memory is
 * or how many pages are free: an allocation looks at the orders from the one asked for up,
 * in its class's chunks, whole ones, then the others' (at most 42 masks), walks one tree down
 * (L words) and one chunk's order (at most 4 words), then splits (at most 8 halves put back,
 * each at most 4 + L words); a free looks at the page's 9 possible blocks, then coalesces (at
 * most 8 buddies, each at most 4 + L words). Adding a range clears its trees: about
 * 33 * nchunks / 64 words.
 *
 * Physical address 0 is never handed out (0 is page_pool_alloc()'s "none left"): a range
 * starting at 0 is accepted, but its first page holds its bookkeeping or is skipped.
 * Not locked: the caller serialises every call on a pool. A pool must not be copied (a small
 * range's bookkeeping is inside it).
 */
#define PAGE_POOL_CHUNK_WORDS   8  /* per chunk: 510 bits, orders 0..7 */
#define PAGE_POOL_TREE_LEVELS   4  /* 64^4 chunks: 16 TiB per range */
#define PAGE_POOL_INLINE_CHUNKS 2  /* ranges of up to 2 chunks keep their bookkeeping inline */

struct page_pool_range {
	uint64_t start, end; /* what the pool was given */
	uint64_t first;      /* [first, end): the pages it hands out; below: its bookkeeping */
	uint64_t base;       /* chunk 0's physical address: start rounded down to 1 MiB */
	uint64_t *trees;     /* PAGE_POOL_TREES trees of tree_words words, order 0's first */
	uint64_t *chunks;    /* PAGE_POOL_CHUNK_WORDS words per chunk */
	uint32_t tree_words;
	uint32_t levels;     /* level l of a tree starts at word level_off[l]; the last is a word */
	uint32_t level_off[PAGE_POOL_TREE_LEVELS];
	uint64_t inline_words[PAGE_POOL_TREES + PAGE_POOL_INLINE_CHUNKS * PAGE_POOL_CHUNK_WORDS];
};

struct page_pool {
	uintptr_t virt_offset;
	struct page_pool_range ranges[PAGE_POOL_MAX_RANGES];
	int nranges;
	uint32_t has_free[PAGE_POOL_TREES]; /* bit i: range i has a free block in this tree */
	size_t nfree;
	size_t ntotal;
};

/* An empty pool whose pages are reached at physical + virt_offset. */
void page_pool_init(struct page_pool *pool, uintptr_t virt_offset);
/* Hands every whole page of [start, end) to the pool, but those that hold its bookkeeping (see
 * above; and physical page 0); they must be mapped at physical + virt_offset from now on (the
 * bookkeeping is written now, a page is the caller's once handed out). Costs O(number of ranges
 * + size / 64 MiB) word stores, to the bookkeeping only. Returns 0, or -1 (and changes nothing)
 * if the range is not page aligned, empty, overlaps a range already given, is larger than
 * 16 TiB, or the pool has no room for another range. */
int page_pool_add_range(struct page_pool *pool, uint64_t start, uint64_t end);
/* The bytes of bookkeeping page_pool_add_range() takes from the bottom of [start, end) (whole
 * pages; 0 for a range small enough to keep it inline). */
size_t page_pool_meta_bytes(uint64_t start, uint64_t end);
/* Physical address of a free page of the low side (contents undefined: whatever was there), or
 * 0 if none is left. Bounded (see above): a page of the smallest free block of the side's small
 * chunks or whole ones (above: "Chunk classes"), in the first range that has one, at its lowest
 * address. */
uint64_t page_pool_alloc(struct page_pool *pool);
/* Returns a page. Returns 0, or -1 (and changes nothing) if pa is not page aligned, is 0, lies
 * outside the pages of every range of the pool, or is free already. Bounded (see above). */
int page_pool_free(struct page_pool *pool, uint64_t pa);

/* What a run is for: its side of memory (above: "Chunk classes"). */
enum page_pool_use {
	PAGE_POOL_LOW, /* the kernel's own, or a frame no device is given: the bottom */
	PAGE_POOL_DMA, /* what a device may be given: the top */
};

/*
 * Physical address of `pages` free pages that are physically contiguous (contents undefined),
 * or 0 if 0 or more than PAGE_POOL_RUN_MAX pages are asked for, or no free block of order
 * ceil(log2(pages)) is left (a free run that is not such a block does not count). The pages are
 * the top of a block of the smallest order that the side `use` names has, taken as above
 * ("Chunk classes"): the low side's lowest, the DMA side's highest; the rest of the block stays
 * free. Each page goes back on its own with page_pool_free(), or the run at once with
 * page_pool_free_run(). Bounded (see above).
 */
uint64_t page_pool_alloc_run(struct page_pool *pool, size_t pages, enum page_pool_use use);
/*
 * Gives back `pages` pages from pa at once, each handed out (by page_pool_alloc() or
 * page_pool_alloc_run()), all in one range: as the largest aligned blocks that fit, each
 * merged with its free buddies, which leaves the pool as freeing each page would (its state
 * depends only on which pages are free, and on the class of each chunk not whole). A run of page_pool_alloc_run() ends where an aligned
 * block ends, so it is one block per bit set in its length (one for a whole chunk, at most
 * PAGE_POOL_ORDERS); any span is at most pages / 256 + 2 * PAGE_POOL_MAX_ORDER. Each block is
 * checked (at most 1 + 8 + 12 words) and freed as a page is: the cost grows with the orders, not
 * with the pages (freeing 256 pages one by one is 256 frees). Returns 0, or -1 (and changes
 * nothing) if pa is not page aligned, is 0, pages is 0, or some page is free already or outside
 * the pages of pa's range.
 */
int page_pool_free_run(struct page_pool *pool, uint64_t pa, size_t pages);

#ifdef TACET_HOST_TEST
/* Host tests only: the words of bookkeeping the pool has read or written in an allocation or a
 * free (tree words, chunk words, order masks), to show that none grows with fragmentation. */
extern uint64_t page_pool_steps;
#endif

#endif
