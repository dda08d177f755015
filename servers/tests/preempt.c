/* preempt: a long teardown is preempted, in the manner of sel4test's PREEMPT_REVOKE
 * (init.run=preempt@1/200:goldfish-rtc on 2 harts). A chain of PREEMPT_DEPTH processes, each
 * holding in its cspace the only capability to the next (chain_cap's chain without threads,
 * chains.c: the cheapest chain there is, two pages and a struct process a link), is ended by
 * one system call, the deletion of the tester's capability to the first, made by the ender
 * thread (priority 100, hart 1). Three times in one boot, each chain built afresh:
 *  - unpreempted: nothing else runs; the reference for the other two;
 *  - across harts: a driver thread at priority 200 on hart 0 takes the goldfish RTC's alarm
 *    every PERIOD_NS, re-arming it after each interrupt (tacet_irq_ack_wait). The interrupts
 *    whose driver ran between the ender's stamps just before and just after its call (rdtime:
 *    the one clock all harts share) are counted. Each needed the BKL twice on hart 0 (its top
 *    half, and the driver's ack_wait) while hart 1's call held it: with the reaper's
 *    preemption points (bkl_yield, kernel/core/bkl.c) they are many, at least MIN_SERVED;
 *    without them none (the driver could run only after the call);
 *  - on the same hart: the line moved to hart 1, a driver thread at priority 200 there arms one
 *    alarm an eighth of the unpreempted call ahead (ALARM_MAX_NS at most), wakes the ender and
 *    blocks in tacet_irq_ack_wait; the ender makes its call. The stamp ack_wait gives the driver
 *    is the top half's (the cycle count at which the kernel took the interrupt): it must fall
 *    inside the call with at least a quarter of the call still to go, i.e. at a preemption
 *    point; and the driver, which outranks the ender, must run inside the call too, within a
 *    quarter of the call of its top half (the point holds the call back for it:
 *    kernel/core/syscall.c). Without preemption points the interrupt waits for the return to
 *    user mode and the stamp is the call's end; with points that do not switch threads the
 *    driver runs only once the call has returned.
 * Each run checks that the call succeeded and that everything came back (free pages and the
 * object caches' pages, kernel objects, this server's account: as before the chain was built),
 * and the two preempted runs that their chain cost and gave back exactly what the unpreempted
 * one did. Prints figures (the call's length, the interrupts' latency) and PASS/FAIL lines;
 * exits 0 when every check passed. No IPC protocol. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tacet.h>
#include "chains.h"
#include <tacet/goldfish_rtc.h>

/* The chain's depth: 100,000. Each link costs two pages (its page-table root and
 * its cspace) and a struct process (a 256-byte object), 8,448 bytes: 844,800,000 bytes of the
 * server's account, 206,250 pages, which the case gives it with init.budget=210000 on -m 2G
 * (about 523,000 pages free: the machine would hold some 245,000 links). */
#define PREEMPT_DEPTH 100000ul
#define ENDER_HART    1
#define OTHER_HART    0
#define ENDER_PRIO    100
#define DRIVER_PRIO   200 /* the top: init's (a server's threads may not outrank it) */
#define PERIOD_NS     (1 * MS) /* the cross-hart driver's alarm period */
#define MIN_SERVED    10 /* interrupts served across harts during the call, at least */
/* The same-hart alarm: an eighth of the unpreempted call after the call begins, at most this:
 * late enough that no stall of the host between the alarm's setting and the call (a few
 * instructions) makes it come first, early enough that the call, however its length varies
 * with the host's load from one run to the next, has more than a quarter to go. */
#define ALARM_MAX_NS  (100 * MS)
#define MAX_SAMPLES   16384
#define STACK_SIZE    (4 * TACET_PAGE_SIZE)
#define MS            1000000ull

/* Bits of the notifications the threads talk through. */
#define GO_BUILD   (1ul << 0) /* ender: build a chain (memory snapshots around it) */
#define GO_END     (1ul << 1) /* ender: end it with one call (stamps and snapshots around it) */
#define GO_QUIT    (1ul << 2) /* ender: return */
#define BUILT      (1ul << 0) /* main: the ender built its chain */
#define ENDED      (1ul << 1) /* main: the ender's call returned */
#define TICKING    (1ul << 2) /* main: the cross-hart driver took its first interrupt */
#define DRIVER_OUT (1ul << 3) /* main: the driver is done with the line (cleared, acknowledged) */

static struct tacet_device rtc;
static unsigned long main_ntfn, ender_ntfn, driver_ntfn, cycles_per_us = 1;

