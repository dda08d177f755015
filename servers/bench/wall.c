/* wall.c (bench_wall): the wall-clock tail on parallel harts. tests/bench/bench.py --wall boots
 * it without -icount (QEMU's MTTCG runs the harts really side by side), on 4 harts, as the
 * goldfish RTC's driver on hart 0 at priority 200 with a stressor on each other hart
 * (init.run=stress_NAME=stress.1@1,...,^bench_wall=stress.done@0/200:goldfish-rtc; the
 * protocol is stress.h's). Two phases of WALL_ALARMS alarms, one every WALL_PERIOD_NS (each set
 * that long after the last was handled), each after WALL_WARMUP unrecorded ones: idle, with
 * every stressor set up and waiting for its go, then stressed, their rounds running. Per phase:
 *   WALL phase=P driver ...   the alarm's due time to its driver running (the RTC's clock
 *                             read first thing after the wait), ns: p50, p99, max;
 *   WALL phase=P irq ...      the kernel's record of the RTC's line over the phase
 *                             (TACET_INFO_IRQ_HIST after less before): trap entry -> top half
 *                             done and the wake-up (top half done -> driver running), ns;
 *   WALL phase=P hart=H ...   each hart's waits for the big kernel lock (the hand-over:
 *                             arrival to take; TACET_INFO_HART after less before), how many
 *                             slept, their total and average, ns.
 * A value from a log2 histogram is its bucket's bound (tacet_log2hist_percentile), capped by
 * the exact maximum since boot. Then the stressors are stopped and init powers the machine off.
 * One thread; no locking. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/clock.h>
#include <tacet/goldfish_rtc.h>
#include <tacet/init_proto.h>
#include <tacet/log2hist.h>
#include "stress.h"

#define WALL_PERIOD_NS 1000000ul
#define WALL_ALARMS    2000ul
#define WALL_WARMUP    50ul
#define WALL_HARTS     TACET_INFO_MAX_HARTS
#define SLOT_DONE      TACET_CHILD_FIRST_FREE       /* published as STRESS_DONE_NAME */
#define SLOT_STOP0     (TACET_CHILD_FIRST_FREE + 1) /* + h: the stressor on hart h's */

/* The kernel's records a phase is the difference of. */
struct snapshot {
	struct tacet_irq_hist irq;
	struct tacet_hart_info hart[WALL_HARTS];
	unsigned int harts;
};

static struct tacet_device rtc;
static struct stress_ctl ctl = { .done = SLOT_DONE, .stop = SLOT_STOP0 };
static struct snapshot before, after;
static struct tacet_clock_info clock;
static uint64_t late[WALL_ALARMS]; /* ns, due -> running */

static uint64_t rtc_now(void)
{
	uint64_t low = mmio_read32(rtc.regs + GOLDFISH_RTC_TIME_LOW); /* latches TIME_HIGH */

	return (uint64_t)mmio_read32(rtc.regs + GOLDFISH_RTC_TIME_HIGH) << 32 | low;
}

/* One alarm WALL_PERIOD_NS from now, waited for and handled: *ns is how late its driver ran. */
static long one_alarm(uint64_t *ns)
{
	uint64_t at = rtc_now() + WALL_PERIOD_NS, ran;
	long ev;

	mmio_write32(rtc.regs + GOLDFISH_RTC_ALARM_HIGH, (uint32_t)(at >> 32));
	mmio_write32(rtc.regs + GOLDFISH_RTC_ALARM_LOW, (uint32_t)at);
	ev = tacet_device_wait(&rtc, 0); /* acks the last one and waits, one kernel entry */
	ran = rtc_now();
	if (ev < 0)
		return ev;
	if (ev != (long)TACET_DEVICE_IRQ)
		return -TACET_EINVAL;
	mmio_write32(rtc.regs + GOLDFISH_RTC_CLEAR_INTERRUPT, 1);
	*ns = ran > at ? ran - at : 0;
	return tacet_device_ack(&rtc, 1);
}

static long snap(struct snapshot *s)
{
	long got = tacet_info(TACET_INFO_IRQ_HIST, rtc.irq, &s->irq, sizeof(s->irq));

	if (got < 0)
		return got;
	for (s->harts = 0; s->harts < WALL_HARTS; s->harts++)
		if (tacet_info(TACET_INFO_HART, s->harts, &s->hart[s->harts],
			       sizeof(s->hart[0])) <= 0)
			break;
	return 0;
}

static void sort(uint64_t *v, unsigned long n) /* Shell's sort, ascending */
{
	for (unsigned long gap = n / 2; gap; gap /= 2)
		for (unsigned long i = gap; i < n; i++)
			for (unsigned long j = i; j >= gap && v[j - gap] > v[j]; j -= gap) {
				uint64_t t = v[j];

				v[j] = v[j - gap];
				v[j - gap] = t;
			}
}

static uint64_t rank(const uint64_t *sorted, unsigned long n, unsigned int p) /* nearest rank */
{
	return sorted[(n * p + 99) / 100 - 1];
}

