/* test_page_alloc.c: host unit tests of kernel/mm/page_alloc.c: phys_ranges_subtract() on fixed
 * cases and against a per-page model, and struct page_pool (a buddy allocator) over host arenas
 * whose "physical" addresses are host addresses (virt_offset 0): fixed cases, random single,
 * run and free sequences against a model of which pages are free, and ranges of inaccessible
 * memory (the pool never touches a page it manages). Also: pages full of hostile words (the old
 * pool's poison, free-list links, bookkeeping look-alikes) change no result, freeing in any
 * order merges everything back, every operation does a bounded number of steps on maximally
 * fragmented memory (a run given back at once too), and adding a range writes a few pages of
 * bookkeeping. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sys/mman.h>

#include "mm/page_alloc.h"
#include "host_rng.h"
#include <tacet/abi.h>

/* User space sizes its pages by the ABI's constant; the kernel's must be the same. */
_Static_assert(PAGE_SIZE == TACET_PAGE_SIZE, "kernel/mm's PAGE_SIZE is the ABI's TACET_PAGE_SIZE");

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MIB          (1ULL << 20)
#define OUT_MAX      32

/* QEMU virt with -m 128M: RAM at 2 GiB, OpenSBI's PMP-protected region at its bottom. */
#define QEMU_RAM_BASE    0x80000000ULL
#define QEMU_RAM_SIZE    (128 * MIB)
#define OPENSBI_END      0x80040000ULL
#define KERNEL_START     0x80200000ULL
#define KERNEL_END       0x80236789ULL /* not page aligned: the image's end */
#define DTB_START        0x87ffe800ULL /* QEMU puts the DTB at the top of RAM */

/* Checks one call against the expected ranges (nexp == -1: the call must fail). */
static void check_subtract(const struct phys_range *mem, int nmem, const struct phys_range *resv,
			   int nresv, const struct phys_range *exp, int nexp)
{
	struct phys_range out[OUT_MAX];
	int n = phys_ranges_subtract(mem, nmem, resv, nresv, out, OUT_MAX);

	assert_int_equal(n, nexp);
	for (int i = 0; i < nexp; i++) {
		if (out[i].start != exp[i].start || out[i].end != exp[i].end)
			fail_msg("range %d: got [%#llx, %#llx), expected [%#llx, %#llx)", i,
				 (unsigned long long)out[i].start, (unsigned long long)out[i].end,
				 (unsigned long long)exp[i].start, (unsigned long long)exp[i].end);
	}
	/* Exactly enough room is enough; one less is an error. */
	if (nexp > 0) {
		assert_int_equal(phys_ranges_subtract(mem, nmem, resv, nresv, out, nexp), nexp);
		assert_int_equal(phys_ranges_subtract(mem, nmem, resv, nresv, out, nexp - 1), -1);
	}
}

#define CHECK(mem, resv, exp)                                                         \
	check_subtract(mem, (int)ARRAY_LEN(mem), resv, (int)ARRAY_LEN(resv), exp, \
		       (int)ARRAY_LEN(exp))
#define CHECK_NONE(mem, resv) \
	check_subtract(mem, (int)ARRAY_LEN(mem), resv, (int)ARRAY_LEN(resv), NULL, 0)

static void test_subtract_qemu_virt(void **state)
{
	const struct phys_range mem[] = { { QEMU_RAM_BASE, QEMU_RAM_BASE + QEMU_RAM_SIZE } };
	const struct phys_range resv[] = {
		{ QEMU_RAM_BASE, OPENSBI_END },
		{ KERNEL_START, KERNEL_END },
		{ DTB_START, QEMU_RAM_BASE + QEMU_RAM_SIZE },
	};
	const struct phys_range exp[] = {
		{ OPENSBI_END, KERNEL_START },
		{ 0x80237000, 0x87ffe000 },
	};

	(void)state;
	CHECK(mem, resv, exp);
}

static void test_subtract_no_reservations(void **state)
{
	const struct phys_range mem[] = { { 0x80000123, 0x80005fff } };
	const struct phys_range exp[] = { { 0x80001000, 0x80005000 } };

	(void)state;
	check_subtract(mem, 1, NULL, 0, exp, 1);
	check_subtract(NULL, 0, NULL, 0, NULL, 0);
	check_subtract(NULL, 0, mem, 1, NULL, 0);
}

static void test_subtract_unsorted_overlapping(void **state)
{
	const struct phys_range mem[] = { { 0x1000, 0x20000 } };
	const struct phys_range resv[] = {
		{ 0x8000, 0xa000 }, { 0x3000, 0x5000 }, { 0x12000, 0x12001 },
		{ 0x4000, 0x9000 }, { 0x3000, 0x5000 },
	};
	const struct phys_range exp[] = {
		{ 0x1000, 0x3000 }, { 0xa000, 0x12000 }, { 0x13000, 0x20000 },
	};

	(void)state;
	CHECK(mem, resv, exp);
}

static void test_subtract_covering_all(void **state)
{
	const struct phys_range mem[] = { { 0x80000000, 0x80100000 } };
	const struct phys_range wider[] = { { 0x70000000, 0x90000000 } };
	const struct phys_range same[] = { { 0x80000000, 0x80100000 } };
	const struct phys_range pieces[] = { { 0x80080000, 0x80100000 },
					     { 0x80000000, 0x80080000 } };

	(void)state;
	CHECK_NONE(mem, wider);
	CHECK_NONE(mem, same);
	CHECK_NONE(mem, pieces);
}

static void test_subtract_outside_memory(void **state)
{
	const struct phys_range mem[] = { { 0x80000000, 0x80100000 } };
	const struct phys_range outside[] = { { 0x1000, 0x2000 }, { 0x90000000, 0x91000000 } };
	const struct phys_range exp_all[] = { { 0x80000000, 0x80100000 } };
	const struct phys_range straddle[] = { { 0x7fff0000, 0x80010000 },
					       { 0x800ff800, 0x80200000 } };
	const struct phys_range exp_mid[] = { { 0x80010000, 0x800ff000 } };

	(void)state;
	CHECK(mem, outside, exp_all);
	CHECK(mem, straddle, exp_mid);
}

static void test_subtract_unaligned_edges(void **state)
{
	/* [0x1001, 0x2800) holds no whole page and disappears. */
	const struct phys_range mem[] = { { 0x1001, 0x5fff } };
	const struct phys_range resv[] = { { 0x2800, 0x2801 } };
	const struct phys_range exp[] = { { 0x3000, 0x5000 } };
	/* A one-byte reservation costs its whole page. */
	const struct phys_range mem2[] = { { 0x10000, 0x20000 } };
	const struct phys_range resv2[] = { { 0x14fff, 0x15000 } };
	const struct phys_range exp2[] = { { 0x10000, 0x14000 }, { 0x15000, 0x20000 } };
	/* Less than a page of memory. */
	const struct phys_range tiny[] = { { 0x1800, 0x2400 } };

	(void)state;
	CHECK(mem, resv, exp);
	CHECK(mem2, resv2, exp2);
	check_subtract(tiny, 1, NULL, 0, NULL, 0);
}

static void test_subtract_two_banks(void **state)
{
	/* Given high bank first; a reservation spans the hole between the banks. */
	const struct phys_range mem[] = { { 0x100000000, 0x100200000 },
					  { 0x80000000, 0x80100000 } };
	const struct phys_range resv[] = { { 0x800ff000, 0x100001000 } };
	const struct phys_range exp[] = { { 0x80000000, 0x800ff000 },
					  { 0x100001000, 0x100200000 } };
	const struct phys_range exp_free[] = { { 0x80000000, 0x80100000 },
					       { 0x100000000, 0x100200000 } };

	(void)state;
	CHECK(mem, resv, exp);
	check_subtract(mem, 2, NULL, 0, exp_free, 2);
}

static void test_subtract_merges_banks(void **state)
{
	const struct phys_range adjacent[] = { { 0x3000, 0x5000 }, { 0x1000, 0x3000 } };
	const struct phys_range overlapping[] = { { 0x1000, 0x4000 }, { 0x2000, 0x6000 } };
	/* Merged before shrinking: the page at 0x2000 spans both banks and is whole. */
	const struct phys_range unaligned[] = { { 0x1000, 0x2800 }, { 0x2800, 0x4000 } };
	const struct phys_range exp_adjacent[] = { { 0x1000, 0x5000 } };
	const struct phys_range exp_overlapping[] = { { 0x1000, 0x6000 } };
	const struct phys_range exp_unaligned[] = { { 0x1000, 0x4000 } };

	(void)state;
	check_subtract(adjacent, 2, NULL, 0, exp_adjacent, 1);
	check_subtract(overlapping, 2, NULL, 0, exp_overlapping, 1);
	check_subtract(unaligned, 2, NULL, 0, exp_unaligned, 1);
}

static void test_subtract_empty_inputs(void **state)
{
	/* Empty ranges, in memory or reserved, change nothing, even inside other ranges. */
	const struct phys_range mem[] = { { 0x5000, 0x5000 }, { 0x1000, 0x9000 }, { 0x0, 0x0 } };
	const struct phys_range resv[] = { { 0x2000, 0x2000 }, { 0x2800, 0x2800 } };
	const struct phys_range exp[] = { { 0x1000, 0x9000 } };

	(void)state;
	CHECK(mem, resv, exp);
}

static void test_subtract_extremes(void **state)
{
	/* Memory at 0 and at the very top of the address space: no wrap-around. */
	const struct phys_range low[] = { { 0x0, 0x3000 } };
	const struct phys_range exp_low[] = { { 0x0, 0x3000 } };
	const struct phys_range top[] = { { 0xffffffffffff0000, UINT64_MAX } };
	const struct phys_range exp_top[] = { { 0xffffffffffff0000, 0xfffffffffffff000 } };
	const struct phys_range top_sliver[] = { { 0xfffffffffffff001, UINT64_MAX } };
	const struct phys_range resv_top[] = { { 0xfffffffffffff800, UINT64_MAX } };

	(void)state;
	check_subtract(low, 1, NULL, 0, exp_low, 1);
	check_subtract(top, 1, NULL, 0, exp_top, 1);
	CHECK(top, resv_top, exp_top);
	check_subtract(top_sliver, 1, NULL, 0, NULL, 0);
}

static void test_subtract_too_many(void **state)
{
	struct phys_range mem[] = { { 0x0, 0x10000 } };
	struct phys_range resv[8];
	struct phys_range exp[8];
	struct phys_range out[8];

	(void)state;
	/* Reserve every odd page: eight free single pages. */
	for (int i = 0; i < 8; i++) {
		resv[i] = (struct phys_range){ (2 * i + 1) * PAGE_SIZE, (2 * i + 2) * PAGE_SIZE };
		exp[i] = (struct phys_range){ 2 * i * PAGE_SIZE, (2 * i + 1) * PAGE_SIZE };
	}
	CHECK(mem, resv, exp);
	assert_int_equal(phys_ranges_subtract(mem, 1, resv, 8, out, 7), -1);
	assert_int_equal(phys_ranges_subtract(mem, 1, resv, 8, out, 0), -1);
	assert_int_equal(phys_ranges_subtract(mem, 1, mem, 1, out, 0), 0);
}

static void test_subtract_reversed(void **state)
{
	const struct phys_range good[] = { { 0x1000, 0x9000 } };
	const struct phys_range bad[] = { { 0x1000, 0x9000 }, { 0x5000, 0x4000 } };
	struct phys_range out[OUT_MAX];

	(void)state;
	assert_int_equal(phys_ranges_subtract(bad, 2, good, 1, out, OUT_MAX), -1);
	assert_int_equal(phys_ranges_subtract(good, 1, bad, 2, out, OUT_MAX), -1);
	/* Even a reversed reservation far outside memory is an error. */
	assert_int_equal(phys_ranges_subtract(good, 1, &bad[1], 1, out, OUT_MAX), -1);
}