static inline unsigned long rdcycle(void)
{
	unsigned long c;

	__asm__ volatile("rdcycle %0" : "=r"(c));
	return c;
}

/* One run: the ender's figures. */
struct run {
	const char *name;
	long build_err, end_err;
	struct tacet_mem_info before, built, after;
	unsigned long acct_before, acct_built, acct_after;
	unsigned long t_before, t_after; /* rdtime just before and after the call */
	unsigned long c_before, c_after; /* rdcycle likewise (the ender's hart's counter) */
	unsigned long ext_before[2], ext_after[2]; /* each hart's external interrupts, likewise */
	unsigned long alarm_ns; /* if not 0: the RTC's alarm set this far ahead right before the
				 * call, after its stamps (so it comes after them) */
};

/* The driver of a run: its mode, and what it saw. */
struct driver {
	int same_hart;
	int stop;               /* across harts: set by main once the call returned (atomic) */
	long err;
	unsigned long n;        /* interrupts served (samples kept: at most MAX_SAMPLES) */
	unsigned long stamp[MAX_SAMPLES];  /* ack_wait's stamp: the top half's cycle count */
	unsigned long woke_c[MAX_SAMPLES]; /* rdcycle when the driver ran (its hart's counter) */
	unsigned long woke_t[MAX_SAMPLES]; /* rdtime likewise */
};

static struct run runs[3];
static struct driver drv;
static struct tacet_dma stacks[3];
static struct run *ender_run;

static unsigned long account_used(void)
{
	unsigned long used = 0, limit = 0;

	tacet_process_memory(TACET_CHILD_SELF, &used, &limit);
	return used;
}

static void ext_irqs(unsigned long out[2])
{
	struct tacet_hart_info hi;

	for (unsigned long h = 0; h < 2; h++)
		out[h] = tacet_info(TACET_INFO_HART, h, &hi, sizeof(hi)) > 0 ? hi.ext_irqs : 0;
}

/* The ender: builds a chain on GO_BUILD, ends it with one call on GO_END, in the run
 * ender_run points at; priority ENDER_PRIO on ENDER_HART, below every driver. */
static void ender(void *arg)
{
	(void)arg;
	for (;;) {
		long bits = tacet_wait(ender_ntfn);
		struct run *r = ender_run;

		if (bits < 0 || (bits & GO_QUIT))
			return;
		if (bits & GO_BUILD) {
			mem_snapshot(&r->before);
			r->acct_before = account_used();
			r->build_err = chain_cap_build(PREEMPT_DEPTH, 0);
			mem_snapshot(&r->built);
			r->acct_built = account_used();
			tacet_signal(main_ntfn, BUILT);
		}
		if (bits & GO_END) {
			ext_irqs(r->ext_before);
			r->t_before = tacet_time();
			r->c_before = rdcycle();
			if (r->alarm_ns)
				goldfish_rtc_alarm_in(&rtc, r->alarm_ns);
			r->end_err = tacet_cap_delete(SLOT_FIRST); /* the whole chain: one call */
			r->c_after = rdcycle();
			r->t_after = tacet_time();
			ext_irqs(r->ext_after);
			mem_snapshot(&r->after);
			r->acct_after = account_used();
			tacet_signal(main_ntfn, ENDED);
		}
	}
}

static void keep(struct driver *d, unsigned long stamp)
{
	if (d->n < MAX_SAMPLES) {
		d->woke_c[d->n] = rdcycle();
		d->woke_t[d->n] = tacet_time();
		d->stamp[d->n] = stamp;
	}
	d->n++;
}

/* Done with the line: no alarm pending, the interrupt cleared and acknowledged (the line idle
 * for the next driver, whose loop starts with a plain wait). */
static void line_done(struct driver *d)
{
	long err;

	mmio_write32(rtc.regs + GOLDFISH_RTC_IRQ_ENABLED, 0);
	mmio_write32(rtc.regs + GOLDFISH_RTC_CLEAR_INTERRUPT, 1);
	err = tacet_irq_ack(rtc.irq_slot, 1);
	if (err && !d->err)
		d->err = err;
	tacet_signal(main_ntfn, DRIVER_OUT);
}

