/* framewake.c: the bench_framewake server: how late a top-priority thread's timer wakes it on a
 * hart where a lower-priority thread makes 256-page frames (FRAME_NEW: 1 MiB zeroed, about 180,000
 * instructions) back to back; linked with mapwake.c, bench_mapwake, where the lower thread maps
 * and unmaps a 256-page frame back to back instead (MAP about 38,000, UNMAP about 17,000).
 * The timer's interrupt comes in the middle of a call; a preemption point inside the call takes
 * it and holds the call back for the more urgent thread,
 * which must run within the same-hart bound (10,000 instructions: docs/benchmarks.md, "The tail
 * under stress"), not when the call is done. Each sample is the wake-up's lateness: the time the
 * woken thread reads less its deadline, in ns of virtual time (instructions under -icount shift=0),
 * at a resolution of one timebase tick (100 ns on virt). The deadlines fall at FRAME_SAMPLES
 * different places in the maker's loop. Run as init.run=bench_framewake@1/200: main at priority
 * 200, the maker at 100, both on hart 1. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/driver.h>
#include <tacet/init_proto.h>
#include "bench.h"

#define WAKE_SAMPLES 64
#define WAKE_WARMUP  4
#define MAKER_PRIO   100
#define SLOT_NTFN    TACET_CHILD_FIRST_FREE
#define SLOT_DONE    (TACET_CHILD_FIRST_FREE + 1)
#define SLOT_FRAME   (TACET_CHILD_FIRST_FREE + 2)
#define SLOT_STACK   (TACET_CHILD_FIRST_FREE + 3)
#define STACK_VA     0x0000002300000000ul
#define MAP_VA       0x0000002400000000ul

/* 1 in bench_mapwake (mapwake.c): the lower thread maps and unmaps rather than makes frames;
 * 0 in bench_framewake (framenew.c). */
extern const int framewake_maps;

static volatile int stop;
static volatile unsigned long made;
static unsigned long late[WAKE_SAMPLES];

/* The lower thread: 256-page frames made and deleted, or one mapped and unmapped, until told to
 * stop (raw calls only). */
static void maker(unsigned long arg)
{
	(void)arg;
	if (framewake_maps && tacet_frame_new(SLOT_FRAME, TACET_FRAME_MAX_PAGES) < 0)
		stop = 1;
	while (!stop) {
		if (framewake_maps) {
			if (tacet_map(TACET_CHILD_SELF, SLOT_FRAME, MAP_VA, TACET_RIGHT_READ) == 0 &&
			    tacet_unmap(TACET_CHILD_SELF, MAP_VA, TACET_FRAME_MAX_PAGES) == 0)
				made++;
		} else if (tacet_frame_new(SLOT_FRAME, TACET_FRAME_MAX_PAGES) == 0) {
			made++;
			tacet_cap_delete(SLOT_FRAME);
		}
	}
	tacet_signal(SLOT_DONE, 1);
}

int main(void)
{
	struct tacet_self self;
	long err;

	(void)bench_overhead(); /* printed for bench.py (the samples are times, not counts) */
	tacet_self(&self);
	err = tacet_ntfn_new(SLOT_NTFN);
	if (!err)
		err = tacet_ntfn_new(SLOT_DONE);
	if (!err)
		err = bench_thread_start(maker, 0, MAKER_PRIO, self.hart, SLOT_STACK, STACK_VA);
	for (unsigned long i = 0; !err && i < WAKE_WARMUP + WAKE_SAMPLES; i++) {
		/* 20 to 200 us ahead, in 64 steps: across a FRAME_NEW's 180 us, several MAPs */
		unsigned long ahead = 20000 + (i * 2833) % 180000;
		unsigned long deadline = tacet_time() + tacet_ns_to_ticks(ahead), now;

		err = tacet_timer_set(SLOT_NTFN, 1, deadline);
		if (!err && tacet_wait(SLOT_NTFN) < 0)
			err = -TACET_EINVAL;
		now = tacet_time();
		if (i >= WAKE_WARMUP)
			late[i - WAKE_WARMUP] = now >= deadline ? tacet_ticks_to_ns(now - deadline) : 0;
	}
	stop = 1;
	if (!err && tacet_wait(SLOT_DONE) < 0)
		err = -TACET_EINVAL;
	if (err) {
		printf("bench_%swake: %s\n", framewake_maps ? "map" : "frame", tacet_strerror(err));
		return 1;
	}
	if (framewake_maps) {
		printf("bench_mapwake: %lu maps and unmaps meanwhile on hart %lu\n", made, self.hart);
		bench_report("map_wake_late", late, WAKE_SAMPLES);
	} else {
		printf("bench_framewake: %lu frames made meanwhile on hart %lu\n", made, self.hart);
		bench_report("frame_wake_late", late, WAKE_SAMPLES);
	}
	bench_power_off();
	return 0;
}
