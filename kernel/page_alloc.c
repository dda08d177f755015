/* page_alloc.c: free-memory arithmetic over physical ranges and the page pool: its ranges'
 * fresh marks and its free list (see page_alloc.h). Owns no global state; each struct page_pool
 * is serialised by its caller. */
#include <stdbool.h>
#include "page_alloc.h"

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

		if (r->fresh < r->end) {
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
	*r = (struct page_pool_range){ start, end, start ? start : PAGE_SIZE };
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
	if (!r || pa >= r->fresh)
		return -1;
	/* The poison alone may match by chance; only the list says for sure. */
	if (page_words(pool, pa)[PAGE_FREE_POISON] == (pa ^ PAGE_POOL_FREE_POISON) &&
	    pool_is_on_free_list(pool, pa))
		return -1;
	pool_push(pool, pa);
	return 0;
}