/* The driver, at DRIVER_PRIO on the line's hart; starts on driver_ntfn. */
static void driver(void *arg)
{
	struct driver *d = arg;
	unsigned long stamp = 0;
	long bits = tacet_wait(driver_ntfn);

	/* the first interrupt, waited for plainly: nothing to acknowledge yet */
	if (bits > 0) {
		goldfish_rtc_alarm_in(&rtc, PERIOD_NS);
		bits = tacet_wait(rtc.ntfn_slot);
	}
	if (bits < 0) {
		d->err = bits;
		line_done(d);
		tacet_wait(driver_ntfn);
		return;
	}
	mmio_write32(rtc.regs + GOLDFISH_RTC_CLEAR_INTERRUPT, 1);
	if (d->same_hart) {
		/* the ender sets one alarm and makes its call once this thread blocks */
		tacet_signal(ender_ntfn, GO_END);
		bits = tacet_irq_ack_wait(rtc.irq_slot, 1, rtc.ntfn_slot, &stamp);
		if (bits > 0)
			keep(d, stamp);
	} else {
		tacet_signal(main_ntfn, TICKING);
		for (;;) {
			goldfish_rtc_alarm_in(&rtc, PERIOD_NS);
			bits = tacet_irq_ack_wait(rtc.irq_slot, 1, rtc.ntfn_slot, &stamp);
			if (bits <= 0)
				break;
			keep(d, stamp);
			if (__atomic_load_n(&d->stop, __ATOMIC_SEQ_CST))
				break;
			mmio_write32(rtc.regs + GOLDFISH_RTC_CLEAR_INTERRUPT, 1);
		}
	}
	if (bits < 0)
		d->err = bits;
	line_done(d);
	tacet_wait(driver_ntfn); /* ends only once the run's memory is counted */
}

/* Wait on main_ntfn until every bit of `want` came. */
static void await(unsigned long want)
{
	static unsigned long got;

	while ((got & want) != want) {
		long bits = tacet_wait(main_ntfn);

		if (bits < 0) {
			printf("preempt: FAIL: waiting: %s\n", tacet_strerror(bits));
			exit(1);
		}
		got |= (unsigned long)bits;
	}
	got &= ~want;
}

/* Until thread tid is gone (its kernel object freed), so that it is not freed inside the next
 * run's memory window. */
static void await_gone(long tid)
{
	struct tacet_thread_info ti;
	int seen;

	do {
		seen = 0;
		for (unsigned long i = 0; tacet_info(TACET_INFO_THREAD, i, &ti, sizeof(ti)) > 0; i++)
			seen |= ti.tid == (unsigned long)tid;
		if (seen)
			tacet_sleep_ns(1 * MS);
	} while (seen);
}

static long start_driver(int same_hart, unsigned long hart, struct tacet_dma *stack)
{
	long err = tacet_irq_set_affinity(rtc.irq_slot, hart);

	memset(&drv, 0, sizeof(drv));
	drv.same_hart = same_hart;
	if (err)
		return err;
	return tacet_thread_start(driver, &drv, (unsigned long)stack->va + STACK_SIZE,
				  TACET_SCHED(DRIVER_PRIO, hart));
}

static unsigned long us_of_ticks(unsigned long ticks)
{
	return (unsigned long)(tacet_ticks_to_ns(ticks) / 1000);
}

/* Build and report; 0 if the chain is there: its processes and the record of the watch of its
 * first (chains.c), one kernel object each. */
static int build(struct run *r)
{
	ender_run = r;
	tacet_signal(ender_ntfn, GO_BUILD);
	await(BUILT);
	printf("preempt: %s: built %lu processes, each holding the only capability to the next: "
	       "%lu kernel objects more (with the first's watch), %lu pages fewer free, account %lu "
	       "bytes more: %s\n",
	       r->name, PREEMPT_DEPTH, r->built.kernel_objects - r->before.kernel_objects,
	       (r->before.free_pages + r->before.kernel_object_pages) -
		       (r->built.free_pages + r->built.kernel_object_pages),
	       r->acct_built - r->acct_before,
	       verdict(!r->build_err &&
		       r->built.kernel_objects - r->before.kernel_objects == PREEMPT_DEPTH + 1));
	if (r->build_err)
		printf("preempt: %s: building the chain: %s\n", r->name,
		       tacet_strerror(r->build_err));
	return r->build_err ? -1 : 0;
}

