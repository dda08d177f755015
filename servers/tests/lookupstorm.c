/* lookupstorm: a driver that a storm of name lookups must not delay (shared servers
 * do not lend priority; init.run=lookupstorm@0/110:goldfish-rtc on 4 harts). The main thread is
 * a goldfish RTC driver at priority 110 on hart 0, init's hart; a storm thread on each other
 * hart, at priority 10, looks up the name the driver published, in a tight loop. Checks:
 *  - no lookup is answered while the driver holds hart 0. The driver spins (never blocks) from
 *    when it first sees a storm thread's call pending at init until SPIN_MS later. Each storm
 *    thread counts its calls in `seq` (odd: in a call), and the kernel says whether a thread is
 *    blocked in one (TACET_INFO_THREAD), so the driver knows the calls init answered during the
 *    spin that were pending at init during it, or made after it began: init served those ahead
 *    of the driver. With strict priorities that count is 0 when init serves clients below 110,
 *    however fast or loaded the machine; an init that serves them at its own priority (200)
 *    answers at once. And the storm did wait on init meanwhile: a call seen pending during the
 *    spin still is at its end;
 *  - no thread of init is seen running or ready at or above the driver's priority during the
 *    storm (storm thread 0 samples TACET_INFO_THREAD every 16 lookups);
 *  - the storm's lookups are answered (STORM_LOOKUPS of them at least, none failing).
 * Prints the driver's interrupt latency (an RTC alarm 1 ms after the last: the kernel's
 * trap-entry stamp to the driver running, in rdcycle) without the storm and during it: figures,
 * not checks (the host's load moves them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tacet.h>
#include <tacet/goldfish_rtc.h>

#define NAME          "lookupstorm"
#define STORM_PRIO    10
#define STORM_MAX     (TACET_INFO_MAX_HARTS - 1)
#define STORM_STACK   (2 * TACET_PAGE_SIZE)
#define STORM_LOOKUPS 2000ul /* the storm phase lasts until the storm has made this many */
#define ALARMS        200    /* latency samples in each phase, at least */
#define SPIN_MS       20
#define SPIN_ANSWERED 20     /* an init that answers this many during the spin: enough said */
#define MS            1000000ull

static struct tacet_device rtc;
static unsigned long driver_prio, done_slot, cycles_per_us;
static int failures;

/* Shared with the storm threads (atomics). */
static int stop;
static unsigned long lookups, failed;
static unsigned long samples, init_busy_below, init_busy_at_or_above, init_busy_top;
/* The spin's findings. */
static unsigned long answered_in_spin, waited_through_spin;

static unsigned long get(unsigned long *v)
{
	return __atomic_load_n(v, __ATOMIC_SEQ_CST);
}

static void add(unsigned long *v)
{
	__atomic_fetch_add(v, 1, __ATOMIC_SEQ_CST);
}

static void check(int ok, const char *what)
{
	printf("lookupstorm: %s: %s\n", what, ok ? "PASS" : "FAIL");
	failures += !ok;
}

/* init's threads now: how many run or wait to run, by priority against the driver's. */
static void sample_init(void)
{
	struct tacet_thread_info ti;

	for (unsigned long i = 0; tacet_info(TACET_INFO_THREAD, i, &ti, sizeof(ti)) > 0; i++) {
		if (strncmp(ti.process, "init", sizeof(ti.process)) ||
		    (ti.state != TACET_THREAD_RUNNING && ti.state != TACET_THREAD_READY))
			continue;
		add(ti.priority >= driver_prio ? &init_busy_at_or_above : &init_busy_below);
		if (ti.priority > get(&init_busy_top))
			__atomic_store_n(&init_busy_top, ti.priority, __ATOMIC_SEQ_CST);
	}
	add(&samples);
}

struct storm {
	unsigned int index;
	unsigned long dst; /* the slot each lookup fills (emptied again) */
	unsigned long seq; /* one up before each call and after it: odd while in a call */
	long tid;
	struct tacet_dma stack;
};

static void storm(void *arg)
{
	struct storm *st = arg;

	for (unsigned long n = 0; !__atomic_load_n(&stop, __ATOMIC_SEQ_CST); n++) {
		long err;

		add(&st->seq);
		err = tacet_lookup(NAME, st->dst, 0);
		add(&st->seq);
		if (err)
			add(&failed);
		else
			add(&lookups);
		tacet_cap_delete(st->dst);
		if (st->index == 0 && n % 16 == 0)
			sample_init();
	}
	tacet_signal(done_slot, 1ul << st->index);
}

