/* test_page_alloc.c: host unit tests of kernel/mm/page_alloc.c: phys_ranges_subtract() on fixed
 * cases and against a per-page model, and struct page_pool over a host arena whose "physical"
 * addresses are host addresses (virt_offset 0): fixed cases, random alloc/free sequences against
 * a model, and ranges of inaccessible memory (the pool must not touch a page before handing it
 * out). */
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

struct pool_fixture {
	uint8_t *arena;
	struct page_pool pool;
};

static uint64_t arena_pa(const struct pool_fixture *f, size_t page)
{
	return (uint64_t)(uintptr_t)f->arena + page * PAGE_SIZE;
}

static int pool_setup(void **state)
{
	struct pool_fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->arena = aligned_alloc(PAGE_SIZE, ARENA_PAGES * PAGE_SIZE);
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

static void test_pool_order(void **state)
{
	struct pool_fixture *f = *state;
	uint64_t a, b;

	/* Fresh pages: the first range added first, in ascending order, then the next range. */
	for (size_t i = 0; i < LOW_PAGES; i++)
		assert_int_equal(page_pool_alloc(&f->pool), arena_pa(f, i));
	assert_int_equal(page_pool_alloc(&f->pool), arena_pa(f, HIGH_FIRST));
	assert_int_equal(page_pool_alloc(&f->pool), arena_pa(f, HIGH_FIRST + 1));
	a = page_pool_alloc(&f->pool);
	b = page_pool_alloc(&f->pool);
	/* LIFO: the last page freed is the next allocated, before any fresh page. */
	assert_int_equal(page_pool_free(&f->pool, a), 0);
	assert_int_equal(page_pool_free(&f->pool, b), 0);
	assert_int_equal(page_pool_free(&f->pool, arena_pa(f, 3)), 0);
	assert_int_equal(page_pool_alloc(&f->pool), arena_pa(f, 3));
	assert_int_equal(page_pool_alloc(&f->pool), b);
	assert_int_equal(page_pool_alloc(&f->pool), a);
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

/*
 * White box: an allocated page whose second word happens to hold its free poison must still
 * be accepted (the list walk finds it is not free). The poison is learnt from a free page.
 */
static void test_pool_poison_by_chance(void **state)
{
	struct pool_fixture *f = *state;
	uint64_t victim = page_pool_alloc(&f->pool), probe = page_pool_alloc(&f->pool);
	uint64_t poison;

	assert_int_equal(page_pool_free(&f->pool, probe), 0);
	poison = ((uint64_t *)(uintptr_t)probe)[1] ^ probe;
	((uint64_t *)(uintptr_t)victim)[1] = victim ^ poison;
	assert_int_equal(page_pool_free(&f->pool, victim), 0);
	assert_int_equal(f->pool.nfree, POOL_PAGES);
	expect_free_rejected(f, victim);
}

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

/* --- the pool touches a page only once it has handed it out ---------------------------------- */

#define GIB           (1ULL << 30)
#define UNTOUCHED_LOW (8 * GIB) /* the first range; then a 4-page hole; then the second */
#define UNTOUCHED_ALL (16 * GIB)
#define UNTOUCHED_GAP (4 * PAGE_SIZE)

/* Makes pages usable as their owner would once they are handed out. */
static void make_accessible(uint64_t pa, size_t len)
{
	assert_int_equal(mprotect((void *)(uintptr_t)pa, len, PROT_READ | PROT_WRITE), 0);
}

/*
 * 16 GiB of address space the pool may not touch (PROT_NONE: any access is a segfault) go into
 * a pool in two ranges: adding them must cost no access at all, nor must handing out a page;
 * only a page given back (now the caller's, so accessible) is written. Without the lazy fresh
 * marks this crashes in page_pool_add_range(); it also shows that adding 4 Mi pages is instant.
 */
static void test_pool_touches_no_fresh_page(void **state)
{
	const uint64_t npages = (UNTOUCHED_ALL - UNTOUCHED_GAP) / PAGE_SIZE;
	void *map = mmap(NULL, UNTOUCHED_ALL, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uint64_t base, high, pa;
	struct page_pool pool;

	(void)state;
	if (map == MAP_FAILED)
		skip();
	base = (uint64_t)(uintptr_t)map;
	high = base + UNTOUCHED_LOW + UNTOUCHED_GAP;
	page_pool_init(&pool, 0);
	assert_int_equal(page_pool_add_range(&pool, base, base + UNTOUCHED_LOW), 0);
	assert_int_equal(page_pool_add_range(&pool, high, base + UNTOUCHED_ALL), 0);
	assert_int_equal(pool.ntotal, npages);
	assert_int_equal(pool.nfree, npages);

	for (uint64_t i = 0; i < 3; i++)
		assert_int_equal(page_pool_alloc(&pool), base + i * PAGE_SIZE);
	assert_int_equal(pool.nfree, npages - 3);
	/* Never handed out, so free already: rejected without a look at the page. */
	assert_int_equal(page_pool_free(&pool, base + 3 * PAGE_SIZE), -1);
	assert_int_equal(page_pool_free(&pool, high), -1);
	assert_int_equal(page_pool_free(&pool, base + UNTOUCHED_ALL - PAGE_SIZE), -1);
	assert_int_equal(page_pool_free(&pool, base + UNTOUCHED_LOW), -1); /* the hole */

	make_accessible(base + PAGE_SIZE, PAGE_SIZE);
	assert_int_equal(page_pool_free(&pool, base + PAGE_SIZE), 0);
	assert_int_equal(page_pool_alloc(&pool), base + PAGE_SIZE);
	assert_int_equal(page_pool_alloc(&pool), base + 3 * PAGE_SIZE);

	/* The rest of the first range, then across the hole to the second. */
	for (uint64_t i = 4; i < UNTOUCHED_LOW / PAGE_SIZE; i++) {
		pa = page_pool_alloc(&pool);
		if (pa != base + i * PAGE_SIZE)
			fail_msg("page %llu of the first range: got %#llx", (unsigned long long)i,
				 (unsigned long long)pa);
	}
	assert_int_equal(page_pool_alloc(&pool), high);
	assert_int_equal(pool.nfree, npages - UNTOUCHED_LOW / PAGE_SIZE - 1);
	assert_int_equal(munmap(map, UNTOUCHED_ALL), 0);
}

/* --- random alloc/free sequences against a model ------------------------------------------ */

#define MPOOL_PAGES    96
#define MPOOL_ROUNDS   300
#define MPOOL_STEPS    600
#define MPOOL_MAX_SEG  12   /* a range or hole is 1..this many pages */
#define MPOOL_FILL     0xa5 /* the arena's bytes before any use: a fresh page must still hold it */
#define MPOOL_SEED     0x5eed0fa110c8ULL

enum mpage_state { MP_HOLE, MP_FRESH, MP_LISTED, MP_ALLOCATED };

/* What the pool should hold, the simple way: a state per page, the ranges (as page indices, in
 * the order they were added) with their fresh marks, the pages given back as a stack. */
struct pool_model {
	uint8_t *arena;
	struct page_pool pool;
	enum mpage_state state[MPOOL_PAGES];
	int first[PAGE_POOL_MAX_RANGES], end[PAGE_POOL_MAX_RANGES], fresh[PAGE_POOL_MAX_RANGES];
	int nranges;
	int stack[MPOOL_PAGES], nstack;
	size_t nfree, ntotal;
	/* what the owner of each allocated page wrote: a byte, and the first two words */
	uint8_t tag[MPOOL_PAGES];
	uint64_t w0[MPOOL_PAGES], w1[MPOOL_PAGES];
};

static uint64_t mpa(const struct pool_model *m, int page)
{
	return (uint64_t)(uintptr_t)m->arena + (uint64_t)page * PAGE_SIZE;
}

/* The free-list poison xor, learnt from a page given back to a small pool (it is private to
 * page_alloc.c): owners' data may hold it by chance, which the pool must survive. */
static uint64_t learn_poison(void)
{
	uint64_t *page = aligned_alloc(PAGE_SIZE, PAGE_SIZE), pa = (uint64_t)(uintptr_t)page;
	struct page_pool pool;
	uint64_t poison;

	assert_non_null(page);
	page_pool_init(&pool, 0);
	assert_int_equal(page_pool_add_range(&pool, pa, pa + PAGE_SIZE), 0);
	assert_int_equal(page_pool_alloc(&pool), pa);
	assert_int_equal(page_pool_free(&pool, pa), 0);
	poison = page[1] ^ pa;
	free(page);
	return poison;
}

/* Cuts the arena into ranges and holes of random lengths (ranges may touch) and adds the
 * ranges in a random order. */
static void model_layout(struct pool_model *m)
{
	int order[PAGE_POOL_MAX_RANGES], first[PAGE_POOL_MAX_RANGES], end[PAGE_POOL_MAX_RANGES];
	int n = 0;

	for (int p = 0; p < MPOOL_PAGES;) {
		int len = 1 + (int)rng_below(MPOOL_MAX_SEG);

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
	for (int p = 0; p < MPOOL_PAGES; p++)
		m->state[p] = MP_HOLE;
	for (int i = 0; i < n; i++) {
		int r = order[i];

		assert_int_equal(page_pool_add_range(&m->pool, mpa(m, first[r]), mpa(m, end[r])), 0);
		m->first[i] = m->fresh[i] = first[r];
		m->end[i] = end[r];
		for (int p = first[r]; p < end[r]; p++)
			m->state[p] = MP_FRESH;
		m->ntotal += (size_t)(end[r] - first[r]);
	}
	m->nranges = n;
	m->nfree = m->ntotal;
}

/* The page the pool must hand out next, or -1. */
static int model_alloc(struct pool_model *m)
{
	if (m->nstack)
		return m->stack[--m->nstack];
	for (int i = 0; i < m->nranges; i++)
		if (m->fresh[i] < m->end[i])
			return m->fresh[i]++;
	return -1;
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

static void model_step_alloc(struct pool_model *m, uint64_t poison)
{
	int want = model_alloc(m);
	uint64_t pa = page_pool_alloc(&m->pool), *words;

	if (want < 0) {
		assert_int_equal(pa, 0);
		return;
	}
	if (pa != mpa(m, want))
		fail_msg("alloc: %#llx, the model says page %d (%#llx)", (unsigned long long)pa,
			 want, (unsigned long long)mpa(m, want));
	/* A page the pool never handed out is as the arena began: the pool did not touch it. */
	if (m->state[want] == MP_FRESH)
		check_page_bytes(m, want, 0, MPOOL_FILL);
	m->state[want] = MP_ALLOCATED;
	m->nfree--;
	/* The owner writes all of it; now and then its second word looks like free-list poison. */
	m->tag[want] = (uint8_t)rng_next();
	memset((void *)(uintptr_t)pa, m->tag[want], PAGE_SIZE);
	words = (uint64_t *)(uintptr_t)pa;
	m->w0[want] = words[0] = rng_below(2) ? rng_next() : 0;
	m->w1[want] = words[1] = rng_below(4) ? rng_next() : pa ^ poison;
}

static void model_step_free(struct pool_model *m, int page)
{
	const uint64_t *words = (const uint64_t *)(uintptr_t)mpa(m, page);

	/* Nothing wrote to the page while it was the owner's. */
	assert_int_equal(words[0], m->w0[page]);
	assert_int_equal(words[1], m->w1[page]);
	check_page_bytes(m, page, 2 * sizeof(uint64_t), m->tag[page]);
	assert_int_equal(page_pool_free(&m->pool, mpa(m, page)), 0);
	m->state[page] = MP_LISTED;
	m->stack[m->nstack++] = page;
	m->nfree++;
}

/* A free that must be refused and change nothing: a free page (fresh or given back), a hole,
 * just outside the arena, or an address inside an allocated page. */
static void model_step_bad_free(struct pool_model *m)
{
	struct page_pool before = m->pool;
	uint64_t pa;
	int page;

	switch (rng_below(5)) {
	case 0:
		page = model_pick(m, MP_FRESH);
		pa = page < 0 ? 0 : mpa(m, page);
		break;
	case 1:
		page = model_pick(m, MP_LISTED);
		pa = page < 0 ? 0 : mpa(m, page);
		break;
	case 2:
		page = model_pick(m, MP_HOLE);
		pa = page < 0 ? 0 : mpa(m, page);
		break;
	case 3:
		pa = rng_below(2) ? mpa(m, MPOOL_PAGES) : mpa(m, 0) - PAGE_SIZE;
		break;
	default:
		page = model_pick(m, MP_ALLOCATED);
		pa = page < 0 ? 0 : mpa(m, page) + 1 + rng_below(PAGE_SIZE - 1);
		break;
	}
	assert_int_equal(page_pool_free(&m->pool, pa), -1);
	assert_memory_equal(&before, &m->pool, sizeof(before));
}

static void model_round(struct pool_model *m, uint64_t poison)
{
	int page;

	memset(m->arena, MPOOL_FILL, MPOOL_PAGES * PAGE_SIZE);
	page_pool_init(&m->pool, 0);
	m->nstack = 0;
	m->ntotal = 0;
	model_layout(m);
	assert_int_equal(m->pool.ntotal, m->ntotal);

	for (int step = 0; step < MPOOL_STEPS; step++) {
		uint64_t op = rng_below(20);

		if (op < 9)
			model_step_alloc(m, poison);
		else if (op < 16 && (page = model_pick(m, MP_ALLOCATED)) >= 0)
			model_step_free(m, page);
		else
			model_step_bad_free(m);
		assert_int_equal(m->pool.nfree, m->nfree);
		assert_int_equal(m->pool.ntotal, m->ntotal);
	}

	/* Exhaustion: exactly the model's free pages, then nothing. */
	while (m->nfree)
		model_step_alloc(m, poison);
	assert_int_equal(page_pool_alloc(&m->pool), 0);
	assert_int_equal(m->pool.nfree, 0);
	/* Every page of every range is out once; the holes were never touched. */
	for (int p = 0; p < MPOOL_PAGES; p++) {
		if (m->state[p] == MP_HOLE)
			check_page_bytes(m, p, 0, MPOOL_FILL);
		else
			assert_int_equal(m->state[p], MP_ALLOCATED);
	}
	/* And all of them back. */
	while ((page = model_pick(m, MP_ALLOCATED)) >= 0)
		model_step_free(m, page);
	assert_int_equal(m->pool.nfree, m->ntotal);
}

static void test_pool_random_model(void **state)
{
	struct pool_model *m = calloc(1, sizeof(*m));
	uint64_t poison = learn_poison();

	(void)state;
	assert_non_null(m);
	m->arena = aligned_alloc(PAGE_SIZE, MPOOL_PAGES * PAGE_SIZE);
	assert_non_null(m->arena);
	rng_state = MPOOL_SEED;
	for (int round = 0; round < MPOOL_ROUNDS; round++)
		model_round(m, poison);
	free(m->arena);
	free(m);
}

/* --- contiguous runs ------------------------------------------------------------------------ */

static size_t arena_index(const struct pool_fixture *f, uint64_t pa)
{
	return (size_t)((pa - arena_pa(f, 0)) / PAGE_SIZE);
}

/* A fresh pool hands out the top of its last range's fresh window (single pages come from its
 * bottom), and each page goes back with page_pool_free. */
static void test_run_fresh(void **state)
{
	struct pool_fixture *f = *state;
	uint64_t pages[POOL_PAGES];
	uint64_t run = page_pool_alloc_run(&f->pool, 8);

	assert_int_equal(run, arena_pa(f, ARENA_PAGES - 8));
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

/* A run never spans the hole between two ranges, nor asks for 0 or too many pages. */
static void test_run_limits(void **state)
{
	struct pool_fixture *f = *state;
	struct page_pool before = f->pool;

	assert_int_equal(page_pool_alloc_run(&f->pool, 0), 0);
	assert_int_equal(page_pool_alloc_run(&f->pool, PAGE_POOL_RUN_MAX + 1), 0);
	/* the high range has 32 pages, the low one 24: 33 fit nowhere, though 56 are free */
	assert_int_equal(page_pool_alloc_run(&f->pool, ARENA_PAGES - HIGH_FIRST + 1), 0);
	assert_memory_equal(&before, &f->pool, sizeof(before));
	assert_int_equal(page_pool_alloc_run(&f->pool, ARENA_PAGES - HIGH_FIRST),
			 arena_pa(f, HIGH_FIRST));
	/* the high range is gone: the next run comes from the low one */
	assert_int_equal(page_pool_alloc_run(&f->pool, LOW_PAGES), arena_pa(f, 0));
	assert_int_equal(f->pool.nfree, 0);
	assert_int_equal(page_pool_alloc_run(&f->pool, 1), 0);
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
	assert_int_equal(page_pool_alloc_run(&f->pool, 2), 0);
	assert_int_equal(page_pool_alloc_run(&f->pool, 1), arena_pa(f, ARENA_PAGES - 2));
	assert_int_equal(f->pool.nfree, POOL_PAGES / 2 - 1);
}

/* An allocated page whose data holds its free poison looks free: the list says otherwise, and
 * the search goes on below it. */
static void test_run_poison_by_chance(void **state)
{
	struct pool_fixture *f = *state;
	const size_t victim_index = ARENA_PAGES - 8;
	uint64_t pages[POOL_PAGES], victim = arena_pa(f, victim_index), poison = 0;
	size_t n = alloc_all(f, pages, POOL_PAGES);

	for (size_t i = 0; i < n; i++) {
		if (pages[i] < arena_pa(f, HIGH_FIRST) || pages[i] == victim)
			continue;
		assert_int_equal(page_pool_free(&f->pool, pages[i]), 0);
		poison = ((uint64_t *)(uintptr_t)pages[i])[1] ^ pages[i];
	}
	((uint64_t *)(uintptr_t)victim)[1] = victim ^ poison;
	/* [48, 64) looks free but holds the victim; [40, 56) is the highest real run */
	assert_int_equal(page_pool_alloc_run(&f->pool, 16), arena_pa(f, victim_index - 16));
	/* left free: [32, 40) and [57, 64): seven pages above the victim, eight below */
	assert_int_equal(page_pool_alloc_run(&f->pool, 9), 0);
	assert_int_equal(page_pool_alloc_run(&f->pool, 8), arena_pa(f, HIGH_FIRST));
	assert_int_equal(page_pool_alloc_run(&f->pool, 7), arena_pa(f, victim_index + 1));
	assert_int_equal(f->pool.nfree, 0);
	assert_int_equal(page_pool_free(&f->pool, victim), 0); /* it was never taken */
}

/* Random single allocations, frees and runs against a per-page model: a run is always free
 * and contiguous, and 0 comes only when the model has no free run that long. */
#define RUN_SEED   0x5eed0f2u
#define RUN_ROUNDS 4000

static bool model_has_run(const bool *used, size_t pages)
{
	size_t run = 0;

	for (size_t i = 0; i < ARENA_PAGES; i++) {
		bool ok = !used[i] && (i < LOW_PAGES || i >= HIGH_FIRST);

		run = ok ? run + 1 : 0;
		if (run >= pages)
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
			bool possible = model_has_run(used, pages);

			pa = page_pool_alloc_run(&f->pool, pages);
			if (!pa) {
				if (possible)
					fail_msg("round %d: no run of %zu, model has one", round,
						 pages);
				continue;
			}
			for (size_t k = arena_index(f, pa); k < arena_index(f, pa) + pages; k++) {
				if (used[k] || !in_pool_ranges(f, arena_pa(f, k)))
					fail_msg("round %d: run of %zu at page %zu holds page %zu",
						 round, pages, arena_index(f, pa), k);
				used[k] = true;
				/* the owner's data may be anything, even the poison */
				memset((void *)(uintptr_t)arena_pa(f, k), (int)round, PAGE_SIZE);
			}
		}
	}
	size_t nused = 0;
	for (size_t i = 0; i < ARENA_PAGES; i++)
		nused += used[i];
	assert_int_equal(f->pool.nfree, POOL_PAGES - nused);
}

/* A run may take fresh pages and pages given back beside them: singles took the high range's
 * first 8 (bottom of its window) and gave back the 8th; a run of 25 is that page and the whole
 * rest of the window; the window is empty afterwards. */
static void test_run_straddles_the_window(void **state)
{
	struct pool_fixture *f = *state;
	for (size_t i = 0; i < LOW_PAGES + 8; i++) /* the low range, then 8 of the high */
		assert_int_not_equal(page_pool_alloc(&f->pool), 0);
	assert_int_equal(page_pool_free(&f->pool, arena_pa(f, HIGH_FIRST + 7)), 0);
	assert_int_equal(page_pool_alloc_run(&f->pool, ARENA_PAGES - HIGH_FIRST - 7),
			 arena_pa(f, HIGH_FIRST + 7));
	assert_int_equal(f->pool.nfree, 0);
	assert_int_equal(page_pool_alloc(&f->pool), 0);
	for (size_t i = HIGH_FIRST + 7; i < ARENA_PAGES; i++)
		assert_int_equal(page_pool_free(&f->pool, arena_pa(f, i)), 0);
	assert_int_equal(f->pool.nfree, ARENA_PAGES - HIGH_FIRST - 7);
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
		POOL_TEST(test_pool_poison_by_chance),
		cmocka_unit_test(test_pool_empty),
		cmocka_unit_test(test_pool_add_range_rejects),
		cmocka_unit_test(test_pool_page_zero),
		POOL_TEST(test_pool_exhaustion),
		cmocka_unit_test(test_pool_touches_no_fresh_page),
		POOL_TEST(test_run_fresh),
		POOL_TEST(test_run_limits),
		POOL_TEST(test_run_fragmented),
		POOL_TEST(test_run_poison_by_chance),
		POOL_TEST(test_run_straddles_the_window),
		POOL_TEST(test_run_random),
		cmocka_unit_test(test_pool_random_model),
	};

	return cmocka_run_group_tests_name("page_alloc", tests, NULL, NULL);
}