/* What the end left: the call's result, the memory. */
static void report_end(struct run *r)
{
	int back = r->before.free_pages + r->before.kernel_object_pages ==
			   r->after.free_pages + r->after.kernel_object_pages &&
		   r->before.kernel_objects == r->after.kernel_objects &&
		   r->acct_before == r->acct_after;

	printf("preempt: %s: ended the chain with one call of %lu us on hart %d (external "
	       "interrupts meanwhile: hart 0 %lu, hart 1 %lu): %s\n", r->name,
	       us_of_ticks(r->t_after - r->t_before), ENDER_HART,
	       r->ext_after[0] - r->ext_before[0], r->ext_after[1] - r->ext_before[1],
	       verdict(!r->end_err));
	printf("preempt: %s: memory back: free pages %lu -> %lu (object caches %lu -> %lu), kernel "
	       "objects %lu -> %lu, account %lu -> %lu bytes: %s\n", r->name, r->before.free_pages,
	       r->after.free_pages, r->before.kernel_object_pages, r->after.kernel_object_pages,
	       r->before.kernel_objects, r->after.kernel_objects, r->acct_before, r->acct_after,
	       verdict(back));
}

static int compare_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static void cross_hart_report(const struct run *r, const struct driver *d)
{
	static unsigned long lat[MAX_SAMPLES];
	unsigned long during = 0, stamped = 0, n = d->n < MAX_SAMPLES ? d->n : MAX_SAMPLES;

	for (unsigned long i = 0; i < n; i++) {
		if (d->woke_t[i] <= r->t_before || d->woke_t[i] >= r->t_after)
			continue;
		during++;
		if (d->stamp[i])
			lat[stamped++] = d->woke_c[i] - d->stamp[i];
	}
	qsort(lat, stamped, sizeof(lat[0]), compare_ulong);
	if (stamped)
		printf("preempt: across harts: those interrupts' latency, trap to driver: median "
		       "%lu us, max %lu us (%lu stamped)\n", lat[(stamped - 1) / 2] / cycles_per_us,
		       lat[stamped - 1] / cycles_per_us, stamped);
	printf("preempt: across harts: the driver on hart %d served %lu interrupts while the call "
	       "on hart %d ran (%lu in all, an alarm every %llu us, driver error %ld), at least "
	       "%d: %s\n", OTHER_HART, during, ENDER_HART, d->n, PERIOD_NS / 1000, d->err,
	       MIN_SERVED, verdict(!d->err && during >= MIN_SERVED));
}

/* The stamp (the top half's cycle count) inside the call with a quarter of it still to go: taken
 * at a preemption point, not on the way out; and the driver, which outranks the ender, ran
 * inside the call too, within a quarter of the call of its top half: the call was held back
 * for it at a point. */
static void same_hart_report(const struct run *r, const struct driver *d)
{
	unsigned long call = r->c_after - r->c_before, stamp = d->n ? d->stamp[0] : 0;
	int inside = d->n == 1 && stamp > r->c_before && stamp < r->c_after;
	unsigned long into = inside ? stamp - r->c_before : 0, left = inside ? r->c_after - stamp : 0;
	unsigned long woke = inside && d->woke_c[0] > stamp ? d->woke_c[0] - stamp : 0;

	printf("preempt: on hart %d: the alarm set %lu us ahead as the call began; its top half ran "
	       "%lu us into the call of %lu us, %lu us before it returned, and the driver %lu us "
	       "after the top half (%lu interrupt(s), driver error %ld)\n", ENDER_HART,
	       r->alarm_ns / 1000, into / cycles_per_us, call / cycles_per_us,
	       left / cycles_per_us, woke / cycles_per_us, d->n, d->err);
	printf("preempt: on hart %d: the interrupt was taken inside the call, at a preemption "
	       "point with at least a quarter of the call to go, its driver run inside the call "
	       "at once: %s\n", ENDER_HART,
	       verdict(!d->err && inside && left >= call / 4 && woke > 0 && woke < call / 4 &&
		       d->woke_c[0] < r->c_after));
}

static int same_chain(const struct run *a, const struct run *b)
{
	return a->built.kernel_objects - a->before.kernel_objects ==
		       b->built.kernel_objects - b->before.kernel_objects &&
	       (a->before.free_pages + a->before.kernel_object_pages) -
			       (a->built.free_pages + a->built.kernel_object_pages) ==
		       (b->before.free_pages + b->before.kernel_object_pages) -
			       (b->built.free_pages + b->built.kernel_object_pages) &&
	       a->acct_built - a->acct_before == b->acct_built - b->acct_before &&
	       a->after.kernel_objects - a->before.kernel_objects ==
		       b->after.kernel_objects - b->before.kernel_objects &&
	       (a->after.free_pages + a->after.kernel_object_pages) -
			       (a->before.free_pages + a->before.kernel_object_pages) ==
		       (b->after.free_pages + b->after.kernel_object_pages) -
			       (b->before.free_pages + b->before.kernel_object_pages) &&
	       a->acct_after - a->acct_before == b->acct_after - b->acct_before &&
	       !a->end_err && !b->end_err;
}

