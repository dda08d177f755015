/* page_alloc.c: free-memory arithmetic over physical ranges and the page pool, a binary buddy
 * allocator whose bookkeeping (per-order bitmap trees over 1 MiB chunks, a few words per chunk)
 * lives in kernel-owned memory, never in a page it manages (design and costs: page_alloc.h).
 * Owns no global state (but the host tests' step counter); each struct page_pool is serialised
 * by its caller. */
#include <stdbool.h>
#include "mm/page_alloc.h"

#define PAGE_OFFSET_MASK (PAGE_SIZE - 1)

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

/* --- the page pool: bits -------------------------------------------------------------------- */

#define MAX_ORDER    PAGE_POOL_MAX_ORDER
#define CHUNK_PAGES  PAGE_POOL_RUN_MAX
#define CHUNK_SHIFT  (PAGE_SHIFT + MAX_ORDER)
#define CHUNK_WORDS  PAGE_POOL_CHUNK_WORDS
#define CHUNK_BITS   (2 * CHUNK_PAGES) /* orders 0..7 use all but the last 2 */
#define CHUNK_DMA    (CHUNK_BITS - 2)  /* the first of those: a chunk of the DMA side */
#define CHUNK_BIG    (CHUNK_BITS - 1)  /* the second: a chunk a 256-page run took */
#define TREE_FANOUT  64
#define TREES        PAGE_POOL_TREES
/* Tree t (page_alloc.h, "Chunk classes"): order k (< 8) in the low side's small chunks, k; in
 * whole chunks, 8; in the low side's big chunks, LOW_BIG_TREES + k; in the DMA side's small and
 * big ones, DMA_TREES + k and DMA_BIG_TREES + k. */
#define LOW_BIG_TREES PAGE_POOL_ORDERS
#define DMA_TREES     (LOW_BIG_TREES + MAX_ORDER)
#define DMA_BIG_TREES (DMA_TREES + MAX_ORDER)
_Static_assert(CHUNK_BITS == CHUNK_WORDS * 64, "a chunk's words hold its orders' bits");
_Static_assert(PAGE_POOL_MAX_RANGES <= 32, "has_free has a bit per range");
_Static_assert(CHUNK_DMA >= CHUNK_BITS - (CHUNK_BITS >> (MAX_ORDER - 1)) + 2, "spare bits");
_Static_assert(CHUNK_DMA / 64 == CHUNK_BIG / 64, "the class bits share a word");
_Static_assert(DMA_BIG_TREES + MAX_ORDER == TREES, "a tree per order and class");
#define CLASS_WORD (CHUNK_DMA / 64)
#define DMA_BIT    (1ULL << (CHUNK_DMA % 64))
#define BIG_BIT    (1ULL << (CHUNK_BIG % 64))
#define CLASS_BITS (DMA_BIT | BIG_BIT)

#ifdef TACET_HOST_TEST
uint64_t page_pool_steps;
#define STEP() (page_pool_steps++)
#else
#define STEP() ((void)0)
#endif

/* rv64gc has no count-trailing-zeros: a de Bruijn sequence finds a lone bit in one multiply. */
#define DEBRUIJN64 0x03f79d71b4cb0a89ULL
static const uint8_t debruijn_bit[64] = {
	0,  1,  48, 2,  57, 49, 28, 3,  61, 58, 50, 42, 38, 29, 17, 4,
	62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
	63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
	46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9,  13, 8,  7,  6,
};

/* The index of the lowest or the highest set bit of a non-zero word. */
static int find_bit(uint64_t w, bool high)
{
	if (high) { /* smear the top bit down, then keep it alone */
		for (int shift = 1; shift < 64; shift <<= 1)
			w |= w >> shift;
		w ^= w >> 1;
	} else {
		w &= -w;
	}
	return debruijn_bit[(w * DEBRUIJN64) >> 58];
}

