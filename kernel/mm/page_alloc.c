/* page_alloc.c: free-memory arithmetic over physical ranges and the page pool: its ranges'
 * fresh marks and its free list (see page_alloc.h). Owns no global state; each struct page_pool
 * is serialised by its caller. */
#include <stdbool.h>
#include "mm/page_alloc.h"

#define PAGE_OFFSET_MASK (PAGE_SIZE - 1)

/*
 * The second word of a free page holds its address xor this constant. Data that happens to
 * hold it costs a list walk, nothing more; the low bits are set so that pa ^ poison is never 0
 * for an aligned pa, which lets page_pool_alloc() clear the word with 0.
 */
#define PAGE_POOL_FREE_POISON 0x9e3779b97f4a7c15ULL
_Static_assert((PAGE_POOL_FREE_POISON & PAGE_OFFSET_MASK) != 0, "poison must not be page aligned");

/* Where a free page keeps the list's bookkeeping, in 64-bit words from its start. */
enum page_free_word {
	PAGE_FREE_NEXT,   /* physical address of the next free page, 0 at the end */
	PAGE_FREE_POISON, /* pa ^ PAGE_POOL_FREE_POISON while free */
};

static bool range_contains(const struct phys_range *r, uint64_t addr)
{
	return r->start <= addr && addr < r->end;
}

static bool ranges_contain(const struct phys_range *r, int n, uint64_t addr)
{
	for (int i = 0; i < n; i++)
		if (range_contains(&r[i], addr))
			return true;
	return false;
}

/* Lowers *next to the smallest edge of r[] above addr, if any is lower; true if one was. */
static bool ranges_next_edge(const struct phys_range *r, int n, uint64_t addr, uint64_t *next,
			     bool found)
{
	for (int i = 0; i < n; i++) {
		if (r[i].start == r[i].end)
			continue;
		if (r[i].start > addr && (!found || r[i].start < *next)) {
			*next = r[i].start;
			found = true;
		}
		if (r[i].end > addr && (!found || r[i].end < *next)) {
			*next = r[i].end;
			found = true;
		}
	}
	return found;
}

static bool ranges_valid(const struct phys_range *r, int n)
{
	for (int i = 0; i < n; i++)
		if (r[i].end < r[i].start)
			return false;
	return true;
}

/* Appends the whole pages of [start, end) to out[]; -1 if out[] is full. */
static int emit_pages(uint64_t start, uint64_t end, struct phys_range *out, int *nout,
		      int max_out)
{
	uint64_t first, last;

	/* Rounding up would wrap, and no whole page can start that high anyway. */
	if (start > UINT64_MAX - PAGE_OFFSET_MASK)
		return 0;
	first = (start + PAGE_OFFSET_MASK) & ~PAGE_OFFSET_MASK;
	last = end & ~PAGE_OFFSET_MASK;
	if (first >= last)
		return 0;
	if (*nout >= max_out)
		return -1;
	out[(*nout)++] = (struct phys_range){ first, last };
	return 0;
}

/*
 * A sweep over the edges of every input range in ascending order: between two consecutive
 * edges, whether an address is free (in some mem range, in no resv range) cannot change, so
 * testing the first address of each stretch is enough. Runs of free stretches become one output
 * range, which also merges overlapping and adjacent memory banks.
 */
int phys_ranges_subtract(const struct phys_range *mem, int nmem, const struct phys_range *resv,
			 int nresv, struct phys_range *out, int max_out)
{
	uint64_t addr = 0, next = 0, run_start = 0;
	bool in_run = false;
	int nout = 0;

	if (!ranges_valid(mem, nmem) || !ranges_valid(resv, nresv))
		return -1;
	for (;;) {
		bool is_free = ranges_contain(mem, nmem, addr) &&
			       !ranges_contain(resv, nresv, addr);
		bool found;

		if (is_free && !in_run) {
			run_start = addr;
			in_run = true;
		} else if (!is_free && in_run) {
			if (emit_pages(run_start, addr, out, &nout, max_out) < 0)
				return -1;
			in_run = false;
		}
		found = ranges_next_edge(mem, nmem, addr, &next, false);
		found = ranges_next_edge(resv, nresv, addr, &next, found);
		/* A free address lies below its memory range's end, an edge: so no run is open. */
		if (!found)
			break;
		addr = next;
	}
	return nout;
}

static uint64_t *page_words(const struct page_pool *pool, uint64_t pa)
{
	return (uint64_t *)(uintptr_t)(pa + pool->virt_offset);
}

