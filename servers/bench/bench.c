/* bench.c: the benchmark servers' shared code: the read-pair overhead, the sorted summary
 * line, raw threads and the three-thread turn-taking (see bench.h). */
#include <stdio.h>
#include <stdlib.h>
#include <tacet.h>
#include <tacet/bench_hist.h>
#include <tacet/init_proto.h>
#include "bench.h"

#define MAX_THREADS 16 /* bench_irq_scale: three for each of its four paths */

/* What a raw thread runs; its a0 points here. */
struct bench_thread {
	void (*fn)(unsigned long arg);
	unsigned long arg;
};

static struct bench_thread threads[MAX_THREADS];
static unsigned int nthreads;
static unsigned long overhead_samples[BENCH_SAMPLES];

static int compare_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return (x > y) - (x < y);
}

unsigned long bench_overhead(void)
{
	for (unsigned long i = 0; i < BENCH_WARMUP + BENCH_SAMPLES; i++) {
		unsigned long c0 = bench_rdcycle();
		unsigned long c1 = bench_rdcycle();

		if (i >= BENCH_WARMUP)
			overhead_samples[i - BENCH_WARMUP] = c1 - c0;
	}
	qsort(overhead_samples, BENCH_SAMPLES, sizeof(overhead_samples[0]), compare_ulong);
	printf("bench: rdcycle pair overhead %lu instructions\n",
	       overhead_samples[(BENCH_SAMPLES - 1) / 2]);
	return overhead_samples[(BENCH_SAMPLES - 1) / 2];
}

void bench_report(const char *name, unsigned long *samples, unsigned long n)
{
	unsigned int shown = 0;

	qsort(samples, n, sizeof(samples[0]), compare_ulong);
	printf("BENCH %s samples=%lu min=%lu median=%lu max=%lu\n", name, n, samples[0],
	       samples[(n - 1) / 2], samples[n - 1]);
	printf("BENCHHIST %s p90=%lu p99=%lu", name, tacet_hist_percentile(samples, n, 90),
	       tacet_hist_percentile(samples, n, 99));
	for (unsigned long i = 0, run; i < n; i += run, shown++) {
		uint64_t low = tacet_hist_low(samples[0], tacet_hist_bucket(samples[i], samples[0]));

		run = tacet_hist_run(samples, n, i, shown);
		printf(" %lu:%lu", (unsigned long)low, run);
	}
	printf("\n");
}

unsigned long bench_ticks(unsigned long harts)
{
	struct tacet_hart_info hi;
	unsigned long n = 0;

	for (unsigned int h = 0; h < 64 && harts >> h; h++) {
		if (!(harts >> h & 1))
			continue;
		if (tacet_info(TACET_INFO_HART, h, &hi, sizeof(hi)) <= 0)
			break; /* no such hart: the rest neither */
		n += hi.timer_irqs;
	}
	return n;
}

long bench_measure(const char *name, long (*op)(unsigned long *took), unsigned long overhead,
		   unsigned long *samples)
{
	unsigned long n = 0, dropped = 0;
	long err = 0;

	for (unsigned long i = 0; !err && n < BENCH_SAMPLES; i++) {
		unsigned long seen = bench_ticks(~0ul), took;

		err = op(&took);
		if (err || i < BENCH_WARMUP)
			continue;
		if (bench_ticks(~0ul) != seen)
			err = ++dropped > BENCH_SPARE ? -TACET_EBUSY : 0;
		else
			samples[n++] = took - overhead;
	}
	if (err) {
		printf("%s: %s (%lu samples, %lu dropped)\n", name, tacet_strerror(err), n, dropped);
		return err;
	}
	printf("%s: %lu rounds dropped for a timer interrupt\n", name, dropped);
	bench_report(name, samples, BENCH_SAMPLES);
	return 0;
}

/* Where a raw thread starts (a0 = its struct bench_thread): the thread has only sp and a0, so
 * gp comes first (lla without relaxation: relaxed, it would be relative to gp itself). */
__asm__(".pushsection .text.bench_thread_entry, \"ax\", @progbits\n"
	".globl bench_thread_entry\n"
	".type bench_thread_entry, @function\n"
	"bench_thread_entry:\n"
	".option push\n"
	".option norelax\n"
	"	lla gp, __global_pointer$\n"
	".option pop\n"
	"	li s0, 0\n" /* the end of the frame chain */
	"	call bench_thread_main\n"
	".size bench_thread_entry, . - bench_thread_entry\n"
	".popsection\n");

void bench_thread_entry(void);
_Noreturn void bench_thread_main(const struct bench_thread *t);

_Noreturn void bench_thread_main(const struct bench_thread *t)
{
	t->fn(t->arg);
	tacet_exit(0);
}

long bench_thread_start(void (*fn)(unsigned long arg), unsigned long arg, unsigned int prio,
			unsigned int hart, unsigned long stack_slot, unsigned long stack_va)
{
	struct bench_thread *t;
	long err;

	if (nthreads == MAX_THREADS)
		return -TACET_ENOMEM;
	t = &threads[nthreads++];
	t->fn = fn;
	t->arg = arg;
	err = tacet_frame_new(stack_slot, 1);
	if (!err)
		err = tacet_map(TACET_CHILD_SELF, stack_slot, stack_va,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (!err)
		err = tacet_thread_new(TACET_CHILD_SELF, 0, (unsigned long)bench_thread_entry,
				       stack_va + TACET_PAGE_SIZE, (unsigned long)t,
				       TACET_SCHED(prio, hart));
	return err < 0 ? err : 0;
}

static unsigned long trio_ack_slot, trio_acker_slot;

/* One go-ahead at the start, one each time the waiter blocks again, one when it is done. */
static void trio_acker(unsigned long arg)
{
	long bits;

	(void)arg;
	do {
		tacet_signal(trio_ack_slot, 1);
		bits = tacet_wait(trio_acker_slot);
	} while (bits > 0 && !(bits & BENCH_ACKER_QUIT));
	tacet_signal(trio_ack_slot, 1);
}

long bench_trio_start(const struct bench_trio *trio)
{
	long err;

	trio_ack_slot = trio->ack_slot;
	trio_acker_slot = trio->acker_slot;
	/* the waiter first: it must be waiting before the acker's first go-ahead */
	err = bench_thread_start(trio->waiter, 0, BENCH_WAITER_PRIO, trio->waiter_hart,
				 trio->first_stack_slot, trio->stacks_va);
	if (!err)
		err = bench_thread_start(trio_acker, 0, BENCH_ACKER_PRIO, trio->waiter_hart,
					 trio->first_stack_slot + 1,
					 trio->stacks_va + 2 * TACET_PAGE_SIZE);
	if (!err)
		err = bench_thread_start(trio->driver, 0, BENCH_DRIVER_PRIO, trio->driver_hart,
					 trio->first_stack_slot + 2,
					 trio->stacks_va + 4 * TACET_PAGE_SIZE);
	return err;
}

void bench_power_off(void)
{
	tacet_poweroff(0);
}
