/* frame.c: the bench_frame server: a 256-page FRAME_NEW (TACET_FRAME_MAX_PAGES, 1 MiB of zeroed
 * contiguous RAM) and the CAP_DELETE that frees it, then the MAP and UNMAP of such a frame, each
 * timed from user mode (rdcycle; call; rdcycle, less the overhead); then the longest BKL hold its
 * hart has seen over all of them (TACET_INFO_HART's bkl_hold_max: the longest stretch without a
 * point where the lock would have been let go; the bound is 5,000 instructions, core/bkl.h). Last,
 * the end of a process that a user made costly to end: 1,024 mappings of one page, each 2 MiB from
 * the next (a page-table page each), ended by deleting its only capability (process_end_1024: that
 * CAP_DELETE, the reaper's steps included). Run alone on hart 1 (the other hart waits), so that
 * hart's holds are these calls' and the figures are deterministic under -icount. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "bench.h"

#define FRAME_SAMPLES 20
#define FRAME_WARMUP  2
#define SLOT_FRAME    TACET_CHILD_FIRST_FREE
#define MAP_VA        0x0000002000000000ul
#define SLOT_PROC     (TACET_CHILD_FIRST_FREE + 1)
#define SPREAD_MAPS   1024
#define SPREAD_STRIDE (2ul << 20) /* a leaf page table each */
#define SPREAD_BUDGET 1200        /* pages: 1,024 leaf tables, 3 more, the records */

static unsigned long made[FRAME_SAMPLES], freed[FRAME_SAMPLES];
static unsigned long mapped[FRAME_SAMPLES], unmapped[FRAME_SAMPLES];

/* A process with SPREAD_MAPS one-page mappings SPREAD_STRIDE apart, of one frame, ended by
 * the deletion of its only capability: *took is that call's instructions. */
static long spread_and_end(unsigned long overhead, unsigned long *took)
{
	long err = tacet_process_new(SLOT_PROC, 0, "spread", SPREAD_BUDGET);
	unsigned long c0;

	if (!err)
		err = tacet_frame_new(SLOT_FRAME, 1);
	for (unsigned long i = 0; !err && i < SPREAD_MAPS; i++)
		err = tacet_map(SLOT_PROC, SLOT_FRAME, MAP_VA + i * SPREAD_STRIDE, TACET_RIGHT_READ);
	if (err)
		return err;
	c0 = bench_rdcycle();
	err = tacet_cap_delete(SLOT_PROC);
	*took = bench_rdcycle() - c0 - overhead;
	return err ? err : tacet_cap_delete(SLOT_FRAME);
}

int main(void)
{
	unsigned long overhead = bench_overhead(), ended = 0;
	struct tacet_hart_info hi;
	struct tacet_self self;
	long err = 0;

	for (unsigned long i = 0; !err && i < FRAME_WARMUP + FRAME_SAMPLES; i++) {
		unsigned long c0, c1, c2;

		c0 = bench_rdcycle();
		err = tacet_frame_new(SLOT_FRAME, TACET_FRAME_MAX_PAGES);
		c1 = bench_rdcycle();
		if (!err)
			err = tacet_cap_delete(SLOT_FRAME);
		c2 = bench_rdcycle();
		if (i >= FRAME_WARMUP) {
			made[i - FRAME_WARMUP] = c1 - c0 - overhead;
			freed[i - FRAME_WARMUP] = c2 - c1 - overhead;
		}
	}
	if (!err)
		err = tacet_frame_new(SLOT_FRAME, TACET_FRAME_MAX_PAGES);
	for (unsigned long i = 0; !err && i < FRAME_WARMUP + FRAME_SAMPLES; i++) {
		unsigned long c0, c1, c2;

		c0 = bench_rdcycle();
		err = tacet_map(TACET_CHILD_SELF, SLOT_FRAME, MAP_VA,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
		c1 = bench_rdcycle();
		if (!err)
			err = tacet_unmap(TACET_CHILD_SELF, MAP_VA, TACET_FRAME_MAX_PAGES);
		c2 = bench_rdcycle();
		if (i >= FRAME_WARMUP) {
			mapped[i - FRAME_WARMUP] = c1 - c0 - overhead;
			unmapped[i - FRAME_WARMUP] = c2 - c1 - overhead;
		}
	}
	if (!err)
		err = tacet_cap_delete(SLOT_FRAME);
	if (!err)
		err = spread_and_end(overhead, &ended);
	tacet_self(&self);
	if (!err && tacet_info(TACET_INFO_HART, self.hart, &hi, sizeof(hi)) < 0)
		err = -TACET_EINVAL;
	if (err) {
		printf("bench_frame: %s\n", tacet_strerror(err));
		return 1;
	}
	printf("bench_frame: longest BKL hold %lu instructions on hart %lu (cause %#lx, call %lu)\n",
	       hi.bkl_hold_max, self.hart, hi.bkl_hold_cause, hi.bkl_hold_call);
	bench_report("frame_new_256", made, FRAME_SAMPLES);
	bench_report("frame_delete_256", freed, FRAME_SAMPLES);
	bench_report("frame_map_256", mapped, FRAME_SAMPLES);
	bench_report("frame_unmap_256", unmapped, FRAME_SAMPLES);
	bench_report("process_end_1024", &ended, 1);
	bench_report("frame_bkl_hold_max", &hi.bkl_hold_max, 1);
	bench_power_off();
	return 0;
}
