/* wall.c (bench_wall): the wall-clock tail on parallel harts. tests/bench/bench.py --wall boots it
 * without -icount (QEMU's MTTCG runs the harts really side by side), on 4 harts, as the
 * goldfish RTC's driver on hart 0 at priority 200 with a stressor on each other hart
 * (init.run=stress_NAME=stress.1@1,...,^bench_wall=stress.done@0/200:goldfish-rtc; the
 * protocol is stress.h's). Two phases of WALL_ALARMS alarms, one every WALL_PERIOD_NS (each set
 * that long after the last was handled), each after WALL_WARMUP unrecorded ones: idle, with
 * every stressor set up and waiting for its go, then stressed, their rounds running. Once the
 * stressors have stopped and the kernel's log is written out (a stressor can fill it: lines
 * are dropped then), it reports each phase, all times in ns:
 *   WALL phase=P driver ...   the alarm's due time to its driver running (the RTC's clock
 *                             read first thing after the wait): p50, p99, max;
 *   WALL phase=P top ...      the kernel's record of the RTC's line over the phase
 *   WALL phase=P wake ...     (TACET_INFO_IRQ_HIST after less before): trap entry -> top half
 *                             done, and the wake-up (top half done -> driver running);
 *   WALL phase=P hart=H ...   hart H's waits for the big kernel lock (the hand-over: arrival
 *                             to take; TACET_INFO_HART after less before), how many slept,
 *                             their total and average (one line), p50, p99, max (another).
 * Each line is under DEBUG_WRITE's 128-byte chunk, so no other hart's log line lands inside it.
 * A value from a log2 histogram is its bucket's bound (tacet_log2hist_percentile), capped by
 * the exact maximum since boot. Then init powers the machine off. One thread; no locking. */
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

/* A phase, measured: its records before and after, and its driver's latencies (ns). */
struct phase {
	const char *name;
	struct snapshot before, after;
	uint64_t p50, p99, max;
};

static struct tacet_device rtc;
static struct stress_ctl ctl = { .done = SLOT_DONE, .stop = SLOT_STOP0 };
static struct phase idle = { .name = "idle" }, stressed = { .name = "stressed" };
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

static void report_irq(const struct phase *p)
{
	const struct tacet_irq_hist *a = &p->after.irq, *b = &p->before.irq;
	unsigned long top[TACET_LOG2HIST_BUCKETS], wake[TACET_LOG2HIST_BUCKETS];
	unsigned long n = a->count - b->count, d = n ? n : 1;

	hist_diff(top, a->top, b->top);
	hist_diff(wake, a->wake, b->wake);
	printf("WALL phase=%s top count=%lu avg_ns=%lu p50_ns=%lu p99_ns=%lu max_ns=%lu\n", p->name,
	       n, ns((a->top_sum - b->top_sum) / d), hist_ns(top, 50, a->top_max),
	       hist_ns(top, 99, a->top_max), hist_ns(top, 100, a->top_max));
	printf("WALL phase=%s wake avg_ns=%lu p50_ns=%lu p99_ns=%lu max_ns=%lu\n", p->name,
	       ns((a->wake_sum - b->wake_sum) / d), hist_ns(wake, 50, a->wake_max),
	       hist_ns(wake, 99, a->wake_max), hist_ns(wake, 100, a->wake_max));
}

static void report_hart(const struct phase *p, unsigned int h)
{
	const struct tacet_hart_info *a = &p->after.hart[h], *b = &p->before.hart[h];
	unsigned long w[TACET_LOG2HIST_BUCKETS], n, total = a->bkl_wait_total - b->bkl_wait_total;

	hist_diff(w, a->bkl_wait_hist, b->bkl_wait_hist);
	n = tacet_log2hist_total(w);
	printf("WALL phase=%s hart=%u waits=%lu slept=%lu total_ns=%lu avg_ns=%lu\n", p->name, h, n,
	       a->bkl_wait_slept - b->bkl_wait_slept, ns(total), ns(total / (n ? n : 1)));
	printf("WALL phase=%s hart=%u p50_ns=%lu p99_ns=%lu max_ns=%lu\n", p->name, h,
	       hist_ns(w, 50, a->bkl_wait_max), hist_ns(w, 99, a->bkl_wait_max),
	       hist_ns(w, 100, a->bkl_wait_max));
}

static void report(const struct phase *p)
{
	printf("WALL phase=%s driver alarms=%lu p50_ns=%lu p99_ns=%lu max_ns=%lu\n", p->name,
	       WALL_ALARMS, p->p50, p->p99, p->max);
	report_irq(p);
	for (unsigned int h = 0; h < p->after.harts && h < p->before.harts; h++)
		report_hart(p, h);
}

/* The warm-up, then WALL_ALARMS alarms between two snapshots, kept in p. */
static long measure(struct phase *p)
{
	uint64_t skip;
	long err = 0;

	for (unsigned long i = 0; !err && i < WALL_WARMUP; i++)
		err = one_alarm(&skip);
	if (!err)
		err = snap(&p->before);
	for (unsigned long i = 0; !err && i < WALL_ALARMS; i++)
		err = one_alarm(&late[i]);
	if (!err)
		err = snap(&p->after);
	sort(late, WALL_ALARMS);
	p->p50 = rank(late, WALL_ALARMS, 50);
	p->p99 = rank(late, WALL_ALARMS, 99);
	p->max = late[WALL_ALARMS - 1];
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
		err = measure(&idle);
	if (!err)
		err = stress_ctl_go(&ctl);
	if (!err)
		err = measure(&stressed);
	if (!err)
		err = stress_ctl_stop(&ctl);
	if (!err)
		err = tacet_log_sync();
	if (err) {
		printf("bench_wall: FAIL %s (stressors on harts %#lx)\n", tacet_strerror(err),
		       ctl.stressors);
		return 1;
	}
	tacet_info(TACET_INFO_CLOCK, 0, &clock, sizeof(clock));
	report(&idle);
	report(&stressed);
	printf("bench_wall: done, %lu alarms a phase, one each %lu ns\n", WALL_ALARMS,
	       WALL_PERIOD_NS);
	tacet_poweroff(0);
	return 0;
}