/* --- randomized comparison with a per-byte model ------------------------------------------ */

#define MODEL_PAGES    24
#define MODEL_BYTES    (MODEL_PAGES * PAGE_SIZE)
#define MODEL_BASE     0x80000000ULL
#define MODEL_SLACK    (2 * PAGE_SIZE) /* reservations may reach this far outside the model */
#define MODEL_ROUNDS   1000
#define MODEL_SEED     0x7ace7ace12345678ULL
#define MAX_MEM        4
#define MAX_RESV       6
#define MAX_RESV_PAGES 3 /* the usual length limit of a random reservation */


/* Half the edges page aligned, since that is where off-by-ones hide. */
static uint64_t random_edge(uint64_t lo, uint64_t hi)
{
	uint64_t v = lo + rng_below(hi - lo + 1);

	if (rng_below(2))
		v &= ~(PAGE_SIZE - 1);
	return v < lo ? lo : v;
}

static struct phys_range random_range(uint64_t lo, uint64_t hi)
{
	uint64_t a = random_edge(lo, hi), b = random_edge(lo, hi);

	if (rng_below(8) == 0)
		b = a; /* empty */
	return a <= b ? (struct phys_range){ a, b } : (struct phys_range){ b, a };
}

/* Reservations are mostly short, like firmware, images and DTBs, so that memory survives. */
static struct phys_range random_reservation(uint64_t lo, uint64_t hi)
{
	uint64_t a, len;

	if (rng_below(4) == 0)
		return random_range(lo, hi);
	a = random_edge(lo, hi);
	len = rng_below(2) ? rng_below(MAX_RESV_PAGES + 1) * PAGE_SIZE :
			     rng_below(MAX_RESV_PAGES * PAGE_SIZE);
	return (struct phys_range){ a, a + len };
}

/* Marks the bytes of r that fall inside the model. */
static void paint(bool *bytes, struct phys_range r)
{
	uint64_t lo = r.start < MODEL_BASE ? MODEL_BASE : r.start;
	uint64_t hi = r.end > MODEL_BASE + MODEL_BYTES ? MODEL_BASE + MODEL_BYTES : r.end;

	if (lo < hi)
		memset(&bytes[lo - MODEL_BASE], true, hi - lo);
}

static void test_subtract_random(void **state)
{
	static bool in_mem[MODEL_BYTES], in_resv[MODEL_BYTES];
	struct phys_range mem[MAX_MEM], resv[MAX_RESV], exp[MODEL_PAGES], out[OUT_MAX];

	(void)state;
	rng_state = MODEL_SEED;
	for (int round = 0; round < MODEL_ROUNDS; round++) {
		int nmem = (int)rng_below(MAX_MEM + 1), nresv = (int)rng_below(MAX_RESV + 1);
		int nexp = 0, n;
		bool in_run = false;

		memset(in_mem, 0, sizeof(in_mem));
		memset(in_resv, 0, sizeof(in_resv));
		for (int i = 0; i < nmem; i++) {
			mem[i] = random_range(MODEL_BASE, MODEL_BASE + MODEL_BYTES);
			paint(in_mem, mem[i]);
		}
		for (int i = 0; i < nresv; i++) {
			resv[i] = random_reservation(MODEL_BASE - MODEL_SLACK,
						     MODEL_BASE + MODEL_BYTES + MODEL_SLACK);
			paint(in_resv, resv[i]);
		}

		/* A page is free when every byte is in memory and none is reserved. */
		for (uint64_t p = 0; p < MODEL_PAGES; p++) {
			bool page_free = true;
			uint64_t pa = MODEL_BASE + p * PAGE_SIZE;

			for (uint64_t b = p * PAGE_SIZE; b < (p + 1) * PAGE_SIZE && page_free; b++)
				page_free = in_mem[b] && !in_resv[b];
			if (page_free && in_run) {
				exp[nexp - 1].end = pa + PAGE_SIZE;
			} else if (page_free) {
				exp[nexp++] = (struct phys_range){ pa, pa + PAGE_SIZE };
			}
			in_run = page_free;
		}

		n = phys_ranges_subtract(mem, nmem, resv, nresv, out, OUT_MAX);
		if (n != nexp)
			fail_msg("round %d: %d ranges, model says %d", round, n, nexp);
		for (int i = 0; i < n; i++)
			if (out[i].start != exp[i].start || out[i].end != exp[i].end)
				fail_msg("round %d range %d: [%#llx, %#llx), model [%#llx, %#llx)",
					 round, i, (unsigned long long)out[i].start,
					 (unsigned long long)out[i].end,
					 (unsigned long long)exp[i].start,
					 (unsigned long long)exp[i].end);
		if (nexp > 0) {
			n = phys_ranges_subtract(mem, nmem, resv, nresv, out, nexp - 1);
			assert_int_equal(n, -1);
		}
	}
}

/* --- page pool ------------------------------------------------------------------------------ */

#define ARENA_PAGES 64
/* The arena's pages [0, 24) and [32, 64) go to the pool; [24, 32) is a hole outside it. */
#define LOW_PAGES   24
#define HIGH_FIRST  32
#define POOL_PAGES  (LOW_PAGES + ARENA_PAGES - HIGH_FIRST)
/* A chunk, the pool's largest block: host memory aligned to it makes the pool's blocks (aligned
 * in "physical" memory, here host addresses) the same wherever the host put the arena. */
#define CHUNK_BYTES (PAGE_POOL_RUN_MAX * PAGE_SIZE)
/* What the old pool kept in the second word of a free page, xored with its address. */
#define OLD_POISON  0x9e3779b97f4a7c15ULL

struct pool_fixture {
	uint8_t *arena;
	struct page_pool pool;
};

static void *chunk_aligned_alloc(size_t bytes)
{
	return aligned_alloc(CHUNK_BYTES, (bytes + CHUNK_BYTES - 1) & ~(CHUNK_BYTES - 1));
}

static uint64_t arena_pa(const struct pool_fixture *f, size_t page)
{
	return (uint64_t)(uintptr_t)f->arena + page * PAGE_SIZE;
}