static int compare_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* Alarms 1 ms apart, each interrupt's latency (cycles from the kernel's trap entry to this
 * thread running) into lat[] (up to max): at least n, and on until the storm has made `until`
 * lookups (for 20 s at most). Returns how many are in lat[]. */
static unsigned long measure(unsigned long *lat, unsigned long n, unsigned long max,
			     unsigned long until)
{
	unsigned long got = 0, stamp = 0;
	uint64_t t0 = tacet_time_ns();
	long bits;

	goldfish_rtc_alarm_in(&rtc, 1 * MS);
	bits = tacet_wait(rtc.ntfn_slot); /* the first one unstamped: nothing to acknowledge yet */
	while (bits > 0 && (got < n || (get(&lookups) < until && tacet_time_ns() - t0 < 20000 * MS))) {
		mmio_write32(rtc.regs + GOLDFISH_RTC_CLEAR_INTERRUPT, 1);
		goldfish_rtc_alarm_in(&rtc, 1 * MS);
		bits = tacet_irq_ack_wait(rtc.irq_slot, 1, rtc.ntfn_slot, &stamp);
		if (bits > 0 && stamp && got < max)
			lat[got++] = tacet_cycles() - stamp;
	}
	mmio_write32(rtc.regs + GOLDFISH_RTC_CLEAR_INTERRUPT, 1);
	tacet_irq_ack(rtc.irq_slot, 1);
	return got;
}

static void report(const char *when, unsigned long *lat, unsigned long n)
{
	if (!n) {
		printf("lookupstorm: no interrupt latency %s\n", when);
		return;
	}
	qsort(lat, n, sizeof(lat[0]), compare_ulong);
	printf("lookupstorm: interrupt latency %s: median %lu us, p99 %lu us, max %lu us "
	       "(%lu alarms)\n", when, lat[(n - 1) / 2] / cycles_per_us,
	       lat[n * 99 / 100] / cycles_per_us, lat[n - 1] / cycles_per_us, n);
}

/* The calls storm thread i made after its seq read `start` and init answered by its seq `now`:
 * the first such call made its seq the first odd number above start. */
static unsigned long answered_since(unsigned long start, unsigned long now)
{
	unsigned long first = start + 1 + (start & 1);

	return now > first ? (now - first + 1) / 2 : 0;
}

/* The storm threads whose call is pending at init now (seq odd and the same before and after
 * the kernel says the thread is blocked in a call): their seq into pending[] where it is 0. */
static unsigned int note_pending(struct storm *st, unsigned int n, unsigned long *pending)
{
	struct tacet_thread_info ti;
	unsigned long seq[STORM_MAX];
	unsigned int found = 0;

	for (unsigned int i = 0; i < n; i++)
		seq[i] = get(&st[i].seq);
	for (unsigned long k = 0; tacet_info(TACET_INFO_THREAD, k, &ti, sizeof(ti)) > 0; k++) {
		for (unsigned int i = 0; i < n; i++) {
			if (ti.tid != (unsigned long)st[i].tid || !(seq[i] & 1) ||
			    (ti.state != TACET_THREAD_BLOCKED_SEND &&
			     ti.state != TACET_THREAD_BLOCKED_REPLY) ||
			    get(&st[i].seq) != seq[i])
				continue;
			found++;
			if (!pending[i])
				pending[i] = seq[i];
		}
	}
	return found;
}

/* The driver holds hart 0 (never blocks) while the storm calls init: from when it first sees a
 * storm thread's call pending at init until SPIN_MS later, or until init has answered
 * SPIN_ANSWERED calls during the spin (or, if no call is ever seen pending, for 5 s). A call
 * answered during the spin that was pending at init during it, or made after it began, was
 * served ahead of the driver. */
static void spin(struct storm *st, unsigned int n)
{
	unsigned long start[STORM_MAX], pending[STORM_MAX] = { 0 }, answered;
	uint64_t t0 = tacet_time_ns(), first = 0, now;

	for (unsigned int i = 0; i < n; i++)
		start[i] = get(&st[i].seq);
	do {
		now = tacet_time_ns();
		if (note_pending(st, n, pending) && !first)
			first = now;
		answered = 0;
		for (unsigned int i = 0; i < n; i++) {
			unsigned long seq = get(&st[i].seq);

			/* made after the spin began, or the one it began in, seen pending since */
			answered += answered_since(start[i], seq) +
				    (pending[i] == start[i] && (start[i] & 1) && seq != start[i]);
		}
	} while (answered < SPIN_ANSWERED && (!first || now - first < SPIN_MS * MS) &&
		 now - t0 < 5000 * MS);
	answered_in_spin = answered;
	for (unsigned int i = 0; i < n; i++)
		waited_through_spin += pending[i] && get(&st[i].seq) == pending[i];
	printf("lookupstorm: the driver held hart 0 for %llu ms: init answered %lu calls meanwhile; "
	       "%lu storm threads waited on init all along\n",
	       (unsigned long long)((now - t0) / MS), answered_in_spin, waited_through_spin);
}