static void pool_push(struct page_pool *pool, uint64_t pa)
{
	uint64_t *words = page_words(pool, pa);

	words[PAGE_FREE_NEXT] = pool->free_head;
	words[PAGE_FREE_POISON] = pa ^ PAGE_POOL_FREE_POISON;
	pool->free_head = pa;
	pool->nfree++;
}

static uint64_t pool_pop(struct page_pool *pool)
{
	uint64_t pa = pool->free_head;
	uint64_t *words = page_words(pool, pa);

	pool->free_head = words[PAGE_FREE_NEXT];
	/* So that freeing it again normally costs no list walk. */
	words[PAGE_FREE_POISON] = 0;
	return pa;
}

/* The lowest fresh page of the first range that has one, or 0; O(1) amortised, since a range
 * never gets fresh pages back and first_fresh only moves up. */
static uint64_t pool_take_fresh(struct page_pool *pool)
{
	while (pool->first_fresh < pool->nranges) {
		struct page_pool_range *r = &pool->ranges[pool->first_fresh];

		if (r->fresh < r->fresh_end) {
			uint64_t pa = r->fresh;

			r->fresh += PAGE_SIZE;
			return pa;
		}
		pool->first_fresh++;
	}
	return 0;
}

static const struct page_pool_range *pool_range_of(const struct page_pool *pool, uint64_t pa)
{
	for (int i = 0; i < pool->nranges; i++)
		if (pool->ranges[i].start <= pa && pa < pool->ranges[i].end)
			return &pool->ranges[i];
	return NULL;
}

static bool pool_is_on_free_list(const struct page_pool *pool, uint64_t pa)
{
	for (uint64_t p = pool->free_head; p; p = page_words(pool, p)[PAGE_FREE_NEXT])
		if (p == pa)
			return true;
	return false;
}

void page_pool_init(struct page_pool *pool, uintptr_t virt_offset)
{
	*pool = (struct page_pool){ .virt_offset = virt_offset };
}

int page_pool_add_range(struct page_pool *pool, uint64_t start, uint64_t end)
{
	struct page_pool_range *r;

	if (start >= end || (start & PAGE_OFFSET_MASK) || (end & PAGE_OFFSET_MASK))
		return -1;
	if (pool->nranges >= PAGE_POOL_MAX_RANGES)
		return -1;
	for (int i = 0; i < pool->nranges; i++)
		if (start < pool->ranges[i].end && pool->ranges[i].start < end)
			return -1;

	r = &pool->ranges[pool->nranges++];
	/* 0 terminates the free list and means "none left": see page_alloc.h. */
	*r = (struct page_pool_range){ start, end, start ? start : PAGE_SIZE, end };
	pool->nfree += (size_t)((end - r->fresh) >> PAGE_SHIFT);
	pool->ntotal += (size_t)((end - r->fresh) >> PAGE_SHIFT);
	return 0;
}

uint64_t page_pool_alloc(struct page_pool *pool)
{
	uint64_t pa = pool->free_head ? pool_pop(pool) : pool_take_fresh(pool);

	if (pa)
		pool->nfree--;
	return pa;
}

int page_pool_free(struct page_pool *pool, uint64_t pa)
{
	const struct page_pool_range *r;

	if (pa == 0 || (pa & PAGE_OFFSET_MASK))
		return -1;
	r = pool_range_of(pool, pa);
	/* Outside the pool, or fresh: never handed out, so free already. */
	if (!r || (pa >= r->fresh && pa < r->fresh_end))
		return -1;
	/* The poison alone may match by chance; only the list says for sure. */
	if (page_words(pool, pa)[PAGE_FREE_POISON] == (pa ^ PAGE_POOL_FREE_POISON) &&
	    pool_is_on_free_list(pool, pa))
		return -1;
	pool_push(pool, pa);
	return 0;
}

/* --- contiguous runs ------------------------------------------------------------------------ */

/*
 * A run comes from a range's fresh window when the window can hold it: its top pages (single
 * pages come from its bottom), O(1) and touching nothing. Otherwise the range is searched from
 * the top for `pages` pages that are free: a page in the window is (by address, never read);
 * one below or above it looks free by its poison word, a hint only (a page's own data can
 * match it by chance), so a window of candidates is then checked against the free list, the
 * only authority, in one walk. A run may take the window's lower or upper part with pages
 * given back beside it; it cannot lie inside the window, which is smaller than the run.
 */

#define RUN_WORDS (PAGE_POOL_RUN_MAX / 64)

static bool in_window(const struct page_pool_range *r, uint64_t pa)
{
	return pa >= r->fresh && pa < r->fresh_end;
}

