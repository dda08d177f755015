/* framerun: multi-page frames (TACET_SYS_FRAME_NEW with pages > 1). A 16-page frame is
 * zeroed, one physically contiguous run (its pages do not overlap another such frame's, and
 * each mapped page is its own memory), charged whole to the account and given back whole;
 * 0 and more than TACET_FRAME_MAX_PAGES pages are ERANGE; 256-page frames until the budget
 * says ENOMEM, then one more once one went back. A RAM frame's physical address is given only
 * with a pin to a device (the DMA quarantine, kernel/object/frame.c): init gives framerun one
 * (the goldfish RTC's registers), to which it pins its runs (made for DMA) to read their
 * addresses, and from which it unpins them before they go; a frame not made for DMA is not
 * pinned, and DMA frames lie above every other page. No IPC protocol. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define RUN_PAGES 16
#define A_VA      0x0000002000000000ul
#define B_VA      0x0000002100000000ul
#define SLOT_A    (TACET_CHILD_FIRST_FREE + 0)
#define SLOT_B    (TACET_CHILD_FIRST_FREE + 1)
#define SLOT_BIG  (TACET_CHILD_FIRST_FREE + 2) /* SLOT_BIG.. : the 256-page frames */
#define MAX_BIG   32

static int failures;

static void check(int ok, const char *what)
{
	printf("framerun: %s: %s\n", what, ok ? "PASS" : "FAIL");
	failures += !ok;
}

static unsigned long used_bytes(void)
{
	unsigned long used = 0, limit = 0;

	tacet_process_memory(TACET_CHILD_SELF, &used, &limit);
	return used;
}

