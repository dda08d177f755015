/* chain_frame: a frame derived from a derived frame from a derived frame..., 10,000 times, each
 * intermediate capability deleted as soon as the next frame is derived from it. The kernel must
 * make every derived frame part of the original (root) frame, never of the frame it was derived
 * from: otherwise each one would keep its predecessor alive, and deleting the last would free
 * 10,000 frames by recursion (a kernel stack overflow). Checks: only the root and the last
 * derived frame stay allocated, the last one names the root's page (same physical address; what
 * was written through the root reads back through it), and after both capabilities go every
 * page and kernel object is back (the addresses are read with a pin to the device init gives
 * it, undone before the end). No IPC protocol; exits 0 when every check passed. */
#include <stdio.h>
#include "chains.h"

#define FRAME_DEPTH 10000ul
#define DATA_VA     0x0000002200000000ul
#define PATTERN     0x7ace7c4a1e5ul

/* Map, read or write one word, unmap: 0 or -TACET_E*. */
static long poke(unsigned long slot, unsigned long *word, int write)
{
	long err = tacet_map(TACET_CHILD_SELF, slot, DATA_VA,
			     write ? TACET_RIGHT_READ | TACET_RIGHT_WRITE : TACET_RIGHT_READ);

	if (err)
		return err;
	if (write)
		*(volatile unsigned long *)DATA_VA = *word;
	else
		*word = *(volatile unsigned long *)DATA_VA;
	return tacet_unmap(TACET_CHILD_SELF, DATA_VA, 1);
}

int main(void)
{
	struct tacet_mem_info before, built;
	unsigned long word = PATTERN, root_pa = 0, pa = 0, pages = 0, last;
	long err;

	/* the page tables for DATA_VA come before the baseline */
	err = tacet_frame_new(SLOT_FRAME, 1);
	if (!err)
		err = poke(SLOT_FRAME, &word, 1);
	if (!err)
		err = tacet_cap_delete(SLOT_FRAME);
	mem_snapshot(&before);
	if (!err)
		err = tacet_frame_new_dma(SLOT_FRAME, 1);
	if (!err)
		err = poke(SLOT_FRAME, &word, 1);
	/* physical addresses come with a pin to a device (init gives one: the RTC's registers) */
	if (!err)
		err = tacet_frame_pin(SLOT_FRAME, TACET_CHILD_DEVICE, &root_pa, &pages);
	last = err ? 0 : chain_frame_derive(FRAME_DEPTH, &err);
	if (err) {
		printf("chain_frame: FAIL: set-up: %s\n", tacet_strerror(err));
		return 1;
	}
	mem_snapshot(&built);
	printf("chain_frame: derived %lu frames, each from the one before: kernel objects %lu -> "
	       "%lu (the root and the last): %s\n", FRAME_DEPTH, before.kernel_objects,
	       built.kernel_objects, verdict(built.kernel_objects == before.kernel_objects + 2));
	word = 0;
	if (tacet_frame_pin(last, TACET_CHILD_DEVICE, &pa, &pages) < 0 || poke(last, &word, 0))
		word = 0;
	tacet_frame_unpin(last, TACET_CHILD_DEVICE); /* (the root's pin: the "device" is done with it) */
	printf("chain_frame: the last one is the root's page (%#lx, %lu page) and reads %#lx: %s\n",
	       pa, pages, word, verdict(pa == root_pa && pages == 1 && word == PATTERN));
	err = tacet_cap_delete(SLOT_FRAME); /* the root lives on in the last one */
	word = 0;
	if (!err)
		err = poke(last, &word, 0);
	printf("chain_frame: root capability deleted, the last one still reads %#lx: %s\n", word,
	       verdict(!err && word == PATTERN));
	err = tacet_cap_delete(last);
	printf("chain_frame: deleted the last derived frame: %s\n", verdict(!err));
	mem_check("chain_frame", &before);
	chains_report_bkl("chain_frame");
	printf("chain_frame: %s\n", chains_failed ? "some checks failed" : "all checks passed");
	return chains_failed;
}