static bool page_looks_free(const struct page_pool *pool, const struct page_pool_range *r,
			    uint64_t pa)
{
	if (in_window(r, pa))
		return true;
	return pa != 0 && page_words(pool, pa)[PAGE_FREE_POISON] == (pa ^ PAGE_POOL_FREE_POISON);
}

/* Marks in on[] the pages of [start, start + pages) on the free list, and those in the window
 * (free by address); returns how many are marked. */
static size_t run_mark_free(const struct page_pool *pool, const struct page_pool_range *r,
			    uint64_t start, size_t pages, uint64_t on[RUN_WORDS])
{
	uint64_t end = start + ((uint64_t)pages << PAGE_SHIFT);
	size_t n = 0, listed = 0, need = 0;

	for (int i = 0; i < RUN_WORDS; i++)
		on[i] = 0;
	for (size_t i = 0; i < pages; i++) {
		if (in_window(r, start + (i << PAGE_SHIFT))) {
			on[i / 64] |= 1ull << (i % 64);
			n++;
		}
	}
	need = pages - n;
	for (uint64_t p = pool->free_head; p && listed < need;
	     p = page_words(pool, p)[PAGE_FREE_NEXT]) {
		if (p >= start && p < end) {
			size_t i = (size_t)((p - start) >> PAGE_SHIFT);

			on[i / 64] |= 1ull << (i % 64);
			listed++;
		}
	}
	return n + listed;
}

/* Takes the run [start, start + pages), every page known free, out of the pool: its listed
 * pages off the free list, its window pages out of the window. */
static void run_take(struct page_pool *pool, struct page_pool_range *r, uint64_t start,
		     size_t pages)
{
	uint64_t end = start + ((uint64_t)pages << PAGE_SHIFT);
	uint64_t *link = &pool->free_head;
	size_t listed = 0;

	for (uint64_t p = start; p < end; p += PAGE_SIZE)
		listed += !in_window(r, p);
	pool->nfree -= pages;
	if (start < r->fresh_end && end > r->fresh) { /* it takes part of the window */
		if (end >= r->fresh_end) /* the upper part (or all) */
			r->fresh_end = start > r->fresh ? start : r->fresh;
		else /* the lower part: a run never lies inside the window (see above) */
			r->fresh = end;
	}
	while (*link && listed) {
		uint64_t p = *link;
		uint64_t *words = page_words(pool, p);

		if (p >= start && p < end) {
			*link = words[PAGE_FREE_NEXT];
			words[PAGE_FREE_POISON] = 0;
			listed--;
		} else {
			link = &words[PAGE_FREE_NEXT];
		}
	}
}

/* The highest page of the window whose hint lied, by its index in the window. */
static size_t run_highest_not_free(const uint64_t on[RUN_WORDS], size_t pages)
{
	size_t i = pages;

	while (i-- > 0)
		if (!(on[i / 64] & (1ull << (i % 64))))
			return i;
	return 0; /* not reached: the caller saw fewer than `pages` free */
}

/* A run of `pages` in range r, searched from the top; 0 if none. */
static uint64_t run_in_range(struct page_pool *pool, struct page_pool_range *r, size_t pages)
{
	uint64_t on[RUN_WORDS];
	uint64_t pa = r->end;
	size_t run = 0;

	if (r->fresh_end - r->fresh >= ((uint64_t)pages << PAGE_SHIFT)) {
		r->fresh_end -= (uint64_t)pages << PAGE_SHIFT; /* the window's top */
		pool->nfree -= pages;
		return r->fresh_end;
	}
	while (pa > r->start && pa > PAGE_SIZE) {
		pa -= PAGE_SIZE;
		if (!page_looks_free(pool, r, pa)) {
			run = 0;
			continue;
		}
		if (++run < pages)
			continue;
		/* [pa, pa + pages) looks free: ask the list */
		if (run_mark_free(pool, r, pa, pages, on) == pages) {
			run_take(pool, r, pa, pages);
			return pa;
		}
		/* A hint lied: every window holding that page is out; go on just below it. */
		pa += (uint64_t)run_highest_not_free(on, pages) << PAGE_SHIFT;
		run = 0;
	}
	return 0;
}

uint64_t page_pool_alloc_run(struct page_pool *pool, size_t pages)
{
	if (pages == 0 || pages > PAGE_POOL_RUN_MAX || pages > pool->nfree)
		return 0;
	for (int i = pool->nranges - 1; i >= 0; i--) {
		uint64_t pa = run_in_range(pool, &pool->ranges[i], pages);

		if (pa)
			return pa;
	}
	return 0;
}
