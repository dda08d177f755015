/* mm.h: the kernel's physical page allocator (a locked struct page_pool over free RAM). */
#ifndef KERNEL_MM_H
#define KERNEL_MM_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

/* Give the pool all RAM the platform describes minus reserved memory and the kernel image.
 * Boot hart, once, after platform_init(). */
void mm_init(void);
/* A zeroed page's physical address; 0 when memory is exhausted. Any hart. */
uint64_t page_alloc_zeroed(void);
void page_free(uint64_t pa);
/* `pages` physically contiguous pages (at most PAGE_POOL_RUN_MAX): the first one's physical
 * address, 0 when no such run is free. Not zeroed (whatever their last owner left): the caller
 * zeroes each page (page_zero) before anything outside the kernel can reach it, a page at a
 * time if it likes (FRAME_NEW: object/frame.c). page_free_run() gives the run back at once, at
 * a cost that does not grow with its pages (page_pool_free_run). */
uint64_t page_alloc_run(size_t pages);
/* As page_alloc_run(), for a frame (FRAME_NEW's): one made for DMA (a device may be given it)
 * from the top of memory, any other from the bottom, beside the kernel's own pages (page_alloc.h,
 * "Chunk classes"). Freed with page_free_run() or page_free(). */
uint64_t page_alloc_frame(size_t pages, bool dma);
void page_free_run(uint64_t pa, size_t pages);
/* Where memory's two sides have lain since boot: the end of the highest page of the low side
 * (the kernel's pages, frames not for DMA), the lowest DMA frame's address (0: none yet), and
 * how many allocations landed where the other side had been (0: every page of the low side lay
 * below every DMA frame, so a device writing past a DMA frame's end never reached one). Any
 * hart. */
void mm_sides(uint64_t *low_end, uint64_t *dma_start, uint64_t *met);
/* Zero the page at pa, through the direct map: 8 stores a loop, about 650 instructions. */
void page_zero(uint64_t pa);
size_t mm_free_pages(void);
size_t mm_total_pages(void);

#endif
