/* frame.h: frames: runs of physical pages that can be mapped into address spaces: RAM the
 * kernel allocated (freed with the frame) or device MMIO from the device tree (never freed). */
#ifndef KERNEL_FRAME_H
#define KERNEL_FRAME_H

#include <stdbool.h>
#include <stdint.h>
#include "object/kobj.h"
#include "lib/list.h"
#include <tacet/abi.h>

struct frame {
	struct kobj obj;
	uint64_t pa;
	uint64_t pages;
	int device; /* MMIO: not RAM, not freed */
	bool dma;   /* RAM made for DMA (the top of memory): the only RAM FRAME_PIN pins */
	struct frame *parent; /* a derived frame: part of this root frame, never itself derived
			       * (a reference); owns nothing */
	/* DMA (a RAM root frame): the device frame it is pinned to, as the pin named it (a root
	 * or part of one; a reference), or NULL; while pinned it is on that device's root's pins
	 * (pin_link), and `ended` once its end put it in the quarantine (it keeps its pages,
	 * charge and pin there). A device root frame: pins, the RAM frames pinned to it or a
	 * part of it, living or ended, and quarantined_pages, the ended ones' pages. */
	struct frame *pinned_to;
	struct list_node pin_link;
	struct list_node pins;
	int ended;
	uint64_t quarantined_pages;
};

struct account;

/* The largest RAM frame, in pages (1 MiB): the page allocator finds a contiguous run by a pass
 * over memory, which is for the occasional DMA buffer, not for bulk memory. */
#define FRAME_MAX_PAGES TACET_FRAME_MAX_PAGES

/* A frame object over existing physical memory (device MMIO, the module archive, the DTB),
 * the object charged to acct (NULL: the kernel's own). */
struct frame *frame_wrap(struct account *acct, uint64_t pa, uint64_t pages, int device);
/* `pages` (1..FRAME_MAX_PAGES) physically contiguous RAM pages, made for DMA or not (mm.h's
 * page_alloc_frame), pages and object charged to acct; NULL when there is no such run or
 * acct's limit would be passed. The pages are not zeroed: the caller zeroes them (page_zero)
 * before anyone else can reach the frame (FRAME_NEW does, a page at a time). */
struct frame *frame_alloc(struct account *acct, uint64_t pages, bool dma);
void frame_free(struct frame *f);
/* A frame covering pages [first, first + pages) of f (the object charged to acct); NULL when out
 * of memory. Its parent is f's root, not f: frames derived from derived frames never form a
 * chain (which would be as long as a user likes, and freed by following it). */
struct frame *frame_derive(struct account *acct, struct frame *f, uint64_t first, uint64_t pages);

/* The DMA pin (frame.c's quarantine rule): RAM root frame f pinned to device frame dev (f not
 * pinned yet); f's pin dropped (the device is done with it); and the release of device frame
 * d, quieted by its holder: every frame pinned within d either ended (its pages, charge and
 * object back) or living (no longer pinned: the quiet device holds no address of it, so its
 * end gives its pages back). Returns the pages back from the quarantine. */
void frame_pin(struct frame *f, struct frame *dev);
void frame_unpin(struct frame *f);
uint64_t frame_device_release(struct frame *d);
/* Whether a device may read or write f's pages: its root is pinned for DMA. */
bool frame_dma_visible(const struct frame *f);
/* Whether f's pages are RAM made for DMA (its root's: FRAME_NEW's TACET_FRAME_DMA). */
static inline bool frame_made_for_dma(const struct frame *f)
{
	return (f->parent ? f->parent : f)->dma;
}
/* Whether physical address pa lies in a RAM frame pinned to device frame dev's root, living or
 * in its quarantine, looking at up to *budget pins (*budget less those looked at). */
bool frame_pins_hold(const struct frame *dev, uint64_t pa, unsigned int *budget);

struct thread;
void sys_frame_new(struct thread *t);
/* FRAME_NEW held back half-zeroed (t->held_frame): the rest of it (TACET_SYS_RESUME). */
void frame_new_go_on(struct thread *t);
void sys_frame_derive(struct thread *t);
void sys_frame_pin(struct thread *t);
void sys_frame_unpin(struct thread *t);
void sys_device_release(struct thread *t);

#endif