/* Bits [lo, hi) of words[] (lo < hi) set. */
static void bits_fill(uint64_t *words, uint64_t lo, uint64_t hi)
{
	for (uint64_t w = lo / 64; w <= (hi - 1) / 64; w++) {
		uint64_t from = w * 64 > lo ? 0 : lo % 64, to = hi - w * 64 >= 64 ? 64 : hi % 64;
		uint64_t mask = to == 64 ? ~0ULL : (1ULL << to) - 1;

		words[w] |= mask & ~((1ULL << from) - 1);
	}
}

/* --- a range's trees: per order and class, the chunks holding a free block of that order ---- */

static uint64_t *tree(const struct page_pool_range *r, int t)
{
	return r->trees + (size_t)t * r->tree_words;
}

static bool tree_test(const struct page_pool_range *r, int t, uint64_t c)
{
	STEP();
	return tree(r, t)[c / 64] >> (c % 64) & 1;
}

/* Sets chunk c's bit, and its words' up the levels; true if the tree was empty. */
static bool tree_set(struct page_pool_range *r, int t, uint64_t c)
{
	uint64_t *words = tree(r, t);

	for (uint32_t lv = 0; lv < r->levels; lv++, c /= TREE_FANOUT) {
		uint64_t *w = &words[r->level_off[lv] + c / 64], old = *w;

		STEP();
		*w = old | 1ULL << (c % 64);
		if (old)
			return false;
	}
	return true;
}

/* Clears chunk c's bit, and its words' up the levels as they empty; true if the tree is empty. */
static bool tree_clear(struct page_pool_range *r, int t, uint64_t c)
{
	uint64_t *words = tree(r, t);

	for (uint32_t lv = 0; lv < r->levels; lv++, c /= TREE_FANOUT) {
		uint64_t *w = &words[r->level_off[lv] + c / 64];

		STEP();
		*w &= ~(1ULL << (c % 64));
		if (*w)
			return false;
	}
	return true;
}

/* The lowest (or highest) chunk whose bit is set in a tree that is not empty. */
static uint64_t tree_find(const struct page_pool_range *r, int t, bool high)
{
	const uint64_t *words = tree(r, t);
	uint64_t c = 0;

	for (uint32_t lv = r->levels; lv-- > 0;) {
		STEP();
		c = c * TREE_FANOUT + (uint64_t)find_bit(words[r->level_off[lv] + c], high);
	}
	return c;
}

/* --- a chunk's words: its free blocks of orders 0..7 (meaningless while it is whole) -------- */

static uint64_t *chunk(const struct page_pool_range *r, uint64_t c)
{
	return r->chunks + c * CHUNK_WORDS;
}

/* Where the bit of order k's block j (j < 256 >> k) lies in its chunk's words: order 0's 256
 * bits first, then order 1's 128, ..., order 7's 2. */
static unsigned chunk_bit(int k, uint64_t j)
{
	return CHUNK_BITS - (CHUNK_BITS >> k) + (unsigned)j;
}

/* Whether the order-k block at page index p (of a chunk that is not whole) is free. */
static bool chunk_test(const struct page_pool_range *r, int k, uint64_t p)
{
	unsigned b = chunk_bit(k, (p % CHUNK_PAGES) >> k);

	STEP();
	return chunk(r, p / CHUNK_PAGES)[b / 64] >> (b % 64) & 1;
}

/* The lowest (or highest) free block of order k in a chunk's words, by its index among the
 * chunk's blocks of that order; -1 if there is none. At most 4 words. */
static int chunk_find(const uint64_t *words, int k, bool high)
{
	unsigned n = CHUNK_PAGES >> k, nwords = (n + 63) / 64;

	for (unsigned i = 0; i < nwords; i++) {
		unsigned wi = high ? nwords - 1 - i : i, b = chunk_bit(k, wi * 64);
		uint64_t w = words[b / 64] >> (b % 64);

		STEP();
		if (n < 64)
			w &= (1ULL << n) - 1;
		if (w)
			return (int)(wi * 64) + find_bit(w, high);
	}
	return -1;
}

