/* wall.c (bench_wall): the wall-clock tail on parallel harts. tests/bench/bench.py --wall boots it
 * without -icount (QEMU's MTTCG runs the harts really side by side), on 2 or 4 harts, as the
 * goldfish RTC's driver on hart 0 at priority 200 with a stressor on each other hart
 * (init.run=stress_NAME=stress.1@1,...,^bench_wall=stress.done@0/200:goldfish-rtc; the
 * protocol is stress.h's). Three phases of WALL_ALARMS alarms, one every WALL_PERIOD_NS (each
 * set that long after the last was handled):
 *   idle      every stressor set up and held, asleep (its hart waits in the kernel's idle);
 *   busy      every stressor held in a loop in user mode (STRESS_SPIN): its hart as busy as
 *             in its rounds, so the host runs as many busy threads, but the kernel has no work;
 *   stressed  their rounds running.
 * What the kernel's work costs the driver is stressed against busy; busy against idle is what a
 * busy hart costs on this host (QEMU's threads for the harts, and the host's own scheduling:
 * a hart that wakes from a long sleep slows the others' interrupts for tens of ms here). The
 * phases take turns in windows of WALL_WINDOW alarms, WALL_WINDOWS in all, in ORDER (each
 * phase as often early as late: a drift of the host's load over the boot weighs on them alike,
 * as one phase after another did not); before a window of another phase the stressors are let
 * go or held as it wants (stress_ctl_go, stress_ctl_hold: each says it is waiting again), and
 * WALL_SETTLE alarms pass unrecorded, WALL_WAKE when the harts leave their sleep (the host's
 * transient above), WALL_WARMUP before the first window. Once the stressors have stopped and
 * the kernel's log is written out (a stressor can fill it: lines are dropped then), it reports
 * each phase over its windows, all times in ns:
 *   WALL phase=P driver ...   the alarm's due time to its driver running (the RTC's clock
 *                             read first thing after the wait): p50, p99, max;
 *   WALL phase=P top ...      the kernel's record of the RTC's line over the phase
 *   WALL phase=P wake ...     (TACET_INFO_IRQ_HIST after less before, each window's added):
 *                             trap entry -> top half done, and the wake-up (top half done ->
 *                             driver running);
 *   WALL phase=P hart=H ...   hart H's waits for the big kernel lock (the hand-over: arrival
 *                             to take; TACET_INFO_HART after less before, added), how many
 *                             slept, their total and average (one line), p50, p99, max.
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
#define WALL_ALARMS    2000ul /* a phase's, over its windows */
#define WALL_PHASES    3ul
#define WALL_WINDOWS   24ul   /* every phase's: 4 rounds of ORDER */
#define WALL_WINDOW    (WALL_PHASES * WALL_ALARMS / WALL_WINDOWS)
#define WALL_WARMUP    50ul   /* before the first window, unrecorded */
#define WALL_SETTLE    10ul   /* after each go or hold, unrecorded */
#define WALL_WAKE      50ul   /* instead, after the harts leave their sleep (idle's end) */
#define WALL_HARTS     TACET_INFO_MAX_HARTS
#define SLOT_DONE      TACET_CHILD_FIRST_FREE       /* published as STRESS_DONE_NAME */
#define SLOT_STOP0     (TACET_CHILD_FIRST_FREE + 1) /* + h: the stressor on hart h's */

/* The kernel's records a window is the difference of. */
struct snapshot {
	struct tacet_irq_hist irq;
	struct tacet_hart_info hart[WALL_HARTS];
	unsigned int harts;
};

/* A phase, measured: its windows' records (the counts, sums and buckets after less before,
 * added; the maxima since boot, as the last window ended) and its driver's latencies (ns). */
struct phase {
	const char *name;
	struct tacet_irq_hist irq;
	struct tacet_hart_info hart[WALL_HARTS];
	unsigned int harts;
	unsigned long alarms;
	uint64_t late[WALL_ALARMS];
	uint64_t p50, p99, max;
};

static struct tacet_device rtc;
static struct stress_ctl ctl = { .done = SLOT_DONE, .stop = SLOT_STOP0 };
static struct phase idle = { .name = "idle" }, busy = { .name = "busy" },
		    stressed = { .name = "stressed" };
static struct phase *const ORDER[] = { &idle, &busy, &stressed, &stressed, &busy, &idle };
_Static_assert(WALL_WINDOWS % (sizeof(ORDER) / sizeof(ORDER[0])) == 0 &&
		       WALL_WINDOW * WALL_WINDOWS == WALL_PHASES * WALL_ALARMS,
	       "each phase's windows hold its WALL_ALARMS alarms");
static struct snapshot before, after;
static struct tacet_clock_info clock;

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

/* sum += a - b, bucket by bucket. */
static void hist_add(unsigned long *sum, const unsigned long *a, const unsigned long *b)
{
	for (unsigned int k = 0; k < TACET_LOG2HIST_BUCKETS; k++)
		sum[k] += a[k] - b[k];
}