/* Both ranges lie in one chunk: their bookkeeping is inline, every page is the pool's. */
static int pool_setup(void **state)
{
	struct pool_fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->arena = chunk_aligned_alloc(ARENA_PAGES * PAGE_SIZE);
	if (!f->arena) {
		free(f);
		return -1;
	}
	page_pool_init(&f->pool, 0);
	if (page_pool_add_range(&f->pool, arena_pa(f, 0), arena_pa(f, LOW_PAGES)) < 0 ||
	    page_pool_add_range(&f->pool, arena_pa(f, HIGH_FIRST), arena_pa(f, ARENA_PAGES)) < 0) {
		free(f->arena);
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int pool_teardown(void **state)
{
	struct pool_fixture *f = *state;

	free(f->arena);
	free(f);
	return 0;
}

static bool in_pool_ranges(const struct pool_fixture *f, uint64_t pa)
{
	return (pa >= arena_pa(f, 0) && pa < arena_pa(f, LOW_PAGES)) ||
	       (pa >= arena_pa(f, HIGH_FIRST) && pa < arena_pa(f, ARENA_PAGES));
}

/* Allocates until the pool is empty, checking each page; returns how many it got. */
static size_t alloc_all(struct pool_fixture *f, uint64_t *pages, size_t max)
{
	size_t n = 0;
	uint64_t pa;

	while ((pa = page_pool_alloc(&f->pool)) != 0) {
		assert_true(n < max);
		assert_int_equal(pa % PAGE_SIZE, 0);
		assert_true(in_pool_ranges(f, pa));
		for (size_t i = 0; i < n; i++)
			assert_true(pages[i] != pa);
		/* The whole page is the caller's: ASan checks it lies in the arena. */
		memset((void *)(uintptr_t)pa, (int)n, PAGE_SIZE);
		pages[n++] = pa;
		assert_int_equal(f->pool.nfree, f->pool.ntotal - n);
	}
	assert_int_equal(page_pool_alloc(&f->pool), 0);
	return n;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_pool_alloc_free_all(void **state)
{
	struct pool_fixture *f = *state;
	uint64_t first[POOL_PAGES], again[POOL_PAGES];
	size_t n;

	assert_int_equal(f->pool.ntotal, POOL_PAGES);
	assert_int_equal(f->pool.nfree, POOL_PAGES);
	n = alloc_all(f, first, POOL_PAGES);
	assert_int_equal(n, POOL_PAGES);
	assert_int_equal(f->pool.nfree, 0);

	for (size_t i = 0; i < n; i++)
		assert_int_equal(page_pool_free(&f->pool, first[i]), 0);
	assert_int_equal(f->pool.nfree, POOL_PAGES);

	/* The same pages come back. */
	assert_int_equal(alloc_all(f, again, POOL_PAGES), POOL_PAGES);
	qsort(first, n, sizeof(first[0]), compare_u64);
	qsort(again, n, sizeof(again[0]), compare_u64);
	assert_memory_equal(first, again, sizeof(first));
	assert_int_equal(f->pool.ntotal, POOL_PAGES);
}


/*
 * Single pages: a page of the smallest free block, in the first range that has one, at its
 * lowest address. The fixture's free blocks: [0, 16) and [16, 24) in the low range, [32, 64) in
 * the high one. A page given back is handed out again before a larger block is split (the old
 * pool's LIFO order, as far as a buddy allocator keeps it).
 */
static void test_pool_order(void **state)
{
	struct pool_fixture *f = *state;

	for (size_t i = 16; i < LOW_PAGES; i++)
		assert_int_equal(page_pool_alloc(&f->pool), arena_pa(f, i));
	for (size_t i = 0; i < 16; i++)
		assert_int_equal(page_pool_alloc(&f->pool), arena_pa(f, i));
	assert_int_equal(page_pool_alloc(&f->pool), arena_pa(f, HIGH_FIRST));
	assert_int_equal(page_pool_alloc(&f->pool), arena_pa(f, HIGH_FIRST + 1));
	/* Page 3 (its buddy 2 is out) and page 33 (its buddy 32 is out) come back alone. */
	assert_int_equal(page_pool_free(&f->pool, arena_pa(f, HIGH_FIRST + 1)), 0);
	assert_int_equal(page_pool_free(&f->pool, arena_pa(f, 3)), 0);
	assert_int_equal(page_pool_alloc(&f->pool), arena_pa(f, 3));
	assert_int_equal(page_pool_alloc(&f->pool), arena_pa(f, HIGH_FIRST + 1));
	/* Then [34, 36) is the smallest block: split, its lower half goes out. */
	assert_int_equal(page_pool_alloc(&f->pool), arena_pa(f, HIGH_FIRST + 2));
	assert_int_equal(page_pool_alloc(&f->pool), arena_pa(f, HIGH_FIRST + 3));
	assert_int_equal(page_pool_alloc(&f->pool), arena_pa(f, HIGH_FIRST + 4));
}

/* A rejected free must leave the pool byte for byte as it was. */
static void expect_free_rejected(struct pool_fixture *f, uint64_t pa)
{
	struct page_pool before = f->pool;

	assert_int_equal(page_pool_free(&f->pool, pa), -1);
	assert_memory_equal(&before, &f->pool, sizeof(before));
}

static void test_pool_bad_free(void **state)
{
	struct pool_fixture *f = *state;
	uint64_t pages[POOL_PAGES];
	uint64_t pa = page_pool_alloc(&f->pool);
	size_t nfree = f->pool.nfree;

	assert_true(pa != 0);
	expect_free_rejected(f, pa + 8);
	expect_free_rejected(f, pa + PAGE_SIZE / 2);
	expect_free_rejected(f, arena_pa(f, LOW_PAGES));       /* the hole */
	expect_free_rejected(f, arena_pa(f, HIGH_FIRST - 1));  /* the hole's last page */
	expect_free_rejected(f, arena_pa(f, ARENA_PAGES));     /* just past the end */
	expect_free_rejected(f, arena_pa(f, 0) - PAGE_SIZE);   /* just below the start */
	expect_free_rejected(f, 0);
	assert_int_equal(f->pool.nfree, nfree);

	/* Double free: once fine, twice rejected. */
	assert_int_equal(page_pool_free(&f->pool, pa), 0);
	expect_free_rejected(f, pa);
	/* A page that was never allocated (fresh) is free too: the next one, in either range. */
	expect_free_rejected(f, pa + PAGE_SIZE);
	expect_free_rejected(f, arena_pa(f, LOW_PAGES - 1));
	expect_free_rejected(f, arena_pa(f, HIGH_FIRST));
	expect_free_rejected(f, arena_pa(f, ARENA_PAGES - 1));
	assert_int_equal(f->pool.nfree, nfree + 1);

	/* The list is intact: everything is still there, once. */
	assert_int_equal(alloc_all(f, pages, POOL_PAGES), POOL_PAGES);
}

/* A rejected run free must leave the pool byte for byte as it was. */
static void expect_free_run_rejected(struct pool_fixture *f, uint64_t pa, size_t pages)
{
	struct page_pool before = f->pool;

	assert_int_equal(page_pool_free_run(&f->pool, pa, pages), -1);
	assert_memory_equal(&before, &f->pool, sizeof(before));
}

/* page_pool_free_run refuses, changing nothing, a run with any page free, in the hole, past a
 * range's end or below its start, 0 pages, 0 or unaligned; then takes the same pages back. */
static void test_pool_bad_free_run(void **state)
{
	struct pool_fixture *f = *state;
	struct page_pool fresh = f->pool;
	uint64_t run = page_pool_alloc_run(&f->pool, 8, PAGE_POOL_DMA);
	uint64_t all = page_pool_alloc_run(&f->pool, 32, PAGE_POOL_DMA);

	assert_int_equal(run, arena_pa(f, 16));
	assert_int_equal(all, arena_pa(f, HIGH_FIRST));
	expect_free_run_rejected(f, run, 9);                    /* [16, 25): into the hole */
	expect_free_run_rejected(f, run - PAGE_SIZE, 2);        /* [15, 17): 15 is free */
	expect_free_run_rejected(f, run + PAGE_SIZE, 0);
	expect_free_run_rejected(f, run + 8, 1);
	expect_free_run_rejected(f, 0, 1);
	expect_free_run_rejected(f, arena_pa(f, LOW_PAGES), 1); /* the hole */
	expect_free_run_rejected(f, all, 33);                   /* past the end */
	expect_free_run_rejected(f, all - PAGE_SIZE, 2);        /* from the hole */
	/* the low range's free block [0, 16) inside a span of allocated pages: refused */
	expect_free_run_rejected(f, arena_pa(f, 0), LOW_PAGES);
	assert_int_equal(page_pool_free_run(&f->pool, run + 3 * PAGE_SIZE, 5), 0);
	expect_free_run_rejected(f, run, 4);                    /* [19] went back already */
	assert_int_equal(page_pool_free_run(&f->pool, run, 3), 0);
	assert_int_equal(page_pool_free_run(&f->pool, all, 32), 0);
	assert_int_equal(f->pool.nfree, POOL_PAGES);
	assert_memory_equal(&fresh, &f->pool, sizeof(fresh));
}

/*
 * White box: an allocated page whose second word happens to hold its free poison must still
 * be accepted (the list walk finds it is not free). The poison is learnt from a free page.
 */
static void test_pool_empty(void **state)
{
	struct page_pool pool;
	uint8_t *page = aligned_alloc(PAGE_SIZE, PAGE_SIZE);

	(void)state;
	assert_non_null(page);
	page_pool_init(&pool, 0);
	assert_int_equal(page_pool_alloc(&pool), 0);
	assert_int_equal(page_pool_free(&pool, (uint64_t)(uintptr_t)page), -1);
	assert_int_equal(pool.nfree, 0);
	assert_int_equal(pool.ntotal, 0);
	free(page);
}

static void expect_add_rejected(struct page_pool *pool, uint64_t start, uint64_t end)
{
	struct page_pool before = *pool;

	assert_int_equal(page_pool_add_range(pool, start, end), -1);
	assert_memory_equal(&before, pool, sizeof(before));
}

static void test_pool_add_range_rejects(void **state)
{
	uint8_t *arena = aligned_alloc(PAGE_SIZE, ARENA_PAGES * PAGE_SIZE);
	uint64_t base = (uint64_t)(uintptr_t)arena;
	struct page_pool pool;

	(void)state;
	assert_non_null(arena);
	page_pool_init(&pool, 0);
	expect_add_rejected(&pool, base + 1, base + PAGE_SIZE);
	expect_add_rejected(&pool, base, base + PAGE_SIZE + 1);
	expect_add_rejected(&pool, base, base);
	expect_add_rejected(&pool, base + PAGE_SIZE, base);

	assert_int_equal(page_pool_add_range(&pool, base + 4 * PAGE_SIZE, base + 8 * PAGE_SIZE), 0);
	expect_add_rejected(&pool, base + 4 * PAGE_SIZE, base + 8 * PAGE_SIZE); /* the same */
	expect_add_rejected(&pool, base + 2 * PAGE_SIZE, base + 5 * PAGE_SIZE); /* low end */
	expect_add_rejected(&pool, base + 7 * PAGE_SIZE, base + 9 * PAGE_SIZE); /* high end */
	expect_add_rejected(&pool, base + 5 * PAGE_SIZE, base + 6 * PAGE_SIZE); /* inside */
	expect_add_rejected(&pool, base + 3 * PAGE_SIZE, base + 9 * PAGE_SIZE); /* around */
	/* More than 16 TiB: its trees would need a fifth level (nothing is written to it). */
	expect_add_rejected(&pool, 1ULL << 45, 1ULL << 46);
	assert_int_equal(page_pool_meta_bytes(1ULL << 45, 1ULL << 46), 0);
	/* Touching is not overlapping. */
	assert_int_equal(page_pool_add_range(&pool, base + 8 * PAGE_SIZE, base + 9 * PAGE_SIZE), 0);
	assert_int_equal(page_pool_add_range(&pool, base + 3 * PAGE_SIZE, base + 4 * PAGE_SIZE), 0);
	assert_int_equal(pool.ntotal, 6);

	/* Fill the remaining slots with one page each, then one too many. */
	for (int i = pool.nranges; i < PAGE_POOL_MAX_RANGES; i++) {
		uint64_t pa = base + (uint64_t)(16 + i) * PAGE_SIZE;

		assert_int_equal(page_pool_add_range(&pool, pa, pa + PAGE_SIZE), 0);
	}
	assert_int_equal(pool.nranges, PAGE_POOL_MAX_RANGES);
	expect_add_rejected(&pool, base + 60 * PAGE_SIZE, base + 61 * PAGE_SIZE);
	assert_int_equal(pool.ntotal, 6 + PAGE_POOL_MAX_RANGES - 3);
	assert_int_equal(pool.nfree, pool.ntotal);
	free(arena);
}

/* Physical page 0 is never handed out: the range is accepted, the page is skipped. */
static void test_pool_page_zero(void **state)
{
	uint8_t *arena = aligned_alloc(PAGE_SIZE, 4 * PAGE_SIZE);
	struct page_pool pool;

	(void)state;
	assert_non_null(arena);
	page_pool_init(&pool, (uintptr_t)arena);
	assert_int_equal(page_pool_add_range(&pool, 0, 4 * PAGE_SIZE), 0);
	assert_int_equal(pool.ntotal, 3);
	assert_int_equal(page_pool_alloc(&pool), 1 * PAGE_SIZE);
	assert_int_equal(page_pool_alloc(&pool), 2 * PAGE_SIZE);
	assert_int_equal(page_pool_alloc(&pool), 3 * PAGE_SIZE);
	assert_int_equal(page_pool_alloc(&pool), 0);
	expect_add_rejected(&pool, 0, PAGE_SIZE);
	assert_int_equal(page_pool_free(&pool, 0), -1);
	assert_int_equal(page_pool_free(&pool, 2 * PAGE_SIZE), 0);
	assert_int_equal(pool.nfree, 1);
	free(arena);
}

static void test_pool_exhaustion(void **state)
{
	struct pool_fixture *f = *state;
	uint64_t pages[POOL_PAGES];

	assert_int_equal(alloc_all(f, pages, POOL_PAGES), POOL_PAGES);
	/* Empty stays empty, and changes nothing. */
	for (int i = 0; i < 3; i++) {
		struct page_pool before = f->pool;

		assert_int_equal(page_pool_alloc(&f->pool), 0);
		assert_memory_equal(&before, &f->pool, sizeof(before));
	}
	/* One page back: exactly that page, then empty again. */
	assert_int_equal(page_pool_free(&f->pool, pages[7]), 0);
	assert_int_equal(f->pool.nfree, 1);
	assert_int_equal(page_pool_alloc(&f->pool), pages[7]);
	assert_int_equal(page_pool_alloc(&f->pool), 0);
	assert_int_equal(f->pool.nfree, 0);
	assert_int_equal(f->pool.ntotal, POOL_PAGES);
}


/* --- the pool never touches a page it manages; setting up a range touches little ------------ */

#define GIB           (1ULL << 30)
#define UNTOUCHED_LOW (8 * GIB) /* the first range; then a 4-page hole; then the second */
#define UNTOUCHED_ALL (16 * GIB)
#define UNTOUCHED_GAP (4 * PAGE_SIZE)

/* Makes pages usable: the pool's bookkeeping, before the range is added. */
static void make_accessible(uint64_t pa, size_t len)
{
	assert_int_equal(mprotect((void *)(uintptr_t)pa, len, PROT_READ | PROT_WRITE), 0);
}

/* Adds [start, end) to a pool over memory the pool may not touch (PROT_NONE) but for the
 * bookkeeping it takes from the range's bottom, which is made accessible first. */
static void add_untouchable(struct page_pool *pool, uint64_t start, uint64_t end)
{
	size_t meta = page_pool_meta_bytes(start, end);

	assert_true(meta > 0 && meta % PAGE_SIZE == 0);
	make_accessible(start, meta);
	assert_int_equal(page_pool_add_range(pool, start, end), 0);
	assert_int_equal(pool->ranges[pool->nranges - 1].first, start + meta);
}

/*
 * 16 GiB of address space the pool may not touch (PROT_NONE: any access is a segfault) but for
 * its bookkeeping go into a pool in two ranges: adding them, handing out every page and taking
 * pages back must cost no access to any of them (the old pool wrote a page given back; this
 * one never does). Every page is handed out exactly once.
 */
static void test_pool_touches_no_page(void **state)
{
	void *map = mmap(NULL, UNTOUCHED_ALL + CHUNK_BYTES, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uint64_t base, high, end, first, high_first, npages, pa, n = 0;
	uint64_t *seen;
	struct page_pool pool;

	(void)state;
	if (map == MAP_FAILED)
		skip();
	/* the low range starts 3 pages into a chunk, so that its edges are partial chunks */
	base = (((uint64_t)(uintptr_t)map + CHUNK_BYTES - 1) & ~(CHUNK_BYTES - 1)) + 3 * PAGE_SIZE;
	high = base + UNTOUCHED_LOW + UNTOUCHED_GAP;
	end = base + UNTOUCHED_ALL - 3 * PAGE_SIZE;
	page_pool_init(&pool, 0);
	add_untouchable(&pool, base, base + UNTOUCHED_LOW);
	add_untouchable(&pool, high, end);
	first = pool.ranges[0].first;
	high_first = pool.ranges[1].first;
	npages = (base + UNTOUCHED_LOW - first + end - high_first) / PAGE_SIZE;
	assert_int_equal(pool.ntotal, npages);
	assert_int_equal(pool.nfree, npages);

	/* Free already (never handed out), the bookkeeping, the hole: rejected, nothing read. */
	assert_int_equal(page_pool_free(&pool, first), -1);
	assert_int_equal(page_pool_free(&pool, high_first), -1);
	assert_int_equal(page_pool_free(&pool, end - PAGE_SIZE), -1);
	assert_int_equal(page_pool_free(&pool, base), -1);
	assert_int_equal(page_pool_free(&pool, first - PAGE_SIZE), -1);
	assert_int_equal(page_pool_free(&pool, base + UNTOUCHED_LOW), -1);

	seen = calloc((UNTOUCHED_ALL / PAGE_SIZE + 63) / 64, sizeof(*seen));
	assert_non_null(seen);
	while ((pa = page_pool_alloc(&pool)) != 0) {
		uint64_t i = (pa - base) / PAGE_SIZE;

		if (!((pa >= first && pa < base + UNTOUCHED_LOW) || (pa >= high_first && pa < end)))
			fail_msg("page %#llx is outside the ranges", (unsigned long long)pa);
		if (seen[i / 64] & (1ULL << (i % 64)))
			fail_msg("page %#llx handed out twice", (unsigned long long)pa);
		seen[i / 64] |= 1ULL << (i % 64);
		n++;
	}
	assert_int_equal(n, npages);
	assert_int_equal(pool.nfree, 0);
	/* Given back untouched (still PROT_NONE), then out again. */
	assert_int_equal(page_pool_free(&pool, first + PAGE_SIZE), 0);
	assert_int_equal(page_pool_free(&pool, end - PAGE_SIZE), 0);
	assert_int_equal(page_pool_free(&pool, first + PAGE_SIZE), -1);
	assert_int_equal(page_pool_alloc(&pool), first + PAGE_SIZE);
	assert_int_equal(page_pool_alloc(&pool), end - PAGE_SIZE);
	assert_int_equal(pool.nfree, 0);
	free(seen);
	assert_int_equal(munmap(map, UNTOUCHED_ALL + CHUNK_BYTES), 0);
}

/* The pages of [start, start + len) that are resident: those something has written. */
static size_t resident_pages(uint64_t start, size_t len)
{
	size_t n = len / PAGE_SIZE, count = 0;
	unsigned char *vec = malloc(n);

	assert_non_null(vec);
	assert_int_equal(mincore((void *)(uintptr_t)start, len, vec), 0);
	for (size_t i = 0; i < n; i++)
		count += vec[i] & 1;
	free(vec);
	return count;
}

/*
 * What adding a range costs at boot: its bookkeeping is about 64 KiB per GiB, taken from its
 * bottom, of which page_pool_add_range() writes only the trees (33 words per 64 MiB: a tree per
 * order and chunk class) and the two edge chunks' words: 2 pages for 128 MiB, 4 for 2 GiB, 18
 * for 16 GiB (counted by the host kernel: mincore). The rest of the range is PROT_NONE: a
 * touch would crash.
 */
static void test_pool_add_range_cost(void **state)
{
	static const uint64_t sizes[] = { 128 * MIB, 2 * GIB, 16 * GIB };
	static const size_t written[] = { 2, 4, 18 };

	(void)state;
	for (size_t s = 0; s < ARRAY_LEN(sizes); s++) {
		void *map = mmap(NULL, sizes[s] + CHUNK_BYTES, PROT_NONE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		uint64_t start, end;
		struct page_pool pool;
		size_t meta;

		if (map == MAP_FAILED)
			skip();
		start = (((uint64_t)(uintptr_t)map + CHUNK_BYTES - 1) & ~(CHUNK_BYTES - 1)) +
			5 * PAGE_SIZE;
		end = start + sizes[s] - 8 * PAGE_SIZE;
		meta = page_pool_meta_bytes(start, end);
		/* 64 KiB per GiB of chunk words, plus the trees, in whole pages */
		assert_true(meta <= sizes[s] / MIB * 64 + sizes[s] / MIB / 64 * PAGE_POOL_TREES * 8 +
			    2 * PAGE_SIZE);
		page_pool_init(&pool, 0);
		add_untouchable(&pool, start, end);
		assert_int_equal(resident_pages(start, meta), written[s]);
		/* A page and a chunk handed out: each writes one chunk's words at most. */
		assert_int_not_equal(page_pool_alloc(&pool), 0);
		assert_int_not_equal(page_pool_alloc_run(&pool, PAGE_POOL_RUN_MAX, PAGE_POOL_DMA), 0);
		assert_true(resident_pages(start, meta) <= written[s] + 2);
		print_message("add_range of %llu MiB: %zu bytes of bookkeeping, %zu pages written\n",
			      (unsigned long long)(sizes[s] / MIB), meta, written[s]);
		assert_int_equal(munmap(map, sizes[s] + CHUNK_BYTES), 0);
	}
}

/* --- random alloc/free sequences against a model ------------------------------------------ */

#define MPOOL_PAGES    (3 * PAGE_POOL_RUN_MAX) /* 3 chunks */
#define MPOOL_ROUNDS   100
#define MPOOL_STEPS    1500
#define MPOOL_MAX_SEG  12   /* a range or hole is mostly 1..this many pages */
#define MPOOL_MAX_BIG  600  /* and now and then up to this many: bookkeeping off its bottom */
#define MPOOL_FILL     0xa5 /* the arena's bytes before any use: a fresh page must still hold it */
#define MPOOL_SEED     0x5eed0fa110c8ULL

enum mpage_state { MP_HOLE, MP_META, MP_FREE, MP_ALLOCATED };

/* What the pool should hold, the simple way: a state per page, the ranges (as page indices, in
 * the order they were added), and what each page holds. */
struct pool_model {
	uint8_t *arena;
	struct page_pool pool;
	enum mpage_state state[MPOOL_PAGES];
	int range[MPOOL_PAGES]; /* which range a page is in, -1 in a hole */
	int first[PAGE_POOL_MAX_RANGES], end[PAGE_POOL_MAX_RANGES];
	int nranges;
	size_t nfree, ntotal;
	/* what the owner of each page handed out wrote: a byte, and the first two words */
	bool written[MPOOL_PAGES];
	uint8_t tag[MPOOL_PAGES];
	uint64_t w0[MPOOL_PAGES], w1[MPOOL_PAGES];
};

static uint64_t mpa(const struct pool_model *m, int page)
{
	return (uint64_t)(uintptr_t)m->arena + (uint64_t)page * PAGE_SIZE;
}

static int mpage(const struct pool_model *m, uint64_t pa)
{
	return (int)((pa - (uint64_t)(uintptr_t)m->arena) / PAGE_SIZE);
}

/* Cuts the arena into ranges and holes of random lengths (ranges may touch) and adds the
 * ranges in a random order. A range's bookkeeping, if not inline, takes its lowest pages. */
static void model_layout(struct pool_model *m)
{
	int order[PAGE_POOL_MAX_RANGES], first[PAGE_POOL_MAX_RANGES], end[PAGE_POOL_MAX_RANGES];
	int n = 0;

	for (int p = 0; p < MPOOL_PAGES;) {
		int len = 1 + (int)rng_below(rng_below(4) ? MPOOL_MAX_SEG : MPOOL_MAX_BIG);

		if (p + len > MPOOL_PAGES)
			len = MPOOL_PAGES - p;
		if (n < PAGE_POOL_MAX_RANGES && rng_below(3) != 0) {
			first[n] = p;
			end[n] = p + len;
			order[n] = n;
			n++;
		}
		p += len;
	}
	for (int i = n - 1; i > 0; i--) {
		int j = (int)rng_below((uint64_t)i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (int p = 0; p < MPOOL_PAGES; p++) {
		m->state[p] = MP_HOLE;
		m->range[p] = -1;
		m->written[p] = false;
	}
	for (int i = 0; i < n; i++) {
		int r = order[i];
		size_t meta = page_pool_meta_bytes(mpa(m, first[r]), mpa(m, end[r]));

		assert_int_equal(page_pool_add_range(&m->pool, mpa(m, first[r]), mpa(m, end[r])), 0);
		m->first[i] = first[r] + (int)(meta / PAGE_SIZE);
		m->end[i] = end[r];
		for (int p = first[r]; p < end[r]; p++) {
			m->state[p] = p < m->first[i] ? MP_META : MP_FREE;
			m->range[p] = i;
		}
		m->ntotal += (size_t)(end[r] - m->first[i]);
	}
	m->nranges = n;
	m->nfree = m->ntotal;
}

/* Whether some range has a free block of 2^k pages aligned to 2^k (the arena is a chunk's). */
static bool model_has_block(const struct pool_model *m, int k)
{
	int size = 1 << k;

	for (int i = 0; i < m->nranges; i++) {
		for (int b = (m->first[i] + size - 1) & ~(size - 1); b + size <= m->end[i];
		     b += size) {
			int p = b;

			while (p < b + size && m->state[p] == MP_FREE)
				p++;
			if (p == b + size)
				return true;
		}
	}
	return false;
}

/* A random page in `state`, or -1 if there is none. */
static int model_pick(const struct pool_model *m, enum mpage_state state)
{
	int candidates[MPOOL_PAGES], n = 0;

	for (int p = 0; p < MPOOL_PAGES; p++)
		if (m->state[p] == state)
			candidates[n++] = p;
	return n ? candidates[rng_below((uint64_t)n)] : -1;
}

static void check_page_bytes(const struct pool_model *m, int page, int from, uint8_t byte)
{
	const uint8_t *bytes = (const uint8_t *)(uintptr_t)mpa(m, page);

	for (int i = from; i < (int)PAGE_SIZE; i++)
		if (bytes[i] != byte)
			fail_msg("page %d byte %d: %#x, expected %#x", page, i, bytes[i], byte);
}

/* A page handed out holds what it held: the pool wrote nothing to it, ever. */
static void check_page_untouched(const struct pool_model *m, int page)
{
	const uint64_t *words = (const uint64_t *)(uintptr_t)mpa(m, page);

	if (!m->written[page]) {
		check_page_bytes(m, page, 0, MPOOL_FILL);
		return;
	}
	assert_int_equal(words[0], m->w0[page]);
	assert_int_equal(words[1], m->w1[page]);
	check_page_bytes(m, page, 2 * sizeof(uint64_t), m->tag[page]);
}

/* Takes page `page` (free in the model) out, and its owner writes all of it: now and then its
 * words hold the old pool's poison, or its free-list link. */
static void model_take(struct pool_model *m, int page)
{
	uint64_t pa = mpa(m, page), *words = (uint64_t *)(uintptr_t)pa;

	if (m->state[page] != MP_FREE)
		fail_msg("page %d handed out, the model has it %d", page, m->state[page]);
	check_page_untouched(m, page);
	m->state[page] = MP_ALLOCATED;
	m->nfree--;
	m->written[page] = true;
	m->tag[page] = (uint8_t)rng_next();
	memset(words, m->tag[page], PAGE_SIZE);
	m->w0[page] = words[0] = rng_below(2) ? rng_next() : pa + PAGE_SIZE;
	m->w1[page] = words[1] = rng_below(4) ? rng_next() : pa ^ OLD_POISON;
}

static void model_step_alloc(struct pool_model *m)
{
	uint64_t pa = page_pool_alloc(&m->pool);

	if (m->nfree == 0) {
		assert_int_equal(pa, 0);
		return;
	}
	assert_int_not_equal(pa, 0);
	model_take(m, mpage(m, pa));
}

/* A run: handed out exactly when the model has a free aligned block of its order; its pages
 * lie in one such block of one range. */
static void model_step_run(struct pool_model *m)
{
	size_t pages = 1 + rng_below(rng_below(4) ? 8 : PAGE_POOL_RUN_MAX);
	int k = 0, p;
	uint64_t pa;

	while ((1UL << k) < pages)
		k++;
	pa = page_pool_alloc_run(&m->pool, pages, PAGE_POOL_DMA);
	if (!model_has_block(m, k)) {
		assert_int_equal(pa, 0);
		return;
	}
	if (pa == 0)
		fail_msg("no run of %zu pages; the model has a free block of order %d", pages, k);
	p = mpage(m, pa);
	assert_int_equal(p >> k, (p + (int)pages - 1) >> k);
	for (int i = p; i < p + (int)pages; i++) {
		assert_int_equal(m->range[i], m->range[p]);
		model_take(m, i);
	}
}

static void model_step_free(struct pool_model *m, int page)
{
	check_page_untouched(m, page);
	assert_int_equal(page_pool_free(&m->pool, mpa(m, page)), 0);
	m->state[page] = MP_FREE;
	m->nfree++;
}

static size_t model_meta(const struct pool_model *m, uint64_t *out);

/* A stretch of allocated pages of one range, from a random allocated one up to 300 pages long,
 * given back at once (page_pool_free_run); now and then it reaches one page further, onto a
 * page that is not allocated, and must be refused, changing nothing. */
static void model_step_free_run(struct pool_model *m, int page)
{
	int want = 1 + (int)rng_below(rng_below(4) ? 16 : 300), n = 0;

	while (n < want && page + n < MPOOL_PAGES && m->state[page + n] == MP_ALLOCATED &&
	       m->range[page + n] == m->range[page])
		n++;
	if (n < want && page + n < MPOOL_PAGES && rng_below(3) == 0) {
		struct page_pool before = m->pool;
		size_t nmeta = model_meta(m, NULL);
		uint64_t *meta = calloc(nmeta + 1, sizeof(uint64_t)), *after = calloc(nmeta + 1,
										     sizeof(uint64_t));

		assert_true(meta && after);
		model_meta(m, meta);
		assert_int_equal(page_pool_free_run(&m->pool, mpa(m, page), (size_t)n + 1), -1);
		assert_memory_equal(&before, &m->pool, sizeof(before));
		model_meta(m, after);
		assert_memory_equal(meta, after, nmeta * sizeof(uint64_t));
		free(meta);
		free(after);
	}
	for (int i = page; i < page + n; i++)
		check_page_untouched(m, i);
	assert_int_equal(page_pool_free_run(&m->pool, mpa(m, page), (size_t)n), 0);
	for (int i = page; i < page + n; i++)
		m->state[i] = MP_FREE;
	m->nfree += (size_t)n;
}

/* A free that must be refused and change nothing: a free page, a hole, the bookkeeping, just
 * outside the arena, or an address inside an allocated page. */
static void model_step_bad_free(struct pool_model *m)
{
	static const enum mpage_state pick[] = { MP_FREE, MP_HOLE, MP_META, MP_ALLOCATED };
	struct page_pool before = m->pool;
	uint64_t which = rng_below(5), pa;
	int page;

	if (which == 4) {
		pa = rng_below(2) ? mpa(m, MPOOL_PAGES) : mpa(m, 0) - PAGE_SIZE;
	} else {
		page = model_pick(m, pick[which]);
		pa = page < 0 ? 0 : mpa(m, page);
		if (page >= 0 && pick[which] == MP_ALLOCATED)
			pa += 1 + rng_below(PAGE_SIZE - 1);
	}
	assert_int_equal(page_pool_free(&m->pool, pa), -1);
	assert_memory_equal(&before, &m->pool, sizeof(before));
}

/* The bookkeeping of the ranges that keep it in the arena, as words: the trees, and the words
 * of each chunk that is not whole (a whole chunk's mean nothing: 0 here). Returns the count. */
static size_t model_meta(const struct pool_model *m, uint64_t *out)
{
	size_t n = 0;

	for (int i = 0; i < m->pool.nranges; i++) {
		const struct page_pool_range *r = &m->pool.ranges[i];
		uint64_t nchunks = (r->end - r->base + CHUNK_BYTES - 1) / CHUNK_BYTES;
		const uint64_t *whole = r->trees + PAGE_POOL_MAX_ORDER * r->tree_words;

		if (r->trees == r->inline_words)
			continue; /* compared with the pool itself */
		for (const uint64_t *w = r->trees; w < r->chunks; w++, n++)
			if (out)
				out[n] = *w;
		for (uint64_t c = 0; c < nchunks; c++)
			for (int j = 0; j < PAGE_POOL_CHUNK_WORDS; j++, n++)
				if (out)
					out[n] = whole[c / 64] >> (c % 64) & 1 ?
							 0 :
							 r->chunks[c * PAGE_POOL_CHUNK_WORDS + j];
	}
	return n;
}

static void model_round(struct pool_model *m)
{
	struct page_pool fresh;
	uint64_t *meta_fresh, *meta_now;
	size_t nmeta;
	int page;

	memset(m->arena, MPOOL_FILL, MPOOL_PAGES * PAGE_SIZE);
	page_pool_init(&m->pool, 0);
	m->ntotal = 0;
	model_layout(m);
	assert_int_equal(m->pool.ntotal, m->ntotal);
	fresh = m->pool;
	nmeta = model_meta(m, NULL);
	meta_fresh = calloc(nmeta + 1, sizeof(uint64_t));
	meta_now = calloc(nmeta + 1, sizeof(uint64_t));
	assert_true(meta_fresh && meta_now);
	model_meta(m, meta_fresh);

	for (int step = 0; step < MPOOL_STEPS; step++) {
		uint64_t op = rng_below(20);

		if (op < 8)
			model_step_alloc(m);
		else if (op < 10)
			model_step_run(m);
		else if (op < 15 && (page = model_pick(m, MP_ALLOCATED)) >= 0)
			model_step_free(m, page);
		else if (op < 17 && (page = model_pick(m, MP_ALLOCATED)) >= 0)
			model_step_free_run(m, page);
		else
			model_step_bad_free(m);
		assert_int_equal(m->pool.nfree, m->nfree);
		assert_int_equal(m->pool.ntotal, m->ntotal);
	}

	/* Exhaustion: exactly the model's free pages, then nothing. */
	while (m->nfree)
		model_step_alloc(m);
	assert_int_equal(page_pool_alloc(&m->pool), 0);
	assert_int_equal(m->pool.nfree, 0);
	/* Every page of every range is out once; the holes were never touched. */
	for (int p = 0; p < MPOOL_PAGES; p++) {
		if (m->state[p] == MP_HOLE)
			check_page_bytes(m, p, 0, MPOOL_FILL);
		else if (m->state[p] != MP_META)
			assert_int_equal(m->state[p], MP_ALLOCATED);
	}
	/* And all of them back, in a random order, one by one or in stretches: merged, the pool
	 * is as it was set up. */
	while ((page = model_pick(m, MP_ALLOCATED)) >= 0) {
		if (rng_below(2))
			model_step_free(m, page);
		else
			model_step_free_run(m, page);
	}
	assert_int_equal(m->pool.nfree, m->ntotal);
	assert_memory_equal(&fresh, &m->pool, sizeof(fresh));
	model_meta(m, meta_now);
	assert_memory_equal(meta_fresh, meta_now, nmeta * sizeof(uint64_t));
	free(meta_fresh);
	free(meta_now);
}

static void test_pool_random_model(void **state)
{
	struct pool_model *m = calloc(1, sizeof(*m));

	(void)state;
	assert_non_null(m);
	m->arena = chunk_aligned_alloc(MPOOL_PAGES * PAGE_SIZE);
	assert_non_null(m->arena);
	rng_state = MPOOL_SEED;
	for (int round = 0; round < MPOOL_ROUNDS; round++)
		model_round(m);
	free(m->arena);
	free(m);
}

/* --- contiguous runs ------------------------------------------------------------------------ */

static size_t arena_index(const struct pool_fixture *f, uint64_t pa)
{
	return (size_t)((pa - arena_pa(f, 0)) / PAGE_SIZE);
}

/* A fresh pool hands a run out of the smallest free block that holds it ([16, 24) for 8), and
 * each page goes back with page_pool_free. */
static void test_run_fresh(void **state)
{
	struct pool_fixture *f = *state;
	uint64_t pages[POOL_PAGES];
	uint64_t run = page_pool_alloc_run(&f->pool, 8, PAGE_POOL_DMA);

	assert_int_equal(run, arena_pa(f, 16));
	assert_int_equal(f->pool.nfree, POOL_PAGES - 8);
	memset((void *)(uintptr_t)run, 0xa5, 8 * PAGE_SIZE); /* all the caller's (ASan) */
	/* Nothing of the run is handed out again. */
	size_t n = 0;
	while (n < POOL_PAGES && (pages[n] = page_pool_alloc(&f->pool)) != 0)
		n++;
	assert_int_equal(n, POOL_PAGES - 8);
	assert_int_equal(f->pool.nfree, 0);
	for (size_t i = 0; i < n; i++)
		assert_true(pages[i] < run || pages[i] >= run + 8 * PAGE_SIZE);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(page_pool_free(&f->pool, pages[i]), 0);
	for (size_t i = 0; i < 8; i++)
		assert_int_equal(page_pool_free(&f->pool, run + i * PAGE_SIZE), 0);
	assert_int_equal(f->pool.nfree, POOL_PAGES);
	expect_free_rejected(f, run);
}

/* A run never spans the hole between two ranges, nor asks for 0 or too many pages; it is one
 * aligned block: 24 free pages in a row are no run of 24 unless 32 aligned ones are free. */
static void test_run_limits(void **state)
{
	struct pool_fixture *f = *state;
	struct page_pool before = f->pool;

	assert_int_equal(page_pool_alloc_run(&f->pool, 0, PAGE_POOL_DMA), 0);
	assert_int_equal(page_pool_alloc_run(&f->pool, PAGE_POOL_RUN_MAX + 1, PAGE_POOL_DMA), 0);
	/* the high range has 32 pages, the low one 24: 33 fit nowhere, though 56 are free */
	assert_int_equal(page_pool_alloc_run(&f->pool, ARENA_PAGES - HIGH_FIRST + 1, PAGE_POOL_DMA), 0);
	assert_memory_equal(&before, &f->pool, sizeof(before));
	assert_int_equal(page_pool_alloc_run(&f->pool, ARENA_PAGES - HIGH_FIRST, PAGE_POOL_DMA),
			 arena_pa(f, HIGH_FIRST));
	/* the high range is gone; the low one's 24 pages are blocks of 16 and 8 */
	before = f->pool;
	assert_int_equal(page_pool_alloc_run(&f->pool, LOW_PAGES, PAGE_POOL_DMA), 0);
	assert_int_equal(page_pool_alloc_run(&f->pool, 17, PAGE_POOL_DMA), 0);
	assert_memory_equal(&before, &f->pool, sizeof(before));
	assert_int_equal(page_pool_alloc_run(&f->pool, 16, PAGE_POOL_DMA), arena_pa(f, 0));
	assert_int_equal(page_pool_alloc_run(&f->pool, 8, PAGE_POOL_DMA), arena_pa(f, 16));
	assert_int_equal(f->pool.nfree, 0);
	assert_int_equal(page_pool_alloc_run(&f->pool, 1, PAGE_POOL_DMA), 0);
}

/* Every other page free: single pages but no run of two. */
static void test_run_fragmented(void **state)
{
	struct pool_fixture *f = *state;
	uint64_t pages[POOL_PAGES];
	size_t n = alloc_all(f, pages, POOL_PAGES);

	for (size_t i = 0; i < n; i++)
		if (arena_index(f, pages[i]) % 2 == 0)
			assert_int_equal(page_pool_free(&f->pool, pages[i]), 0);
	assert_int_equal(f->pool.nfree, POOL_PAGES / 2);
	assert_int_equal(page_pool_alloc_run(&f->pool, 2, PAGE_POOL_DMA), 0);
	assert_int_equal(page_pool_alloc_run(&f->pool, 1, PAGE_POOL_DMA), arena_pa(f, ARENA_PAGES - 2));
	assert_int_equal(f->pool.nfree, POOL_PAGES / 2 - 1);
}

/*
 * The smallest block that holds the run is split, the halves it does not need stay free, and
 * the run takes the top of its block: 3 pages from [16, 24) are [21, 24), leaving [16, 20) and
 * [20]. Given back page by page, everything merges: the pool is as it was set up (byte for
 * byte: the buddy allocator's state depends only on which pages are free, and on the class of
 * each chunk that is not whole).
 */
static void test_run_best_fit(void **state)
{
	struct pool_fixture *f = *state;
	struct page_pool fresh = f->pool;
	uint64_t run = page_pool_alloc_run(&f->pool, 3, PAGE_POOL_DMA);

	assert_int_equal(run, arena_pa(f, 21));
	assert_int_equal(f->pool.nfree, POOL_PAGES - 3);
	assert_int_equal(page_pool_alloc(&f->pool), arena_pa(f, 20));
	assert_int_equal(page_pool_alloc_run(&f->pool, 4, PAGE_POOL_DMA), arena_pa(f, 16));
	/* [0, 16) split: [0, 8) stays free, and [8, 16)'s bottom below the run, [8, 10) and [10] */
	assert_int_equal(page_pool_alloc_run(&f->pool, 5, PAGE_POOL_DMA), arena_pa(f, 11));
	assert_int_equal(page_pool_alloc(&f->pool), arena_pa(f, 10));
	for (size_t i = 0; i < 10; i++)
		expect_free_rejected(f, arena_pa(f, i));
	for (size_t i = 10; i < LOW_PAGES; i++)
		assert_int_equal(page_pool_free(&f->pool, arena_pa(f, i)), 0);
	assert_int_equal(f->pool.nfree, POOL_PAGES);
	assert_memory_equal(&fresh, &f->pool, sizeof(fresh));
}

/* Random single allocations, frees and runs against a per-page model: a run is always free
 * and contiguous, and 0 comes exactly when the model has no free aligned block of the run's
 * order (the run's length rounded up to a power of two). */
#define RUN_SEED   0x5eed0f2u
#define RUN_ROUNDS 4000

static bool fixture_has_block(const bool *used, size_t pages)
{
	size_t size = 1;

	while (size < pages)
		size *= 2;
	for (size_t b = 0; b < ARENA_PAGES; b += size) {
		size_t i = b;

		while (i < b + size && !used[i] && (i < LOW_PAGES || i >= HIGH_FIRST))
			i++;
		if (i == b + size)
			return true;
	}
	return false;
}

static void test_run_random(void **state)
{
	struct pool_fixture *f = *state;
	bool used[ARENA_PAGES] = { false };

	rng_state = RUN_SEED;
	for (int round = 0; round < RUN_ROUNDS; round++) {
		size_t op = rng_below(3), pages = 1 + rng_below(12), i = rng_below(ARENA_PAGES);
		uint64_t pa;

		if (op == 0 && used[i]) {
			assert_int_equal(page_pool_free(&f->pool, arena_pa(f, i)), 0);
			used[i] = false;
		} else if (op == 1) {
			pa = page_pool_alloc(&f->pool);
			if (pa)
				used[arena_index(f, pa)] = true;
		} else if (op == 2) {
			bool possible = fixture_has_block(used, pages);

			pa = page_pool_alloc_run(&f->pool, pages, PAGE_POOL_DMA);
			if (!pa) {
				if (possible)
					fail_msg("round %d: no run of %zu, model has one", round,
						 pages);
				continue;
			}
			if (!possible)
				fail_msg("round %d: a run of %zu, the model has no block for it", round,
					 pages);
			for (size_t k = arena_index(f, pa); k < arena_index(f, pa) + pages; k++) {
				if (used[k] || !in_pool_ranges(f, arena_pa(f, k)))
					fail_msg("round %d: run of %zu at page %zu holds page %zu",
						 round, pages, arena_index(f, pa), k);
				used[k] = true;
				/* the owner's data may be anything */
				memset((void *)(uintptr_t)arena_pa(f, k), (int)round, PAGE_SIZE);
			}
		}
	}
	size_t nused = 0;
	for (size_t i = 0; i < ARENA_PAGES; i++)
		nused += used[i];
	assert_int_equal(f->pool.nfree, POOL_PAGES - nused);
}


/* --- hostile page contents -------------------------------------------------------------------- */

#define BIG_ARENA_PAGES (4 * PAGE_POOL_RUN_MAX) /* 4 chunks; the range leaves a few out each end */
#define HOSTILE_SEED    0x4057113ULL
#define HOSTILE_RESULTS 16384

/* The pool and its range in a zeroed 4-chunk arena: [first_page, end_page), its bookkeeping
 * in its lowest page. */
static struct page_pool *big_pool_new(uint8_t **arena, size_t first_page, size_t end_page)
{
	struct page_pool *pool = malloc(sizeof(*pool));

	*arena = chunk_aligned_alloc(BIG_ARENA_PAGES * PAGE_SIZE);
	assert_true(pool && *arena);
	memset(*arena, 0, BIG_ARENA_PAGES * PAGE_SIZE);
	page_pool_init(pool, 0);
	assert_int_equal(page_pool_add_range(pool, (uint64_t)(uintptr_t)*arena + first_page * PAGE_SIZE,
					     (uint64_t)(uintptr_t)*arena + end_page * PAGE_SIZE),
			 0);
	assert_int_equal(pool->ranges[0].first, pool->ranges[0].start + PAGE_SIZE);
	return pool;
}

/*
 * What an owner who knows the pool's layouts could write into its page, in every word: the old
 * pool's poison (pa ^ OLD_POISON), its free-list link and poison in turn, all bits set (as a
 * bookkeeping word that says "all free" would), the pool's own bookkeeping copied over.
 */
static void hostile_fill(const struct page_pool *pool, uint64_t pa, uint64_t pattern)
{
	const struct page_pool_range *r = &pool->ranges[0];
	size_t meta = (size_t)(r->chunks - r->trees) + 4 * PAGE_POOL_CHUNK_WORDS;
	uint64_t *w = (uint64_t *)(uintptr_t)pa;

	for (size_t i = 0; i < PAGE_SIZE / sizeof(uint64_t); i++) {
		switch (pattern % 4) {
		case 0:
			w[i] = pa ^ OLD_POISON;
			break;
		case 1:
			w[i] = i % 2 ? pa ^ OLD_POISON : pa + PAGE_SIZE;
			break;
		case 2:
			w[i] = ~0ULL;
			break;
		default:
			w[i] = r->trees[i % meta];
			break;
		}
	}
}

struct script {
	int64_t out[HOSTILE_RESULTS];
	size_t n;
};

static void record(struct script *s, int64_t v)
{
	assert_true(s->n < HOSTILE_RESULTS);
	s->out[s->n++] = v;
}

static void shuffle(uint64_t *a, size_t n)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)rng_below(i);
		uint64_t t = a[i - 1];

		a[i - 1] = a[j];
		a[j] = t;
	}
}

/* Takes pa (a run of `pages`, 0 for none) for its owner, who writes it: zeroes, or hostile
 * words. Records where it is, as an offset in the arena. */
static void script_take(struct script *s, const struct page_pool *pool, const uint8_t *arena,
			uint64_t pa, size_t pages, bool hostile, uint64_t *later, size_t *nlater)
{
	record(s, pa ? (int64_t)(pa - (uint64_t)(uintptr_t)arena) : -1);
	for (size_t i = 0; pa && i < pages; i++) {
		if (hostile)
			hostile_fill(pool, pa + i * PAGE_SIZE, pa / PAGE_SIZE + i);
		else
			memset((void *)(uintptr_t)(pa + i * PAGE_SIZE), 0, PAGE_SIZE);
		later[(*nlater)++] = pa + i * PAGE_SIZE;
	}
}

/*
 * Everything out a page at a time, each page written; all back in a shuffled order, each freed
 * twice (the second refused), with runs and single pages taken meanwhile; those back too; then
 * as many largest runs as there are. Every address and free count is recorded.
 */
static void hostile_script(struct script *s, bool hostile)
{
	static uint64_t pages[BIG_ARENA_PAGES], later[BIG_ARENA_PAGES];
	uint8_t *arena;
	struct page_pool *pool = big_pool_new(&arena, 2, BIG_ARENA_PAGES - 3);
	size_t n = 0, nlater = 0;
	uint64_t pa;

	rng_state = HOSTILE_SEED;
	s->n = 0;
	while ((pa = page_pool_alloc(pool)) != 0)
		script_take(s, pool, arena, pa, 1, hostile, pages, &n);
	assert_int_equal(n, pool->ntotal);
	shuffle(pages, n);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(page_pool_free(pool, pages[i]), 0);
		assert_int_equal(page_pool_free(pool, pages[i]), -1);
		record(s, (int64_t)pool->nfree);
		if (i % 5 == 1) {
			size_t len = 1 + rng_below(PAGE_POOL_RUN_MAX);

			script_take(s, pool, arena, page_pool_alloc_run(pool, len, PAGE_POOL_DMA), len, hostile,
				    later, &nlater);
		} else if (i % 5 == 3) {
			script_take(s, pool, arena, page_pool_alloc(pool), 1, hostile, later,
				    &nlater);
		}
	}
	shuffle(later, nlater);
	for (size_t i = 0; i < nlater; i++) {
		assert_int_equal(page_pool_free(pool, later[i]), 0);
		assert_int_equal(page_pool_free(pool, later[i]), -1);
		record(s, (int64_t)pool->nfree);
	}
	assert_int_equal(pool->nfree, pool->ntotal);
	while ((pa = page_pool_alloc_run(pool, PAGE_POOL_RUN_MAX, PAGE_POOL_DMA)) != 0)
		record(s, (int64_t)(pa - (uint64_t)(uintptr_t)arena));
	record(s, (int64_t)pool->nfree);
	free(arena);
	free(pool);
}

/*
 * The pool decides nothing from what a page holds: pages full of the old pool's poison, of
 * free-list links, of all-ones or of the pool's own bookkeeping words give exactly the results
 * zeroed pages give, call for call (addresses, free counts, runs), and double frees are
 * refused all the same.
 */
static void test_pool_hostile_content(void **state)
{
	struct script *zeroed = malloc(sizeof(*zeroed)), *hostile = malloc(sizeof(*hostile));

	(void)state;
	assert_true(zeroed && hostile);
	hostile_script(zeroed, false);
	hostile_script(hostile, true);
	assert_int_equal(zeroed->n, hostile->n);
	assert_memory_equal(zeroed->out, hostile->out, zeroed->n * sizeof(zeroed->out[0]));
	/* All back, merged: the two whole chunks are runs of 256 again, the highest first. */
	assert_int_equal(zeroed->out[zeroed->n - 3], 2 * CHUNK_BYTES);
	assert_int_equal(zeroed->out[zeroed->n - 2], 1 * CHUNK_BYTES);
	assert_int_equal(zeroed->out[zeroed->n - 1], BIG_ARENA_PAGES - 6 - 2 * PAGE_POOL_RUN_MAX);
	free(zeroed);
	free(hostile);
}

/* --- coalescing -------------------------------------------------------------------------------- */

/*
 * Everything handed out a page at a time, then given back in a random order (several seeds),
 * half at a time with pages taken again between: merged, the pool and its bookkeeping are byte
 * for byte as they were set up, and the largest runs (every whole chunk's) come out again.
 */
static void test_pool_coalesce_any_order(void **state)
{
	static const uint64_t seeds[] = { 1, 2, 3, 0xc0a1e5ce, 0xdeadbeef, 0x5eed5eed5eedULL };
	static uint64_t pages[BIG_ARENA_PAGES];
	uint8_t *arena;
	struct page_pool *pool = big_pool_new(&arena, 3, BIG_ARENA_PAGES - 5);
	struct page_pool fresh = *pool;
	const uint64_t *meta = pool->ranges[0].trees;
	uint64_t *meta_fresh = malloc(PAGE_SIZE);

	(void)state;
	assert_non_null(meta_fresh);
	memcpy(meta_fresh, meta, PAGE_SIZE);
	for (size_t s = 0; s < ARRAY_LEN(seeds); s++) {
		size_t n = 0, half;
		uint64_t pa;

		rng_state = seeds[s];
		while ((pa = page_pool_alloc(pool)) != 0)
			pages[n++] = pa;
		assert_int_equal(n, fresh.ntotal);
		shuffle(pages, n);
		half = n / 2;
		for (size_t i = 0; i < half; i++)
			assert_int_equal(page_pool_free(pool, pages[i]), 0);
		/* the free half out again, then back in another order */
		for (size_t i = 0; i < half; i++)
			pages[i] = page_pool_alloc(pool);
		assert_int_equal(page_pool_alloc(pool), 0);
		shuffle(pages, n);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(page_pool_free(pool, pages[i]), 0);
		assert_int_equal(pool->nfree, fresh.ntotal);
		assert_memory_equal(&fresh, pool, sizeof(fresh));
		assert_memory_equal(meta_fresh, meta, PAGE_SIZE);

		/* chunks 2 and 1 whole, then the highest free half chunk: [768, 896) of the top one */
		assert_int_equal(page_pool_alloc_run(pool, PAGE_POOL_RUN_MAX, PAGE_POOL_DMA),
				 (uint64_t)(uintptr_t)arena + 2 * CHUNK_BYTES);
		assert_int_equal(page_pool_alloc_run(pool, PAGE_POOL_RUN_MAX, PAGE_POOL_DMA),
				 (uint64_t)(uintptr_t)arena + 1 * CHUNK_BYTES);
		assert_int_equal(page_pool_alloc_run(pool, PAGE_POOL_RUN_MAX, PAGE_POOL_DMA), 0);
		pa = page_pool_alloc_run(pool, PAGE_POOL_RUN_MAX / 2, PAGE_POOL_DMA);
		assert_int_equal(pa, (uint64_t)(uintptr_t)arena + 3 * CHUNK_BYTES);
		for (size_t i = 0; i < PAGE_POOL_RUN_MAX; i++) {
			assert_int_equal(page_pool_free(pool, (uint64_t)(uintptr_t)arena + CHUNK_BYTES +
								     i * PAGE_SIZE), 0);
			assert_int_equal(page_pool_free(pool, (uint64_t)(uintptr_t)arena +
								     2 * CHUNK_BYTES + i * PAGE_SIZE), 0);
		}
		for (size_t i = 0; i < PAGE_POOL_RUN_MAX / 2; i++)
			assert_int_equal(page_pool_free(pool, pa + i * PAGE_SIZE), 0);
		assert_memory_equal(&fresh, pool, sizeof(fresh));
	}
	free(meta_fresh);
	free(arena);
	free(pool);
}

/* --- bounded work ------------------------------------------------------------------------------ */

#define STEP_BOUND 100 /* tree levels L <= 2: alloc <= 9 + 2L + 8 + 8 (4 + L), free alike */

/* A pool of `pages` pages (their memory never touched: only the bookkeeping is) with every
 * other page handed out: as fragmented as memory gets. */
struct frag_pool {
	void *map;
	size_t len;
	uint64_t first;
	struct page_pool pool;
};

/* Host memory for a pool of `pages` (mapped lazily, never touched but by what writes it): the
 * first chunk boundary in it. */
static uint64_t frag_map(struct frag_pool *fp, uint64_t pages)
{
	fp->len = pages * PAGE_SIZE + CHUNK_BYTES;
	fp->map = mmap(NULL, fp->len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	assert_true(fp->map != MAP_FAILED);
	return ((uint64_t)(uintptr_t)fp->map + CHUNK_BYTES - 1) & ~(CHUNK_BYTES - 1);
}

static void frag_setup(struct frag_pool *fp, uint64_t pages)
{
	uint64_t base = frag_map(fp, pages), pa;

	page_pool_init(&fp->pool, 0);
	assert_int_equal(page_pool_add_range(&fp->pool, base, base + pages * PAGE_SIZE), 0);
	fp->first = fp->pool.ranges[0].first; /* the first page at an odd index */
	fp->first += (fp->first - base) / PAGE_SIZE % 2 ? 0 : PAGE_SIZE;
	while ((pa = page_pool_alloc(&fp->pool)) != 0)
		;
	for (pa = fp->first; pa < base + pages * PAGE_SIZE; pa += 2 * PAGE_SIZE)
		assert_int_equal(page_pool_free(&fp->pool, pa), 0);
}

struct frag_steps {
	uint64_t run_max, run_two, alloc, free_back, free_merge, chunk_free, chunk_run,
		chunk_run_free, run_free_worst;
};

static uint64_t steps_since(uint64_t before)
{
	return page_pool_steps - before;
}

/* Measures the work of each operation on a fragmented pool. */
static void frag_measure(struct frag_pool *fp, struct frag_steps *st)
{
	uint64_t s, pa, chunk;
	size_t nfree = fp->pool.nfree;

	s = page_pool_steps;
	assert_int_equal(page_pool_alloc_run(&fp->pool, PAGE_POOL_RUN_MAX, PAGE_POOL_DMA), 0);
	st->run_max = steps_since(s);
	s = page_pool_steps;
	assert_int_equal(page_pool_alloc_run(&fp->pool, 2, PAGE_POOL_DMA), 0);
	st->run_two = steps_since(s);
	s = page_pool_steps;
	pa = page_pool_alloc(&fp->pool);
	st->alloc = steps_since(s);
	assert_int_not_equal(pa, 0);
	s = page_pool_steps;
	assert_int_equal(page_pool_free(&fp->pool, pa), 0);
	st->free_back = steps_since(s);
	/* an allocated page beside a free one: merged once */
	s = page_pool_steps;
	assert_int_equal(page_pool_free(&fp->pool, fp->first + PAGE_SIZE), 0);
	st->free_merge = steps_since(s);
	/* a chunk in the middle given back whole: its last page merges up to the highest order,
	 * and the run search finds it */
	chunk = (fp->first + fp->len / 2) & ~(CHUNK_BYTES - 1);
	for (pa = chunk; pa < chunk + CHUNK_BYTES - 2 * PAGE_SIZE; pa += 2 * PAGE_SIZE)
		assert_int_equal(page_pool_free(&fp->pool, pa), 0);
	s = page_pool_steps;
	assert_int_equal(page_pool_free(&fp->pool, pa), 0);
	st->chunk_free = steps_since(s);
	s = page_pool_steps;
	assert_int_equal(page_pool_alloc_run(&fp->pool, PAGE_POOL_RUN_MAX, PAGE_POOL_DMA), chunk);
	st->chunk_run = steps_since(s);
	assert_int_equal(fp->pool.nfree, nfree + 1 + PAGE_POOL_RUN_MAX / 2 - PAGE_POOL_RUN_MAX);
	/* the chunk back at once (a 256-page frame's end), then out again */
	s = page_pool_steps;
	assert_int_equal(page_pool_free_run(&fp->pool, chunk, PAGE_POOL_RUN_MAX), 0);
	st->chunk_run_free = steps_since(s);
	assert_int_equal(page_pool_alloc_run(&fp->pool, PAGE_POOL_RUN_MAX, PAGE_POOL_DMA), chunk);
	/* the worst run for the walk: 255 pages, one block per order, 8 of them merging with
	 * the free page below (the chunk's first, whose buddy chain the run completes) */
	assert_int_equal(page_pool_free(&fp->pool, chunk), 0);
	s = page_pool_steps;
	assert_int_equal(page_pool_free_run(&fp->pool, chunk + PAGE_SIZE, PAGE_POOL_RUN_MAX - 1),
			 0);
	st->run_free_worst = steps_since(s);
	assert_int_equal(page_pool_alloc_run(&fp->pool, PAGE_POOL_RUN_MAX, PAGE_POOL_DMA), chunk);
	assert_int_equal(fp->pool.nfree, nfree + 1 + PAGE_POOL_RUN_MAX / 2 - PAGE_POOL_RUN_MAX);
}

/*
 * A server scatters the pages it may hold, one a chunk, to leave no 1 MiB run for anyone's DMA
 * (found by a hostile server: 122 pages held that way in 128 MiB, and a driver's 1 MiB DMA
 * allocation failed with 123 MiB free). Each round it takes as many runs as its budget allows,
 * of `run` pages each (a whole chunk each, or half of one), then one page for each run (which,
 * mixed, came from what the run left free in its chunk), then gives the runs back, keeping the
 * pages: kernel pages (page tables its mappings need) or frames. With chunks kept apart by class
 * (page_alloc.h), its pages share a chunk or two and every other chunk stays whole.
 */
#define SCATTER_POOL_PAGES 32768 /* 128 MiB: 128 chunks */
#define SCATTER_BUDGET     2048  /* a server's default budget, in pages */
#define SCATTER_HELD       122

/* `pages` taken for one side, as mm.c takes them: a single page of the low side (a page table,
 * an object cache's) with page_pool_alloc(), anything else as a run. */
static uint64_t take(struct page_pool *pool, enum page_pool_use use, uint64_t pages)
{
	if (use == PAGE_POOL_LOW && pages == 1)
		return page_pool_alloc(pool);
	return page_pool_alloc_run(pool, pages, use);
}

static size_t scatter(struct page_pool *pool, size_t run, enum page_pool_use use, uint64_t *held)
{
	uint64_t runs[SCATTER_BUDGET];
	size_t nheld = 0;

	while (nheld < SCATTER_HELD) {
		size_t nruns = 0;

		while (nruns < SCATTER_HELD - nheld && nheld + (nruns + 1) * (run + 1) <= SCATTER_BUDGET &&
		       (runs[nruns] = page_pool_alloc_run(pool, run, PAGE_POOL_DMA)) != 0)
			nruns++;
		if (!nruns)
			break;
		for (size_t i = 0; i < nruns; i++)
			assert_int_not_equal(held[nheld++] = take(pool, use, 1), 0);
		for (size_t i = 0; i < nruns; i++)
			assert_int_equal(page_pool_free_run(pool, runs[i], run), 0);
	}
	return nheld;
}

/* The 1 MiB runs left, each taken and given back. */
static size_t whole_runs(struct page_pool *pool)
{
	uint64_t runs[SCATTER_POOL_PAGES / PAGE_POOL_RUN_MAX];
	size_t n = 0;

	while ((runs[n] = page_pool_alloc_run(pool, PAGE_POOL_RUN_MAX, PAGE_POOL_DMA)) != 0)
		n++;
	for (size_t i = 0; i < n; i++)
		assert_int_equal(page_pool_free_run(pool, runs[i], PAGE_POOL_RUN_MAX), 0);
	return n;
}

static void test_scatter_keeps_runs(void **state)
{
	static const size_t run_sizes[] = { 129, 128, 2 };
	struct frag_pool *fp = calloc(1, sizeof(*fp));
	uint64_t held[SCATTER_HELD], base;

	(void)state;
	assert_non_null(fp);
	base = frag_map(fp, SCATTER_POOL_PAGES);
	for (size_t s = 0; s < 2 * sizeof(run_sizes) / sizeof(run_sizes[0]); s++) {
		enum page_pool_use use = s % 2 ? PAGE_POOL_DMA : PAGE_POOL_LOW;
		size_t before, after, nheld;

		page_pool_init(&fp->pool, 0);
		assert_int_equal(page_pool_add_range(&fp->pool, base,
						     base + SCATTER_POOL_PAGES * PAGE_SIZE), 0);
		before = whole_runs(&fp->pool);
		nheld = scatter(&fp->pool, run_sizes[s / 2], use, held);
		after = whole_runs(&fp->pool);
		print_message("scatter with runs of %zu, %s pages: %zu held, 1 MiB runs %zu -> %zu\n",
			      run_sizes[s / 2], s % 2 ? "DMA" : "low", nheld, before, after);
		assert_int_equal(nheld, SCATTER_HELD);
		/* its pages in one chunk, or for frames two: what its last runs left free in theirs,
		 * then a fresh one */
		assert_true(after + (use == PAGE_POOL_DMA ? 2 : 1) >= before);
	}
	assert_int_equal(munmap(fp->map, fp->len), 0);
	free(fp);
}

/*
 * Memory's two sides (page_alloc.h, "Chunk classes"): a device told a DMA frame's address with
 * too long a length writes on upward, through DMA frames, never through the low side (the
 * kernel's pages, other frames), while memory is not so full that the two meet. Random pages
 * and runs of the low side and DMA frames of every size are taken and given back, in a 64 MiB
 * pool never more than a quarter full: after each step, the low side lies below every DMA
 * frame. Then memory fills up: each side takes what the other left free (a page of the low
 * side from a DMA chunk) rather than fail while pages are free.
 */
#define ENDS_POOL_PAGES (64 * PAGE_POOL_RUN_MAX)
#define ENDS_STEPS      40000
#define ENDS_HELD       1024

struct held_run {
	uint64_t pa, pages;
};

/* Whether the end of the highest run of the low side lies at or below the lowest DMA frame. */
static bool low_below_dma(const struct held_run *k, size_t nk, const struct held_run *d,
			  size_t nd)
{
	uint64_t top = 0, bottom = UINT64_MAX;

	for (size_t i = 0; i < nk; i++)
		top = k[i].pa + k[i].pages * PAGE_SIZE > top ? k[i].pa + k[i].pages * PAGE_SIZE : top;
	for (size_t i = 0; i < nd; i++)
		bottom = d[i].pa < bottom ? d[i].pa : bottom;
	return top <= bottom;
}

static void test_pool_two_sides(void **state)
{
	static struct held_run held[2][ENDS_HELD];
	struct frag_pool *fp = calloc(1, sizeof(*fp));
	size_t n[2] = { 0, 0 }, in_use = 0;
	uint64_t pa;

	(void)state;
	assert_non_null(fp);
	pa = frag_map(fp, ENDS_POOL_PAGES);
	page_pool_init(&fp->pool, 0);
	assert_int_equal(page_pool_add_range(&fp->pool, pa, pa + ENDS_POOL_PAGES * PAGE_SIZE), 0);
	rng_state = 0xe4d5ULL;
	for (int step = 0; step < ENDS_STEPS; step++) {
		int use = (int)rng_below(2);
		uint64_t pages = rng_below(4) ? 1 + rng_below(8) : 1 + rng_below(PAGE_POOL_RUN_MAX);
		struct held_run *h = held[use];

		if (use == PAGE_POOL_LOW && rng_below(4))
			pages = 1; /* mostly page tables and object caches */
		if (n[use] < ENDS_HELD && in_use + pages <= ENDS_POOL_PAGES / 4 && rng_below(2)) {
			pa = take(&fp->pool, (enum page_pool_use)use, pages);
			assert_int_not_equal(pa, 0);
			h[n[use]++] = (struct held_run){ pa, pages };
			in_use += pages;
		} else if (n[use]) {
			size_t i = (size_t)rng_below(n[use]);

			assert_int_equal(page_pool_free_run(&fp->pool, h[i].pa, h[i].pages), 0);
			in_use -= h[i].pages;
			h[i] = h[--n[use]];
		}
		assert_true(low_below_dma(held[0], n[0], held[1], n[1]));
	}
	/* Full: DMA frames until none is left, then a low page comes from what they left free. */
	while ((pa = page_pool_alloc_run(&fp->pool, 3, PAGE_POOL_DMA)) != 0)
		;
	assert_true(fp->pool.nfree > 0);
	assert_int_not_equal(page_pool_alloc(&fp->pool), 0);
	assert_int_equal(munmap(fp->map, fp->len), 0);
	free(fp);
}

/*
 * The old pool searched a run across every page and walked the free list for it (one 256-page
 * FRAME_NEW took 210 ms on fragmented memory). Here, on pools with every other page free, 2,048
 * or 131,063 free pages, each operation does a few dozen steps (words of bookkeeping read or
 * written), the same on both: a failed run search is a look at 9 masks whatever the memory.
 */
static void test_pool_bounded_work(void **state)
{
	struct frag_pool *small = calloc(1, sizeof(*small)), *big = calloc(1, sizeof(*big));
	struct frag_steps a, b;

	(void)state;
	assert_true(small && big);
	frag_setup(small, 4096);  /* 16 MiB: 16 chunks, trees of one level */
	frag_setup(big, 262144); /* 1 GiB: 1,024 chunks, trees of two levels */
	/* the pages at odd indices are free; the bookkeeping took 1 and 18 pages */
	assert_int_equal(small->pool.nfree, 4096 / 2);
	assert_int_equal(big->pool.nfree, (262144 - 18) / 2);
	frag_measure(small, &a);
	frag_measure(big, &b);
	print_message("steps (2,048 / 131,063 free): run of 256 %llu / %llu, of 2 %llu / %llu, "
		      "alloc %llu / %llu, free %llu / %llu, merging free %llu / %llu, "
		      "last page of a chunk %llu / %llu, its run %llu / %llu, back at once %llu / "
		      "%llu, 255 pages back at once %llu / %llu\n",
		      (unsigned long long)a.run_max, (unsigned long long)b.run_max,
		      (unsigned long long)a.run_two, (unsigned long long)b.run_two,
		      (unsigned long long)a.alloc, (unsigned long long)b.alloc,
		      (unsigned long long)a.free_back, (unsigned long long)b.free_back,
		      (unsigned long long)a.free_merge, (unsigned long long)b.free_merge,
		      (unsigned long long)a.chunk_free, (unsigned long long)b.chunk_free,
		      (unsigned long long)a.chunk_run, (unsigned long long)b.chunk_run,
		      (unsigned long long)a.chunk_run_free, (unsigned long long)b.chunk_run_free,
		      (unsigned long long)a.run_free_worst, (unsigned long long)b.run_free_worst);
	assert_int_equal(a.run_max, b.run_max);
	assert_int_equal(a.run_two, b.run_two);
	assert_true(a.run_max <= PAGE_POOL_TREES && a.run_two <= PAGE_POOL_TREES);
	for (int i = 0; i < 2; i++) {
		const struct frag_steps *st = i ? &b : &a;

		assert_true(st->alloc <= STEP_BOUND && st->free_back <= STEP_BOUND);
		assert_true(st->free_merge <= STEP_BOUND && st->chunk_free <= STEP_BOUND);
		assert_true(st->chunk_run <= STEP_BOUND && st->chunk_run_free <= STEP_BOUND);
		/* one block per order, each checked and freed as one page is */
		assert_true(st->run_free_worst <= PAGE_POOL_ORDERS * STEP_BOUND / 2);
	}
	/* a second tree level costs at most a step per tree operation, nothing else */
	assert_true(b.alloc <= a.alloc + 4 && b.chunk_free <= a.chunk_free + 2 * PAGE_POOL_ORDERS);
	assert_int_equal(munmap(small->map, small->len), 0);
	assert_int_equal(munmap(big->map, big->len), 0);
	free(small);
	free(big);
}

#define POOL_TEST(fn) cmocka_unit_test_setup_teardown(fn, pool_setup, pool_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subtract_qemu_virt),
		cmocka_unit_test(test_subtract_no_reservations),
		cmocka_unit_test(test_subtract_unsorted_overlapping),
		cmocka_unit_test(test_subtract_covering_all),
		cmocka_unit_test(test_subtract_outside_memory),
		cmocka_unit_test(test_subtract_unaligned_edges),
		cmocka_unit_test(test_subtract_two_banks),
		cmocka_unit_test(test_subtract_merges_banks),
		cmocka_unit_test(test_subtract_empty_inputs),
		cmocka_unit_test(test_subtract_extremes),
		cmocka_unit_test(test_subtract_too_many),
		cmocka_unit_test(test_subtract_reversed),
		cmocka_unit_test(test_subtract_random),
		POOL_TEST(test_pool_alloc_free_all),
		POOL_TEST(test_pool_order),
		POOL_TEST(test_pool_bad_free),
		POOL_TEST(test_pool_bad_free_run),
		cmocka_unit_test(test_pool_empty),
		cmocka_unit_test(test_pool_add_range_rejects),
		cmocka_unit_test(test_pool_page_zero),
		POOL_TEST(test_pool_exhaustion),
		cmocka_unit_test(test_pool_touches_no_page),
		cmocka_unit_test(test_pool_add_range_cost),
		POOL_TEST(test_run_fresh),
		POOL_TEST(test_run_limits),
		POOL_TEST(test_run_fragmented),
		POOL_TEST(test_run_best_fit),
		POOL_TEST(test_run_random),
		cmocka_unit_test(test_pool_random_model),
		cmocka_unit_test(test_pool_hostile_content),
		cmocka_unit_test(test_pool_coalesce_any_order),
		cmocka_unit_test(test_pool_bounded_work),
		cmocka_unit_test(test_scatter_keeps_runs),
		cmocka_unit_test(test_pool_two_sides),
	};

	return cmocka_run_group_tests_name("page_alloc", tests, NULL, NULL);
}