/* Whether a chunk's words hold a free block of order k: its bits ORed, at most 4 words. */
static bool chunk_any(const uint64_t *words, int k)
{
	unsigned b = chunk_bit(k, 0), n = CHUNK_PAGES >> k;
	uint64_t any = 0;

	STEP();
	if (n < 64)
		return words[b / 64] >> (b % 64) & ((1ULL << n) - 1);
	for (unsigned i = 0; i < n / 64; i++)
		any |= words[b / 64 + i];
	return any != 0;
}

/* --- blocks: p is a page index from the range's base, aligned to 2^k ----------------------- */

static uint64_t page_index(const struct page_pool_range *r, uint64_t pa)
{
	return (pa - r->base) >> PAGE_SHIFT;
}

static uint64_t page_address(const struct page_pool_range *r, uint64_t p)
{
	return r->base + (p << PAGE_SHIFT);
}

/* The first tree of a class's (its class bits): order k's is that + k, for k < 8. */
static int class_trees(uint64_t class)
{
	if (class & DMA_BIT)
		return class & BIG_BIT ? DMA_BIG_TREES : DMA_TREES;
	return class & BIG_BIT ? LOW_BIG_TREES : 0;
}

/* The tree of order k's free blocks in chunk c: its class's below the highest order. */
static int tree_of(const struct page_pool_range *r, int k, uint64_t c)
{
	if (k == MAX_ORDER)
		return MAX_ORDER;
	return class_trees(chunk(r, c)[CLASS_WORD] & CLASS_BITS) + k;
}

/* Marks the order-k block at p free: its bit in its chunk's words (below the highest order;
 * a whole chunk's are left all 0, its class bit too), the chunk's bit in its class's tree of
 * the order if it is the chunk's first such block, and the range's bit in has_free if it is
 * the range's first. */
static void block_insert(struct page_pool *pool, int ri, int k, uint64_t p)
{
	struct page_pool_range *r = &pool->ranges[ri];
	uint64_t c = p / CHUNK_PAGES;
	int t = tree_of(r, k, c);

	uint64_t *words = chunk(r, c);

	if (k < MAX_ORDER) {
		unsigned b = chunk_bit(k, (p % CHUNK_PAGES) >> k);
		bool had = chunk_any(words, k);

		words[b / 64] |= 1ULL << (b % 64);
		if (had)
			return;
	} else {
		words[CLASS_WORD] &= ~CLASS_BITS; /* whole: of no class */
	}
	if (tree_set(r, t, c))
		pool->has_free[t] |= 1U << ri;
}

/* Marks the free order-k block at p not free, the way block_insert() marked it. A whole chunk
 * taken becomes the low side's and small (its words cleared); whole_take() gives it a class. */
static void block_remove(struct page_pool *pool, int ri, int k, uint64_t p)
{
	struct page_pool_range *r = &pool->ranges[ri];
	uint64_t c = p / CHUNK_PAGES, *words = chunk(r, c);
	int t = tree_of(r, k, c);

	if (k < MAX_ORDER) {
		unsigned b = chunk_bit(k, (p % CHUNK_PAGES) >> k);

		words[b / 64] &= ~(1ULL << (b % 64));
		if (chunk_any(words, k))
			return;
	} else {
		/* Whole no more: its words start to mean something, and nothing in it is free. */
		for (int i = 0; i < CHUNK_WORDS; i++)
			words[i] = 0;
	}
	if (tree_clear(r, t, c))
		pool->has_free[t] &= ~(1U << ri);
}

/* Puts the order-k block at p (none of whose pages is free) back, merged with its free buddies
 * (each one order up). */
static void block_free(struct page_pool *pool, int ri, int k, uint64_t p)
{
	const struct page_pool_range *r = &pool->ranges[ri];

	/* A buddy below the highest order lies in p's chunk, which is not whole: p was not free. */
	for (; k < MAX_ORDER && chunk_test(r, k, p ^ (1ULL << k)); k++) {
		block_remove(pool, ri, k, p ^ (1ULL << k));
		p &= ~(1ULL << k);
	}
	block_insert(pool, ri, k, p);
}

