/* spread: processes a user made costly to end: SPREAD_MAPS one-page mappings, each
 * 2 MiB from the next, so each needs a page-table page of its own, and SPREAD_WIDE more 1 GiB
 * apart (a middle table each), plus SPREAD_CAPS capabilities in its slots. The kernel gives
 * all of it back in bounded steps of its reaper (object/process.c, release_step): never in one
 * stretch under the big kernel lock. Ended two ways:
 *  - without a thread, by deleting its only capability: its struct goes at its last reference;
 *  - with a thread waiting in it (chain_code), the same deletion: its end, then its release.
 * Checks, each time: every page and kernel object back (mem_check), and the longest BKL hold on
 * this hart within the bound of 5,000 instructions (core/bkl.h; the case runs it alone on hart 1
 * under -icount, the other hart waiting: the cycle counter is this hart's instructions then). */
#include <stdio.h>
#include "chains.h"

#define SPREAD_MAPS   1024
#define SPREAD_WIDE   64
#define SPREAD_CAPS   100
#define SPREAD_BASE   0x0000000400000000ul /* clear of CHAIN_VA's tables */
#define SMALL_STRIDE  (2ul << 20)
#define WIDE_STRIDE   (1ul << 30)
#define HOLD_BOUND    5000

/* Maps SLOT_FRAME's page all over process `slot` and fills its slots with copies of it. */
static long spread(unsigned long slot)
{
	long err = 0;

	for (unsigned long i = 0; !err && i < SPREAD_MAPS; i++)
		err = tacet_map(slot, SLOT_FRAME, SPREAD_BASE + i * SMALL_STRIDE, TACET_RIGHT_READ);
	for (unsigned long i = 0; !err && i < SPREAD_WIDE; i++) /* past the small ones' 2 GiB */
		err = tacet_map(slot, SLOT_FRAME, SPREAD_BASE + (i + 2) * WIDE_STRIDE, TACET_RIGHT_READ);
	for (unsigned long i = 0; !err && i < SPREAD_CAPS; i++)
		err = tacet_cap_give(slot, SLOT_FRAME, CHAIN_SLOT_FAULT + 1 + i, TACET_RIGHT_READ);
	return err;
}

static void one(const char *how, int thread)
{
	struct tacet_mem_info before, built;
	struct tacet_hart_info hi;
	struct tacet_self self;
	long err;

	mem_snapshot(&before);
	err = thread ? chain_process_new(SLOT_FIRST, 0, 1) :
		       tacet_process_new(SLOT_FIRST, 0, CHAIN_NAME, 0);
	if (!err)
		err = spread(SLOT_FIRST);
	if (!err && thread)
		err = chain_thread_new(SLOT_FIRST, 0, CHAIN_PRIO);
	if (!err && thread) /* its thread says it is in its wait */
		err = tacet_wait(SLOT_READY) == (long)READY_DONE ? 0 : -TACET_EINVAL;
	mem_snapshot(&built);
	/* a page-table page a mapping at least: the end has that many to give back */
	printf("spread: %s: %d mappings and %d capabilities, %lu pages taken: %s\n", how,
	       SPREAD_MAPS + SPREAD_WIDE, SPREAD_CAPS, before.free_pages - built.free_pages,
	       verdict(!err && before.free_pages - built.free_pages >= SPREAD_MAPS + SPREAD_WIDE));
	if (!err)
		err = tacet_cap_delete(SLOT_FIRST);
	if (err)
		printf("spread: %s: %s\n", how, tacet_strerror(err));
	printf("spread: %s: deleted its only capability: %s\n", how, verdict(!err));
	mem_check("spread", &before);
	tacet_self(&self);
	if (tacet_info(TACET_INFO_HART, self.hart, &hi, sizeof(hi)) < 0)
		hi.bkl_hold_max = ~0ul;
	printf("spread: %s: longest BKL hold on hart %lu so far: %lu instructions (call %lu), at "
	       "most %d: %s\n", how, self.hart, hi.bkl_hold_max, hi.bkl_hold_call, HOLD_BOUND,
	       verdict(hi.bkl_hold_max <= HOLD_BOUND));
}

int main(void)
{
	long err = chains_setup();

	if (!err)
		err = tacet_frame_new(SLOT_FRAME, 1);
	if (err) {
		printf("spread: FAIL: set-up: %s\n", tacet_strerror(err));
		return 1;
	}
	one("without a thread", 0);
	one("with a thread", 1);
	printf("spread: %s\n", chains_failed ? "some checks failed" : "all checks passed");
	return chains_failed;
}