/* One storm thread on each hart but the driver's; their bits in done_slot. */
static unsigned long start_storm(struct storm *st, struct tacet_self *self)
{
	struct tacet_hart_info hi;
	unsigned long mask = 0;
	unsigned int n = 0;

	for (unsigned long h = 0; n < STORM_MAX && tacet_info(TACET_INFO_HART, h, &hi, sizeof(hi)) > 0;
	     h++) {
		long dst;

		if (h == self->hart)
			continue;
		dst = tacet_slot_alloc();
		st[n].index = n;
		st[n].dst = (unsigned long)dst;
		if (dst < 0 || tacet_dma_alloc(STORM_STACK, &st[n].stack) ||
		    (st[n].tid = tacet_thread_start(storm, &st[n],
						    (unsigned long)st[n].stack.va + STORM_STACK,
						    TACET_SCHED(STORM_PRIO, h))) < 0) {
			printf("lookupstorm: cannot start a storm thread on hart %lu\n", h);
			break;
		}
		mask |= 1ul << n++;
	}
	return mask;
}

int main(void)
{
	static unsigned long quiet[ALARMS], busy[20 * ALARMS];
	static struct storm st[STORM_MAX];
	struct tacet_self self;
	unsigned long mask, nquiet, nbusy, before, c0, slot = (unsigned long)tacet_slot_alloc();
	uint64_t t0;
	long err;

	tacet_self(&self);
	driver_prio = self.prio;
	done_slot = (unsigned long)tacet_slot_alloc();
	err = tacet_device_open(&rtc, "goldfish-rtc", 0, 0);
	if (!err)
		err = tacet_ntfn_new(slot);
	if (!err)
		err = tacet_publish(NAME, slot, TACET_RIGHT_WRITE);
	if (!err)
		err = tacet_ntfn_new(done_slot);
	if (err) {
		printf("lookupstorm: cannot start: %s: FAIL\n", tacet_strerror(err));
		return 1;
	}
	c0 = tacet_cycles();
	t0 = tacet_time_ns();
	tacet_sleep_ns(20 * MS);
	cycles_per_us = (tacet_cycles() - c0) / ((tacet_time_ns() - t0) / 1000);
	cycles_per_us += !cycles_per_us;
	printf("lookupstorm: driver at priority %lu on hart %lu\n", driver_prio, self.hart);

	nquiet = measure(quiet, ALARMS, ALARMS, 0);
	mask = start_storm(st, &self);
	for (t0 = tacet_time_ns(); get(&lookups) < 100 && tacet_time_ns() - t0 < 10000 * MS;)
		tacet_sleep_ns(1 * MS);
	before = get(&lookups);
	nbusy = measure(busy, ALARMS, sizeof(busy) / sizeof(busy[0]), before + STORM_LOOKUPS);
	spin(st, (unsigned int)__builtin_popcountl(mask));
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	for (unsigned long done = 0; mask && (done & mask) != mask;) {
		long bits = tacet_wait(done_slot);

		if (bits < 0)
			break;
		done |= (unsigned long)bits;
	}

	report("without the storm", quiet, nquiet);
	report("during the storm", busy, nbusy);
	printf("lookupstorm: %lu lookups (%lu failed) by %d storm threads at priority %d; in %lu "
	       "samples a thread of init was running or ready %lu times below priority %lu, %lu "
	       "at or above (highest %lu)\n",
	       get(&lookups), get(&failed), __builtin_popcountl(mask), STORM_PRIO, get(&samples),
	       get(&init_busy_below), driver_prio, get(&init_busy_at_or_above),
	       get(&init_busy_top));
	check(mask && get(&lookups) >= STORM_LOOKUPS && !get(&failed),
	      "the storm's lookups were answered");
	check(waited_through_spin > 0, "the storm waited on init while the driver held hart 0");
	check(answered_in_spin == 0, "init answered no lookup ahead of the driver");
	check(get(&init_busy_at_or_above) == 0,
	      "no thread of init ran at or above the driver's priority during the storm");
	printf("lookupstorm: %s\n", failures ? "FAIL" : "all checks passed");
	return failures != 0;
}