/* A window's records (a less b) added to its phase's. */
static void add_window(struct phase *p, const struct snapshot *a, const struct snapshot *b)
{
	p->irq.count += a->irq.count - b->irq.count;
	p->irq.top_sum += a->irq.top_sum - b->irq.top_sum;
	p->irq.wake_sum += a->irq.wake_sum - b->irq.wake_sum;
	p->irq.top_max = a->irq.top_max;
	p->irq.wake_max = a->irq.wake_max;
	hist_add(p->irq.top, a->irq.top, b->irq.top);
	hist_add(p->irq.wake, a->irq.wake, b->irq.wake);
	p->harts = a->harts < b->harts ? a->harts : b->harts;
	for (unsigned int h = 0; h < p->harts; h++) {
		struct tacet_hart_info *s = &p->hart[h];
		const struct tacet_hart_info *ah = &a->hart[h], *bh = &b->hart[h];

		hist_add(s->bkl_wait_hist, ah->bkl_wait_hist, bh->bkl_wait_hist);
		s->bkl_wait_total += ah->bkl_wait_total - bh->bkl_wait_total;
		s->bkl_wait_slept += ah->bkl_wait_slept - bh->bkl_wait_slept;
		s->bkl_wait_max = ah->bkl_wait_max;
	}
}

static uint64_t hist_ns(const unsigned long *h, unsigned int p, uint64_t max)
{
	return ns(tacet_log2hist_percentile(h, p, max));
}

static void report_irq(const struct phase *p)
{
	const struct tacet_irq_hist *r = &p->irq;
	unsigned long d = r->count ? r->count : 1;

	printf("WALL phase=%s top count=%lu avg_ns=%lu p50_ns=%lu p99_ns=%lu max_ns=%lu\n", p->name,
	       r->count, ns(r->top_sum / d), hist_ns(r->top, 50, r->top_max),
	       hist_ns(r->top, 99, r->top_max), hist_ns(r->top, 100, r->top_max));
	printf("WALL phase=%s wake avg_ns=%lu p50_ns=%lu p99_ns=%lu max_ns=%lu\n", p->name,
	       ns(r->wake_sum / d), hist_ns(r->wake, 50, r->wake_max),
	       hist_ns(r->wake, 99, r->wake_max), hist_ns(r->wake, 100, r->wake_max));
}

static void report_hart(const struct phase *p, unsigned int h)
{
	const struct tacet_hart_info *w = &p->hart[h];
	unsigned long n = tacet_log2hist_total(w->bkl_wait_hist);

	printf("WALL phase=%s hart=%u waits=%lu slept=%lu total_ns=%lu avg_ns=%lu\n", p->name, h, n,
	       w->bkl_wait_slept, ns(w->bkl_wait_total), ns(w->bkl_wait_total / (n ? n : 1)));
	printf("WALL phase=%s hart=%u p50_ns=%lu p99_ns=%lu max_ns=%lu\n", p->name, h,
	       hist_ns(w->bkl_wait_hist, 50, w->bkl_wait_max),
	       hist_ns(w->bkl_wait_hist, 99, w->bkl_wait_max),
	       hist_ns(w->bkl_wait_hist, 100, w->bkl_wait_max));
}

static void report(struct phase *p)
{
	sort(p->late, p->alarms);
	p->p50 = rank(p->late, p->alarms, 50);
	p->p99 = rank(p->late, p->alarms, 99);
	p->max = p->late[p->alarms - 1];
	printf("WALL phase=%s driver alarms=%lu windows=%lu p50_ns=%lu p99_ns=%lu max_ns=%lu\n",
	       p->name, p->alarms, WALL_WINDOWS / WALL_PHASES, p->p50, p->p99, p->max);
	report_irq(p);
	for (unsigned int h = 0; h < p->harts; h++)
		report_hart(p, h);
}

/* n alarms, unrecorded. */
static long settle(unsigned long n)
{
	uint64_t skip;
	long err = 0;

	for (unsigned long i = 0; !err && i < n; i++)
		err = one_alarm(&skip);
	return err;
}

/* One window of p: WALL_WINDOW alarms between two snapshots, added to p. */
static long window(struct phase *p)
{
	long err = snap(&before);

	for (unsigned long i = 0; !err && i < WALL_WINDOW; i++)
		if (!(err = one_alarm(&p->late[p->alarms])))
			p->alarms++;
	if (!err)
		err = snap(&after);
	if (!err)
		add_window(p, &after, &before);
	return err;
}

/* Let the stressors go for p's windows, or hold them as p wants. */
static long turn_to(const struct phase *p)
{
	return p == &stressed ? stress_ctl_go(&ctl) : stress_ctl_hold(&ctl, p == &busy);
}

/* The warm-up, then the windows in ORDER, the stressors let go or held before each change. */
static long measure(void)
{
	const struct phase *now = &idle; /* held asleep since their set-up */
	long err = settle(WALL_WARMUP);

	for (unsigned long w = 0; !err && w < WALL_WINDOWS; w++) {
		struct phase *next = ORDER[w % (sizeof(ORDER) / sizeof(ORDER[0]))];

		if (next != now) {
			err = turn_to(next);
			if (!err)
				err = settle(now == &idle ? WALL_WAKE : WALL_SETTLE);
			now = next;
		}
		if (!err)
			err = window(next);
	}
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
		err = measure();
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
	report(&busy);
	report(&stressed);
	printf("bench_wall: done, %lu alarms a phase in %lu windows, one each %lu ns\n",
	       WALL_ALARMS, WALL_WINDOWS / WALL_PHASES, WALL_PERIOD_NS);
	tacet_poweroff(0);
	return 0;
}