static uint64_t ns(uint64_t cycles)
{
	return tacet_cycles_to_ns(&clock, cycles);
}

/* d = a - b, bucket by bucket. */
static void hist_diff(unsigned long *d, const unsigned long *a, const unsigned long *b)
{
	for (unsigned int k = 0; k < TACET_LOG2HIST_BUCKETS; k++)
		d[k] = a[k] - b[k];
}

static uint64_t hist_ns(const unsigned long *h, unsigned int p, uint64_t max)
{
	return ns(tacet_log2hist_percentile(h, p, max));
}

static void report_irq(const char *phase)
{
	unsigned long top[TACET_LOG2HIST_BUCKETS], wake[TACET_LOG2HIST_BUCKETS];
	unsigned long n = after.irq.count - before.irq.count;
	unsigned long d = n ? n : 1;

	hist_diff(top, after.irq.top, before.irq.top);
	hist_diff(wake, after.irq.wake, before.irq.wake);
	printf("WALL phase=%s irq count=%lu top_avg_ns=%lu top_p50_ns=%lu top_p99_ns=%lu "
	       "top_max_ns=%lu wake_avg_ns=%lu wake_p50_ns=%lu wake_p99_ns=%lu wake_max_ns=%lu\n",
	       phase, n, ns((after.irq.top_sum - before.irq.top_sum) / d),
	       hist_ns(top, 50, after.irq.top_max), hist_ns(top, 99, after.irq.top_max),
	       hist_ns(top, 100, after.irq.top_max),
	       ns((after.irq.wake_sum - before.irq.wake_sum) / d),
	       hist_ns(wake, 50, after.irq.wake_max), hist_ns(wake, 99, after.irq.wake_max),
	       hist_ns(wake, 100, after.irq.wake_max));
}

static void report_hart(const char *phase, unsigned int h)
{
	const struct tacet_hart_info *a = &after.hart[h], *b = &before.hart[h];
	unsigned long w[TACET_LOG2HIST_BUCKETS], n, total = a->bkl_wait_total - b->bkl_wait_total;

	hist_diff(w, a->bkl_wait_hist, b->bkl_wait_hist);
	n = tacet_log2hist_total(w);
	printf("WALL phase=%s hart=%u waits=%lu slept=%lu total_ns=%lu avg_ns=%lu p50_ns=%lu "
	       "p99_ns=%lu max_ns=%lu\n", phase, h, n, a->bkl_wait_slept - b->bkl_wait_slept,
	       ns(total), ns(total / (n ? n : 1)), hist_ns(w, 50, a->bkl_wait_max),
	       hist_ns(w, 99, a->bkl_wait_max), hist_ns(w, 100, a->bkl_wait_max));
}

static void report(const char *phase)
{
	tacet_info(TACET_INFO_CLOCK, 0, &clock, sizeof(clock));
	sort(late, WALL_ALARMS);
	printf("WALL phase=%s driver alarms=%lu p50_ns=%lu p99_ns=%lu max_ns=%lu\n", phase,
	       WALL_ALARMS, rank(late, WALL_ALARMS, 50), rank(late, WALL_ALARMS, 99),
	       late[WALL_ALARMS - 1]);
	report_irq(phase);
	for (unsigned int h = 0; h < after.harts && h < before.harts; h++)
		report_hart(phase, h);
}

/* The warm-up, then WALL_ALARMS alarms between two snapshots; reported. */
static long phase(const char *name)
{
	uint64_t skip;
	long err = 0;

	for (unsigned long i = 0; !err && i < WALL_WARMUP; i++)
		err = one_alarm(&skip);
	if (!err)
		err = snap(&before);
	for (unsigned long i = 0; !err && i < WALL_ALARMS; i++)
		err = one_alarm(&late[i]);
	if (!err)
		err = snap(&after);
	if (!err)
		report(name);
	return err;
}

static long rtc_open(void)
{
	long err = tacet_device_open(&rtc, "goldfish-rtc", 0, 0);

	if (!err)
		err = tacet_device_quiesce(&rtc) < 0 ? -TACET_EINVAL : 0;
	if (!err)
		mmio_write32(rtc.regs + GOLDFISH_RTC_IRQ_ENABLED, 1);
	return err;
}

int main(void)
{
	struct tacet_self self;
	long err;

	tacet_self(&self);
	err = rtc_open();
	if (!err)
		err = stress_ctl_find(&ctl, 1ul << self.hart);
	if (!err)
		err = stress_ctl_ready(&ctl);
	if (!err)
		err = phase("idle");
	if (!err)
		err = stress_ctl_go(&ctl);
	if (!err)
		err = phase("stressed");
	if (!err)
		err = stress_ctl_stop(&ctl);
	if (err) {
		printf("bench_wall: FAIL %s (stressors on harts %#lx)\n", tacet_strerror(err),
		       ctl.stressors);
		return 1;
	}
	printf("bench_wall: done, %lu alarms a phase, one each %lu ns\n", WALL_ALARMS,
	       WALL_PERIOD_NS);
	tacet_poweroff(0);
	return 0;
}
