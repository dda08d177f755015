/* mm.c: owns the global page pool and the record of where its two sides have lain (the
 * kernel's pages and other frames low, DMA frames high: page_alloc.h, "Chunk classes");
 * pool_lock guards every field of both. The pool never
 * touches a page it manages (page_alloc.h: its bookkeeping sits in each large range's lowest
 * pages, mapped here before the range is added): a page is first written when
 * page_alloc_zeroed() or the owner of a run (page_alloc_run, page_zero) zeroes it, and boot time
 * does not grow with the memory size. */
#include "mm/mm.h"
#include "arch.h"
#include "core/console.h"
#include "lib/kstring.h"
#include "mm/page_alloc.h"
#include "core/panic.h"
#include "core/platform.h"
#include "core/spinlock.h"

#define MM_MAX_FREE_RANGES 32

static struct page_pool pool;
static struct spinlock pool_lock = SPINLOCK_INIT("page pool");
/* Under pool_lock, since boot: the end of the highest page the low side took (the kernel's
 * pages, frames not for DMA), the lowest page a DMA frame took, and how many allocations landed
 * out of that order (the two sides met: page_alloc.h, "Chunk classes"). */
static uint64_t low_top, dma_bottom = UINT64_MAX;
static uint64_t sides_met;

/* Records where an allocation landed; pool_lock held. */
static void mark(uint64_t pa, size_t pages, enum page_pool_use use)
{
	uint64_t end = pa + pages * PAGE_SIZE;

	if (!pa)
		return;
	if (use == PAGE_POOL_LOW) {
		low_top = end > low_top ? end : low_top;
		sides_met += end > dma_bottom;
	} else {
		dma_bottom = pa < dma_bottom ? pa : dma_bottom;
		sides_met += pa < low_top;
	}
}

void mm_init(void)
{
	struct phys_range resv[PLATFORM_MAX_RESV + 1], free[MM_MAX_FREE_RANGES];
	int nresv = platform.nresv, nfree;

	memcpy(resv, platform.resv, sizeof(platform.resv[0]) * (size_t)nresv);
	resv[nresv++] = (struct phys_range){ arch_kernel_phys_start(), arch_kernel_phys_end() };
	nfree = phys_ranges_subtract(platform.ram, platform.nram, resv, nresv, free,
				     MM_MAX_FREE_RANGES);
	if (nfree < 0)
		panic("mm_init: the free memory map has more than %d ranges", MM_MAX_FREE_RANGES);
	page_pool_init(&pool, arch_phys_to_virt(0));
	for (int i = 0; i < nfree; i++) {
		arch_boot_map_direct(free[i].start, free[i].end - free[i].start);
		if (page_pool_add_range(&pool, free[i].start, free[i].end) < 0)
			panic("mm_init: cannot add free range %#lx-%#lx",
			      (unsigned long)free[i].start, (unsigned long)free[i].end);
	}
}

/* Unrolled: memset's word loop costs 3 instructions a word, this 10 every 8 words (a 256-page
 * FRAME_NEW zeroes 1 MiB). Not turned into a memset call: the call is what it replaces. */
__attribute__((optimize("no-tree-loop-distribute-patterns"))) void page_zero(uint64_t pa)
{
	uint64_t *w = (uint64_t *)arch_phys_to_virt(pa), *end = w + PAGE_SIZE / sizeof(*w);

	for (; w < end; w += 8) {
		w[0] = 0;
		w[1] = 0;
		w[2] = 0;
		w[3] = 0;
		w[4] = 0;
		w[5] = 0;
		w[6] = 0;
		w[7] = 0;
	}
}

uint64_t page_alloc_zeroed(void)
{
	uint64_t pa;

	spin_lock(&pool_lock);
	pa = page_pool_alloc(&pool);
	mark(pa, 1, PAGE_POOL_LOW);
	spin_unlock(&pool_lock);
	if (pa)
		page_zero(pa);
	return pa;
}

static uint64_t alloc_run(size_t pages, enum page_pool_use use)
{
	uint64_t pa;

	spin_lock(&pool_lock);
	if (pages == 1 && use == PAGE_POOL_LOW)
		pa = page_pool_alloc(&pool);
	else
		pa = page_pool_alloc_run(&pool, pages, use);
	mark(pa, pages, use);
	spin_unlock(&pool_lock);
	return pa;
}

uint64_t page_alloc_run(size_t pages)
{
	return alloc_run(pages, PAGE_POOL_LOW);
}

uint64_t page_alloc_frame(size_t pages, bool dma)
{
	return alloc_run(pages, dma ? PAGE_POOL_DMA : PAGE_POOL_LOW);
}

void mm_sides(uint64_t *low_end, uint64_t *dma_start, uint64_t *met)
{
	spin_lock(&pool_lock);
	*low_end = low_top;
	*dma_start = dma_bottom == UINT64_MAX ? 0 : dma_bottom;
	*met = sides_met;
	spin_unlock(&pool_lock);
}

void page_free(uint64_t pa)
{
	int err;

	spin_lock(&pool_lock);
	err = page_pool_free(&pool, pa);
	spin_unlock(&pool_lock);
	if (err)
		panic("page_free: %#lx is not an allocated page", (unsigned long)pa);
}

void page_free_run(uint64_t pa, size_t pages)
{
	int err;

	spin_lock(&pool_lock);
	err = page_pool_free_run(&pool, pa, pages);
	spin_unlock(&pool_lock);
	if (err)
		panic("page_free_run: %#lx (%lu pages) is not an allocated run", (unsigned long)pa,
		      (unsigned long)pages);
}

size_t mm_free_pages(void)
{
	return __atomic_load_n(&pool.nfree, __ATOMIC_RELAXED);
}

size_t mm_total_pages(void)
{
	return pool.ntotal;
}