static long setup(void)
{
	struct tacet_self self;
	unsigned long c0;
	uint64_t t0;
	long err = chains_setup();
	long slot[3];

	tacet_self(&self);
	if (!err && (self.hart != ENDER_HART || self.prio != DRIVER_PRIO))
		err = -TACET_EINVAL;
	if (!err)
		err = tacet_device_open(&rtc, "goldfish-rtc", 0, 0);
	for (int i = 0; i < 3 && !err; i++) {
		slot[i] = tacet_slot_alloc();
		err = slot[i] < 0 ? slot[i] : tacet_ntfn_new((unsigned long)slot[i]);
	}
	for (int i = 0; i < 3 && !err; i++)
		err = tacet_dma_alloc(STACK_SIZE, &stacks[i]);
	if (err)
		return err;
	main_ntfn = (unsigned long)slot[0];
	ender_ntfn = (unsigned long)slot[1];
	driver_ntfn = (unsigned long)slot[2];
	c0 = rdcycle();
	t0 = tacet_time_ns();
	tacet_sleep_ns(20 * MS);
	cycles_per_us = (rdcycle() - c0) / ((tacet_time_ns() - t0) / 1000);
	cycles_per_us += !cycles_per_us;
	return 0;
}

int main(void)
{
	long err = setup(), ender_tid, tid = 0;
	struct run *r0 = &runs[0], *r1 = &runs[1], *r2 = &runs[2];

	if (err) {
		printf("preempt: FAIL: set-up (to be started @%d/%d with the goldfish RTC): %s\n",
		       ENDER_HART, DRIVER_PRIO, tacet_strerror(err));
		return 1;
	}
	r0->name = "unpreempted";
	r1->name = "across harts";
	r2->name = "on hart 1";
	ender_tid = tacet_thread_start(ender, NULL, (unsigned long)stacks[0].va + STACK_SIZE,
				       TACET_SCHED(ENDER_PRIO, ENDER_HART));
	if (ender_tid < 0) {
		printf("preempt: FAIL: the ender thread: %s\n", tacet_strerror(ender_tid));
		return 1;
	}
	printf("preempt: a chain of %lu processes ended by one call on hart %d, three times "
	       "(%lu cycles a microsecond)\n", PREEMPT_DEPTH, ENDER_HART, cycles_per_us);

	/* 1: unpreempted, the reference */
	if (build(r0))
		goto out;
	tacet_signal(ender_ntfn, GO_END);
	await(ENDED);
	report_end(r0);

	/* 2: a driver on the other hart takes the alarm every PERIOD_NS during the call */
	tid = start_driver(0, OTHER_HART, &stacks[1]);
	if (tid < 0 || build(r1))
		goto out;
	tacet_signal(driver_ntfn, 1);
	await(TICKING);
	tacet_signal(ender_ntfn, GO_END);
	await(ENDED);
	__atomic_store_n(&drv.stop, 1, __ATOMIC_SEQ_CST);
	await(DRIVER_OUT);
	tacet_signal(driver_ntfn, 1);
	await_gone(tid);
	report_end(r1);
	cross_hart_report(r1, &drv);

	/* 3: the driver on the ender's hart, one alarm an eighth of the call ahead */
	tid = start_driver(1, ENDER_HART, &stacks[2]);
	if (tid < 0 || build(r2))
		goto out;
	r2->alarm_ns = tacet_ticks_to_ns(r0->t_after - r0->t_before) / 8;
	if (r2->alarm_ns > ALARM_MAX_NS)
		r2->alarm_ns = ALARM_MAX_NS;
	tacet_signal(driver_ntfn, 1); /* it signals the ender when the alarm is set */
	await(ENDED | DRIVER_OUT);
	tacet_signal(driver_ntfn, 1);
	await_gone(tid);
	report_end(r2);
	same_hart_report(r2, &drv);

	printf("preempt: the preempted ends cost and gave back what the unpreempted one did: %s\n",
	       verdict(same_chain(r0, r1) && same_chain(r0, r2)));
out:
	if (tid < 0)
		printf("preempt: FAIL: the driver thread: %s\n", tacet_strerror(tid));
	tacet_signal(ender_ntfn, GO_QUIT);
	await_gone(ender_tid);
	chains_report_bkl("preempt");
	printf("preempt: %s\n", chains_failed ? "some checks failed" : "all checks passed");
	return chains_failed;
}