/* A fresh frame of RUN_PAGES mapped at va: every byte zero, then each page stamped. */
static long make_run(unsigned long slot, unsigned long va, unsigned long *pa, unsigned long stamp)
{
	unsigned long pages = 0;
	volatile unsigned long *w = (volatile unsigned long *)va;
	long err = tacet_frame_new_dma(slot, RUN_PAGES);
	int zero = 1;

	if (!err)
		err = tacet_frame_pin(slot, TACET_CHILD_DEVICE, pa, &pages);
	if (!err && pages != RUN_PAGES)
		err = -TACET_EINVAL;
	if (!err)
		err = tacet_map(TACET_CHILD_SELF, slot, va, TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (err)
		return err;
	for (unsigned long i = 0; i < RUN_PAGES * TACET_PAGE_SIZE / sizeof(long); i++)
		zero &= w[i] == 0;
	check(zero, "16 pages, all zero");
	for (unsigned long p = 0; p < RUN_PAGES; p++)
		w[p * TACET_PAGE_SIZE / sizeof(long)] = stamp + p;
	return 0;
}

/* Each page holds its own stamp: no two virtual pages share memory. */
static int stamps_hold(unsigned long va, unsigned long stamp)
{
	volatile unsigned long *w = (volatile unsigned long *)va;

	for (unsigned long p = 0; p < RUN_PAGES; p++)
		if (w[p * TACET_PAGE_SIZE / sizeof(long)] != stamp + p)
			return 0;
	return 1;
}

static void runs(void)
{
	unsigned long before = used_bytes(), pa = 0, pb = 0, size = RUN_PAGES * TACET_PAGE_SIZE;
	long err = make_run(SLOT_A, A_VA, &pa, 0xa000);

	if (!err)
		err = make_run(SLOT_B, B_VA, &pb, 0xb000);
	if (err) {
		printf("framerun: FAIL: a 16-page frame: %s\n", tacet_strerror(err));
		failures++;
		return;
	}
	printf("framerun: frames at %#lx and %#lx\n", pa, pb);
	check(pa % TACET_PAGE_SIZE == 0 && pb % TACET_PAGE_SIZE == 0 &&
		  (pa + size <= pb || pb + size <= pa),
	      "two 16-page runs, disjoint");
	check(stamps_hold(A_VA, 0xa000) && stamps_hold(B_VA, 0xb000), "every page its own");
	check(used_bytes() - before >= 2 * size, "32 pages charged");
	before = used_bytes();
	tacet_unmap(TACET_CHILD_SELF, A_VA, RUN_PAGES);
	tacet_unmap(TACET_CHILD_SELF, B_VA, RUN_PAGES);
	tacet_frame_unpin(SLOT_A, TACET_CHILD_DEVICE); /* the "device" never used them */
	tacet_frame_unpin(SLOT_B, TACET_CHILD_DEVICE);
	tacet_cap_delete(SLOT_A);
	tacet_cap_delete(SLOT_B);
	/* the page tables the mappings grew stay with the address space: only count the pages */
	check(before - used_bytes() >= 2 * size, "32 pages given back");
}

/* Only a frame made for DMA is given to a device, and DMA frames lie above the kernel's pages
 * and every other frame (docs/drivers.md, "A wrong length"). */
static void dma_side(void)
{
	unsigned long pa = 0, pages = 0, info[5] = { 0 };
	struct tacet_mem_info mi;

	check(tacet_syscall3(TACET_SYS_FRAME_NEW, SLOT_A, 1, 4) == -TACET_EINVAL,
	      "an unknown FRAME_NEW flag -> EINVAL");
	check(tacet_frame_new(SLOT_A, 1) == 0 && tacet_cap_info_of(SLOT_A, TACET_CAP_FRAME, info) == 0 &&
		      info[4] == 0 &&
		      tacet_frame_pin(SLOT_A, TACET_CHILD_DEVICE, &pa, &pages) == -TACET_EINVAL &&
		      pa == 0,
	      "a frame not made for DMA: no pin, no address (EINVAL)");
	tacet_cap_delete(SLOT_A);
	check(tacet_frame_new_dma(SLOT_A, 1) == 0 &&
		      tacet_cap_info_of(SLOT_A, TACET_CAP_FRAME, info) == 0 &&
		      info[4] == TACET_FRAME_DMA &&
		      tacet_frame_pin(SLOT_A, TACET_CHILD_DEVICE, &pa, &pages) == 0 && pa != 0,
	      "a frame made for DMA: CAP_INFO says so, and it is pinned");
	tacet_frame_unpin(SLOT_A, TACET_CHILD_DEVICE);
	tacet_cap_delete(SLOT_A);
	tacet_info(TACET_INFO_MEM, 0, &mi, sizeof(mi));
	printf("framerun: kernel and frames below %#lx, DMA frames from %#lx, the sides met %lu "
	       "times; this DMA frame at %#lx\n", mi.low_end, mi.dma_start, mi.sides_met, pa);
	check(mi.low_end <= mi.dma_start && mi.dma_start <= pa && mi.sides_met == 0,
	      "DMA frames above the kernel's pages and every other frame");
}

static void limits(void)
{
	unsigned long n = 0, limit = 0, used = 0;
	long err;

	check(tacet_frame_new(SLOT_A, 0) == -TACET_ERANGE, "0 pages -> ERANGE");
	check(tacet_frame_new(SLOT_A, TACET_FRAME_MAX_PAGES + 1) == -TACET_ERANGE,
	      "257 pages -> ERANGE");
	check(tacet_frame_new(SLOT_A, ~0ul) == -TACET_ERANGE, "~0 pages -> ERANGE");
	while (n < MAX_BIG && !(err = tacet_frame_new(SLOT_BIG + n, TACET_FRAME_MAX_PAGES)))
		n++;
	tacet_process_memory(TACET_CHILD_SELF, &used, &limit);
	printf("framerun: %lu frames of 256 pages, then %s with %lu of %lu KiB used\n", n,
	       tacet_strerror(err), used / 1024, limit / 1024);
	check(err == -TACET_ENOMEM && n > 0 &&
		  used + TACET_FRAME_MAX_PAGES * TACET_PAGE_SIZE > limit,
	      "256-page frames until the budget is spent -> ENOMEM");
	tacet_cap_delete(SLOT_BIG + n - 1);
	check(tacet_frame_new(SLOT_BIG + n - 1, TACET_FRAME_MAX_PAGES) == 0,
	      "one back, one more fits");
	for (unsigned long i = 0; i < n; i++)
		tacet_cap_delete(SLOT_BIG + i);
}

int main(void)
{
	runs();
	dma_side();
	limits();
	printf("framerun: %s\n", failures ? "FAIL" : "all checks passed");
	return failures != 0;
}