/* The order of the largest aligned block at page `from` that fits below `to` (from < to). */
static int span_order(uint64_t from, uint64_t to)
{
	int k = 0;

	while (k < MAX_ORDER && !(from & (1ULL << k)) && from + (2ULL << k) <= to)
		k++;
	return k;
}

/*
 * Makes pages [from, to) free as the largest aligned blocks that fit, from the bottom up. They
 * need no merging, with one another or around: a block the walk takes at an address aligned to
 * twice its size did not fit twice its size, so its buddy above is not wholly in the span; one
 * at an odd multiple of its size follows a smaller block (else the walk would have taken twice
 * the size there). The callers' spans have no free page beside them but in blocks that are no
 * buddy of theirs (page_pool_add_range(): nothing else is free in those chunks;
 * page_pool_alloc_run(): the span lies below the run, inside a block that was free whole).
 */
static void span_insert(struct page_pool *pool, int ri, uint64_t from, uint64_t to)
{
	while (from < to) {
		int k = span_order(from, to);

		block_insert(pool, ri, k, from);
		from += 1ULL << k;
	}
}

/*
 * Takes a free block of the smallest order from `want` up to `last` that has one, looking in
 * trees first + order of the ranges in `ranges` (a bit each): in the first range that has one,
 * its lowest (or, with `high`, the last range's highest). Returns its order (-1 if there is
 * none), its range in *ri and its first page in *p.
 */
static int block_take_in(struct page_pool *pool, uint32_t ranges, int first, int want, int last,
			 bool high, int *ri, uint64_t *p)
{
	for (int k = want; k <= last; k++) {
		const struct page_pool_range *r;
		uint64_t c;

		STEP();
		if (!(pool->has_free[first + k] & ranges))
			continue;
		*ri = find_bit(pool->has_free[first + k] & ranges, high);
		r = &pool->ranges[*ri];
		c = tree_find(r, first + k, high);
		*p = c * CHUNK_PAGES;
		if (k < MAX_ORDER)
			*p += (uint64_t)chunk_find(chunk(r, c), k, high) << k;
		block_remove(pool, *ri, k, *p);
		return k;
	}
	return -1;
}

#define ALL_RANGES UINT32_MAX

/* The lowest (or highest) range with a free block in trees first + want .. first + last, or in
 * a whole chunk, as a mask of its bit alone; 0 if none has. At most 9 masks. */
static uint32_t range_with(const struct page_pool *pool, int first, int want, int last, bool high)
{
	uint32_t m = pool->has_free[MAX_ORDER];

	for (int k = want; k <= last; k++)
		m |= pool->has_free[first + k];
	return m ? 1U << find_bit(m, high) : 0;
}

/* Takes the lowest (or highest) whole chunk of `ranges`, of class `class` from now on. */
static bool whole_take(struct page_pool *pool, uint32_t ranges, bool high, uint64_t class, int *ri,
		       uint64_t *p)
{
	if (block_take_in(pool, ranges, 0, MAX_ORDER, MAX_ORDER, high, ri, p) < 0)
		return false;
	chunk(&pool->ranges[*ri], *p / CHUNK_PAGES)[CLASS_WORD] |= class;
	return true;
}

/*
 * A block of order want for one side (page_alloc.h, "Chunk classes"), the low side's lowest or
 * the DMA side's highest: a run of more than half a chunk takes a whole one, which becomes big;
 * anything smaller, in the first range that has one, comes from a small chunk of the side, else
 * a whole chunk (which becomes one); else from what the side's big runs left free, and only
 * then from the other side's chunks.
 */
