/* scale_timer.c: the bench_timer_scale server: the cost of arming a notification timer
 * (rdcycle; tacet_timer_set(); rdcycle) with 1, 4, 16, 64, 256 and 1,000 timers armed on its
 * hart (arming must not walk the armed timers). The timer armed in each sample has
 * the latest deadline of all, and is armed again at that deadline each time: the worst case of
 * a list kept in deadline order, whose unlink and insert would both walk past every other
 * timer. The others are armed far ahead (none expires before the power-off), each on a
 * notification of its own that the keeper (scale.h) holds: 1,000 take 8 keepers' tables.
 * Reports scale_timer_N for each N (the timers armed, the measured one included). Start it with
 * ^ (it powers off): ^bench_timer_scale@1. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "bench.h"
#include "scale.h"

enum scale_timer_slot {
	SLOT_TIMER = TACET_CHILD_FIRST_FREE, /* the measured timer's notification */
	SLOT_OTHER,                          /* another's, until the keeper holds it */
	SLOT_KEEPER,
	SLOT_SPARE,
};

#define AHEAD   (1ul << 40) /* ticks: over a day of guest time at 10 MHz */

static const unsigned long points[] = { 1, 4, 16, 64, 256, 1000 };
static unsigned long samples[BENCH_SAMPLES];

static unsigned long latest; /* the measured timer's deadline: after every other's */

static long arm_once(unsigned long *took)
{
	unsigned long c0 = bench_rdcycle();
	long err = tacet_timer_set(SLOT_TIMER, 1, latest);

	*took = bench_rdcycle() - c0;
	return err;
}

int main(void)
{
	unsigned long overhead = bench_overhead(), armed = 1, base = tacet_time() + AHEAD;
	long err = scale_setup(0, SLOT_KEEPER, SLOT_SPARE, 0);

	latest = base + AHEAD;

	if (!err)
		err = tacet_ntfn_new(SLOT_TIMER);
	for (unsigned int p = 0; !err && p < sizeof(points) / sizeof(points[0]); p++) {
		char name[24];

		for (; !err && armed < points[p]; armed++) {
			err = tacet_ntfn_new(SLOT_OTHER);
			if (!err) /* each later than the last, all before the measured one's */
				err = tacet_timer_set(SLOT_OTHER, 1, base + armed);
			if (!err)
				err = scale_keep(SLOT_OTHER);
		}
		snprintf(name, sizeof(name), "scale_timer_%lu", points[p]);
		if (!err)
			err = bench_measure(name, arm_once, overhead, samples);
	}
	if (err) {
		printf("bench_timer_scale: %s (%lu timers armed)\n", tacet_strerror(err), armed);
		return 1;
	}
	bench_power_off();
	return 0;
}
