/* frame.h: frames: runs of physical pages that can be mapped into address spaces: RAM the
 * kernel allocated (freed with the frame) or device MMIO from the device tree (never freed). */
#ifndef KERNEL_FRAME_H
#define KERNEL_FRAME_H

#include <stdint.h>
#include "kobj.h"

struct frame {
	struct kobj obj;
	uint64_t pa;
	uint64_t pages;
	int device; /* MMIO: not RAM, not freed */
	struct frame *parent; /* a derived frame: part of this one (a reference); owns nothing */
};

/* A frame object over existing physical memory (device MMIO, the module archive, the DTB). */
struct frame *frame_wrap(uint64_t pa, uint64_t pages, int device);
/* `pages` zeroed, physically contiguous RAM pages; NULL when there is no such run. */
struct frame *frame_alloc(uint64_t pages);
void frame_destroy(struct frame *f);
/* A frame covering pages [first, first + pages) of f; NULL when out of memory. */
struct frame *frame_derive(struct frame *f, uint64_t first, uint64_t pages);

#endif