static int block_take(struct page_pool *pool, bool dma, int want, int *ri, uint64_t *p)
{
	uint64_t side = dma ? DMA_BIT : 0, other = side ^ DMA_BIT;
	int small = class_trees(side);
	uint32_t first;
	int k;

	if (want == MAX_ORDER)
		return whole_take(pool, ALL_RANGES, dma, side | BIG_BIT, ri, p) ? MAX_ORDER : -1;
	first = range_with(pool, small, want, MAX_ORDER - 1, dma);
	k = block_take_in(pool, first, small, want, MAX_ORDER - 1, dma, ri, p);
	if (k < 0 && whole_take(pool, first, dma, side, ri, p))
		k = MAX_ORDER;
	if (k < 0)
		k = block_take_in(pool, ALL_RANGES, class_trees(side | BIG_BIT), want, MAX_ORDER - 1,
				  dma, ri, p);
	if (k < 0)
		k = block_take_in(pool, ALL_RANGES, class_trees(other), want, MAX_ORDER - 1, dma,
				  ri, p);
	if (k < 0)
		k = block_take_in(pool, ALL_RANGES, class_trees(other | BIG_BIT), want,
				  MAX_ORDER - 1, dma, ri, p);
	return k;
}

/* Whether a chunk's order-k bits for blocks [j, j + n) of that order (j + n <= 256 >> k) hold
 * one set: at most 4 words. */
static bool chunk_any_of(const uint64_t *words, int k, uint64_t j, uint64_t n)
{
	uint64_t b = chunk_bit(k, j), end = b + n;

	while (b < end) {
		uint64_t shift = b % 64, len = end - b < 64 - shift ? end - b : 64 - shift;
		uint64_t w = words[b / 64] >> shift;

		STEP();
		if (len < 64)
			w &= (1ULL << len) - 1;
		if (w)
			return true;
		b += len;
	}
	return false;
}

/* Whether some page of the order-k block at p is free: its chunk is whole, a free block of
 * order k or more holds it, or a smaller one lies inside it. */
static bool block_has_free(const struct page_pool_range *r, int k, uint64_t p)
{
	const uint64_t *words = chunk(r, p / CHUNK_PAGES);

	if (tree_test(r, MAX_ORDER, p / CHUNK_PAGES))
		return true;
	for (int j = k; j < MAX_ORDER; j++)
		if (chunk_test(r, j, p & ~((1ULL << j) - 1)))
			return true;
	for (int j = 0; j < k; j++)
		if (chunk_any_of(words, j, (p % CHUNK_PAGES) >> j, 1ULL << (k - j)))
			return true;
	return false;
}

/* Whether some page of [from, to) is free: in each chunk the span touches, the chunk is whole,
 * or a free block of some order overlaps the span (blocks nest or are disjoint, so that is
 * block_has_free of every block the span is made of, at one look per order per chunk). */
static bool span_has_free(const struct page_pool_range *r, uint64_t from, uint64_t to)
{
	while (from < to) {
		uint64_t c = from / CHUNK_PAGES, first = from % CHUNK_PAGES, last;
		uint64_t end = (c + 1) * CHUNK_PAGES < to ? (c + 1) * CHUNK_PAGES : to;
		const uint64_t *words = chunk(r, c);

		last = (end - 1) % CHUNK_PAGES;
		if (tree_test(r, MAX_ORDER, c))
			return true;
		for (int j = 0; j < MAX_ORDER; j++)
			if (chunk_any_of(words, j, first >> j, (last >> j) - (first >> j) + 1))
				return true;
		from = end;
	}
	return false;
}

/* Whether the page at p is free. */
static bool page_is_free(const struct page_pool_range *r, uint64_t p)
{
	return block_has_free(r, 0, p);
}


/* --- the pool ------------------------------------------------------------------------------ */

/* A range's shape: its chunks and its trees' levels. False if the trees would need more than
 * PAGE_POOL_TREE_LEVELS levels. */
static bool range_shape(struct page_pool_range *r, uint64_t start, uint64_t end)
{
	uint64_t nchunks, words, off = 0;

	r->base = start & ~((1ULL << CHUNK_SHIFT) - 1);
	nchunks = (((end - r->base) >> PAGE_SHIFT) + CHUNK_PAGES - 1) / CHUNK_PAGES;
	r->levels = 0;
	words = nchunks;
	do {
		if (r->levels == PAGE_POOL_TREE_LEVELS)
			return false;
		words = (words + 63) / 64;
		r->level_off[r->levels++] = (uint32_t)off;
		off += words;
	} while (words > 1);
	r->tree_words = (uint32_t)off;
	return true;
}

static uint64_t range_chunks(const struct page_pool_range *r)
{
	return (((r->end - r->base) >> PAGE_SHIFT) + CHUNK_PAGES - 1) / CHUNK_PAGES;
}

/* The bookkeeping's size: the trees, then the chunks' words. */
static size_t range_meta_words(const struct page_pool_range *r)
{
	return (size_t)r->tree_words * TREES + (size_t)range_chunks(r) * CHUNK_WORDS;
}

static bool range_is_inline(const struct page_pool_range *r)
{
	return range_chunks(r) <= PAGE_POOL_INLINE_CHUNKS;
}

size_t page_pool_meta_bytes(uint64_t start, uint64_t end)
{
	struct page_pool_range r = { .start = start, .end = end };

	if (start >= end || !range_shape(&r, start, end) || range_is_inline(&r))
		return 0;
	return (range_meta_words(&r) * sizeof(uint64_t) + PAGE_SIZE - 1) & ~PAGE_OFFSET_MASK;
}

void page_pool_init(struct page_pool *pool, uintptr_t virt_offset)
{
	*pool = (struct page_pool){ .virt_offset = virt_offset };
}

/* Zeroes the words of chunks [lo, hi), which hold pages that are not free whole. */
static void chunks_clear(const struct page_pool_range *r, uint64_t lo, uint64_t hi)
{
	for (uint64_t i = lo * CHUNK_WORDS; i < hi * CHUNK_WORDS; i++)
		r->chunks[i] = 0;
}

/* Makes the range's pages free: the chunks they fill whole in the highest order's tree (a
 * word-wise fill per level), the pages of the edge chunks as blocks in those chunks' words. */
static void range_fill(struct page_pool *pool, int ri)
{
	struct page_pool_range *r = &pool->ranges[ri];
	uint64_t a = page_index(r, r->first), b = page_index(r, r->end);
	uint64_t lo = a / CHUNK_PAGES, hi = (b + CHUNK_PAGES - 1) / CHUNK_PAGES;
	uint64_t whole_lo = (a + CHUNK_PAGES - 1) / CHUNK_PAGES, whole_hi = b / CHUNK_PAGES;

	if (a >= b)
		return;
	if (whole_lo >= whole_hi) { /* no whole chunk: one or two chunks' edges */
		chunks_clear(r, lo, hi);
		span_insert(pool, ri, a, b);
		return;
	}
	for (uint64_t lv = 0, l = whole_lo, h = whole_hi; lv < r->levels;
	     lv++, l /= TREE_FANOUT, h = (h - 1) / TREE_FANOUT + 1)
		bits_fill(tree(r, MAX_ORDER) + r->level_off[lv], l, h);
	pool->has_free[MAX_ORDER] |= 1U << ri;
	if (lo < whole_lo) {
		chunks_clear(r, lo, whole_lo);
		span_insert(pool, ri, a, whole_lo * CHUNK_PAGES);
	}
	if (whole_hi < hi) {
		chunks_clear(r, whole_hi, hi);
		span_insert(pool, ri, whole_hi * CHUNK_PAGES, b);
	}
}

int page_pool_add_range(struct page_pool *pool, uint64_t start, uint64_t end)
{
	struct page_pool_range *r, shape = { .start = start, .end = end };
	uint64_t *meta;

	if (start >= end || (start & PAGE_OFFSET_MASK) || (end & PAGE_OFFSET_MASK))
		return -1;
	if (pool->nranges >= PAGE_POOL_MAX_RANGES || !range_shape(&shape, start, end))
		return -1;
	for (int i = 0; i < pool->nranges; i++)
		if (start < pool->ranges[i].end && pool->ranges[i].start < end)
			return -1;

	r = &pool->ranges[pool->nranges];
	*r = shape;
	if (range_is_inline(r)) {
		meta = r->inline_words;
		r->first = start;
	} else {
		meta = (uint64_t *)(uintptr_t)(start + pool->virt_offset);
		r->first = start + page_pool_meta_bytes(start, end);
	}
	/* 0 is "none left": see page_alloc.h. */
	if (r->first == 0)
		r->first = PAGE_SIZE;
	r->trees = meta;
	r->chunks = meta + (size_t)r->tree_words * TREES;
	for (size_t i = 0; i < (size_t)r->tree_words * TREES; i++)
		r->trees[i] = 0;
	range_fill(pool, pool->nranges);
	pool->nranges++;
	pool->nfree += (size_t)((end - r->first) >> PAGE_SHIFT);
	pool->ntotal += (size_t)((end - r->first) >> PAGE_SHIFT);
	return 0;
}

uint64_t page_pool_alloc(struct page_pool *pool)
{
	uint64_t p;
	int ri, k = block_take(pool, false, 0, &ri, &p);

	if (k < 0)
		return 0;
	while (k-- > 0) /* split: the upper halves stay free */
		block_insert(pool, ri, k, p + (1ULL << k));
	pool->nfree--;
	return page_address(&pool->ranges[ri], p);
}

int page_pool_free(struct page_pool *pool, uint64_t pa)
{
	int ri;

	if (pa == 0 || (pa & PAGE_OFFSET_MASK))
		return -1;
	for (ri = 0; ri < pool->nranges; ri++)
		if (pool->ranges[ri].first <= pa && pa < pool->ranges[ri].end)
			break;
	if (ri == pool->nranges || page_is_free(&pool->ranges[ri], page_index(&pool->ranges[ri], pa)))
		return -1;
	block_free(pool, ri, 0, page_index(&pool->ranges[ri], pa));
	pool->nfree++;
	return 0;
}

int page_pool_free_run(struct page_pool *pool, uint64_t pa, size_t pages)
{
	const struct page_pool_range *r;
	uint64_t from, to;
	int ri;

	if (pa == 0 || (pa & PAGE_OFFSET_MASK) || pages == 0)
		return -1;
	for (ri = 0; ri < pool->nranges; ri++)
		if (pool->ranges[ri].first <= pa && pa < pool->ranges[ri].end)
			break;
	if (ri == pool->nranges)
		return -1;
	r = &pool->ranges[ri];
	if (pages > (r->end - pa) >> PAGE_SHIFT)
		return -1; /* beyond the range's end */
	from = page_index(r, pa);
	to = from + pages;
	if (span_has_free(r, from, to))
		return -1; /* every page in use, checked before anything changes */
	for (uint64_t p = from, k; p < to; p += 1ULL << k) {
		k = (uint64_t)span_order(p, to);
		block_free(pool, ri, (int)k, p);
	}
	pool->nfree += pages;
	return 0;
}

uint64_t page_pool_alloc_run(struct page_pool *pool, size_t pages, enum page_pool_use use)
{
	uint64_t p, run;
	int ri, k = 0, j;

	if (pages == 0 || pages > PAGE_POOL_RUN_MAX || pages > pool->nfree)
		return 0;
	while ((1ULL << k) < pages)
		k++;
	j = block_take(pool, use == PAGE_POOL_DMA, k, &ri, &p);
	if (j < 0)
		return 0;
	for (; j > k; j--) { /* split: the lower halves stay free */
		block_insert(pool, ri, j - 1, p);
		p += 1ULL << (j - 1);
	}
	run = p + (1ULL << k) - pages; /* the block's top; its bottom stays free */
	span_insert(pool, ri, p, run);
	pool->nfree -= pages;
	return page_address(&pool->ranges[ri], run);
}
