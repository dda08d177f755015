/* ktest.c: the in-kernel test cases the QEMU harness selects with "test=NAME".
 * Work for all harts is posted as (ktest_hart_fn, ktest_generation); each hart runs it once
 * from its idle loop. Counters written by one hart and read by the boot hart are atomics. */
#ifndef CONFIG_KTEST
#error "kernel/test is built into the test kernel only (make test-kernel: -DCONFIG_KTEST)"
#endif
#include "test/ktest.h"
#include "arch.h"
#include "core/console.h"
#include "core/hart.h"
#include "irq/irq.h"
#include "lib/kfmt.h"
#include "lib/kstring.h"
#include "core/panic.h"
#include "core/platform.h"
#include "core/timer.h"
#include <tacet/bench_hist.h>

#define KTEST_FAIL_EXIT_CODE 2
#define TIMER_TEST_PERIOD_US 100
#define TIMER_TEST_IRQS      100
#define TIMER_TEST_TIMEOUT_US 5000000
#define IPI_TEST_ROUNDS      100
#define RECURSION_LIMIT      1000000
#define STACK_SIZE_BYTES     16384 /* a hart's interrupt stack (arch layout.h) */
#define IRQ_STACK_MARGIN     4096  /* the flood must stay this far from the guard page */
#define KTEST_HIST_LINE      256   /* a BENCHHIST line (under 200: tacet/bench_hist.h) */

struct ktest {
	const char *name;
	void (*run)(void);
};

static const char *current_test;
static void (*ktest_hart_fn)(void);
uint32_t ktest_generation;
static uint32_t ran_generation[MAX_HARTS];

_Noreturn void ktest_pass(void)
{
	kprintf("ktest: %s: PASS\n", current_test);
	platform_poweroff(0);
}

_Noreturn void ktest_fail(const char *fmt, ...)
{
	va_list ap;

	kprintf("ktest: %s: FAIL: ", current_test);
	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
	kprintf("\n");
	platform_poweroff(KTEST_FAIL_EXIT_CODE);
}

void ktest_report(const char *name, uint64_t *samples, unsigned int n)
{
	char line[KTEST_HIST_LINE];
	unsigned int shown = 0;
	size_t len;

	/* Shell sort, gaps n/2, n/4, ..., 1: small and enough for a few thousand samples. */
	for (unsigned int gap = n / 2; gap; gap /= 2)
		for (unsigned int i = gap; i < n; i++)
			for (unsigned int j = i; j >= gap && samples[j - gap] > samples[j]; j -= gap) {
				uint64_t t = samples[j];

				samples[j] = samples[j - gap];
				samples[j - gap] = t;
			}
	kprintf("BENCH %s samples=%u min=%lu median=%lu max=%lu\n", name, n,
		(unsigned long)samples[0], (unsigned long)samples[(n - 1) / 2],
		(unsigned long)samples[n - 1]);
	/* Built whole and printed by one kprintf: each kprintf takes the console lock once, so
	 * printed piece by piece another hart's message could land inside the line. */
	len = ksnprintf(line, sizeof(line), "BENCHHIST %s p90=%lu p99=%lu", name,
			(unsigned long)tacet_hist_percentile(samples, n, 90),
			(unsigned long)tacet_hist_percentile(samples, n, 99));
	for (unsigned long i = 0, run; i < n && len < sizeof(line); i += run, shown++) {
		uint64_t low = tacet_hist_low(samples[0], tacet_hist_bucket(samples[i], samples[0]));

		run = tacet_hist_run(samples, n, i, shown);
		len += ksnprintf(line + len, sizeof(line) - len, " %lu:%lu", (unsigned long)low, run);
	}
	kprintf("%s\n", line);
}

/* Run fn on every other hart (from their idle loops) and on this one. */
static void run_on_all_harts(void (*fn)(void))
{
	__atomic_store_n(&ktest_hart_fn, fn, __ATOMIC_RELAXED);
	__atomic_fetch_add(&ktest_generation, 1, __ATOMIC_RELEASE);
	for (unsigned int i = 1; i < nharts; i++)
		hart_signal(&harts[i], IPI_WAKE);
	ktest_hart_poll();
}

void ktest_hart_run_posted(void)
{
	unsigned int id = this_hart()->id;
	uint32_t gen = __atomic_load_n(&ktest_generation, __ATOMIC_ACQUIRE);

	if (ran_generation[id] == gen)
		return;
	ran_generation[id] = gen;
	__atomic_load_n(&ktest_hart_fn, __ATOMIC_RELAXED)();
}

/* Sleep in wfi until done() holds or timeout_us passes; returns done()'s last value. */
static int wait_until(int (*done)(void), uint64_t timeout_us)
{
	uint64_t deadline = timer_now() + timer_us_to_ticks(timeout_us);

	while (!done() && timer_now() < deadline)
		arch_idle_wait();
	return done();
}

/* --- boot: reaching "harts online" is the test --- */
static void test_boot(void)
{
	ktest_pass();
}

/* --- timer: every hart takes TIMER_TEST_IRQS one-shot timer interrupts --- */
static void timer_test_tick(void)
{
	timer_arm(timer_now() + timer_us_to_ticks(TIMER_TEST_PERIOD_US), timer_test_tick);
}

static int all_harts_ticked(void)
{
	for (unsigned int i = 0; i < nharts; i++)
		if (__atomic_load_n(&harts[i].timer_irqs, __ATOMIC_RELAXED) < TIMER_TEST_IRQS)
			return 0;
	return 1;
}

static void test_timer(void)
{
	uint64_t base[MAX_HARTS];

	for (unsigned int i = 0; i < nharts; i++)
		base[i] = __atomic_load_n(&harts[i].timer_irqs, __ATOMIC_RELAXED);
	run_on_all_harts(timer_test_tick);
	if (!wait_until(all_harts_ticked, TIMER_TEST_TIMEOUT_US)) {
		for (unsigned int i = 0; i < nharts; i++)
			kprintf("hart %u: %lu timer interrupts\n", i,
				(unsigned long)(harts[i].timer_irqs - base[i]));
		ktest_fail("not every hart took %d timer interrupts", TIMER_TEST_IRQS);
	}
	for (unsigned int i = 0; i < nharts; i++)
		kprintf("hart %u: %lu timer interrupts\n", i,
			(unsigned long)__atomic_load_n(&harts[i].timer_irqs, __ATOMIC_RELAXED));
	ktest_pass();
}

/* --- ipi: every ordered pair of harts does IPI_TEST_ROUNDS ping-pong round trips --- */
static uint32_t pongs_received[MAX_HARTS][MAX_HARTS]; /* [a][b]: a's pings b answered */
static uint32_t pings_answered[MAX_HARTS][MAX_HARTS]; /* [b][a]: pings from a b answered */
static uint32_t ipi_harts_done;
static unsigned int ipi_target[MAX_HARTS]; /* whom each hart waits for */

void ktest_answer_pings(void)
{
	struct hart *me = this_hart();
	uint32_t from = __atomic_exchange_n(&me->ping_from, 0, __ATOMIC_ACQ_REL);

	for (unsigned int s = 0; s < nharts; s++) {
		if (!(from & (1u << s)))
			continue;
		pings_answered[me->id][s]++;
		__atomic_fetch_or(&harts[s].pong_from, 1u << me->id, __ATOMIC_RELEASE);
		hart_signal(&harts[s], IPI_PONG);
	}
}

static int pong_arrived(void)
{
	struct hart *me = this_hart();

	return (__atomic_load_n(&me->pong_from, __ATOMIC_ACQUIRE) >> ipi_target[me->id]) & 1;
}

static void ipi_ping_everyone(void)
{
	struct hart *me = this_hart();

	for (int r = 0; r < IPI_TEST_ROUNDS; r++) {
		for (unsigned int b = 0; b < nharts; b++) {
			if (b == me->id)
				continue;
			ipi_target[me->id] = b;
			__atomic_fetch_or(&harts[b].ping_from, 1u << me->id, __ATOMIC_RELEASE);
			hart_signal(&harts[b], IPI_PING);
			if (!wait_until(pong_arrived, TIMER_TEST_TIMEOUT_US)) {
				kprintf("ktest: hart %u: no pong from hart %u\n", me->id, b);
				break;
			}
			__atomic_fetch_and(&me->pong_from, ~(1u << b), __ATOMIC_RELAXED);
			__atomic_fetch_add(&pongs_received[me->id][b], 1, __ATOMIC_RELAXED);
		}
	}
	__atomic_fetch_add(&ipi_harts_done, 1, __ATOMIC_RELEASE);
	hart_signal(&harts[0], IPI_WAKE);
}

static int all_harts_pinged(void)
{
	return __atomic_load_n(&ipi_harts_done, __ATOMIC_ACQUIRE) == nharts;
}

static void test_ipi(void)
{
	unsigned int pairs = 0;

	if (nharts < 2)
		ktest_fail("needs at least 2 harts, have %u", nharts);
	run_on_all_harts(ipi_ping_everyone);
	if (!wait_until(all_harts_pinged, TIMER_TEST_TIMEOUT_US))
		ktest_fail("only %u of %u harts finished their ping-pongs",
			   __atomic_load_n(&ipi_harts_done, __ATOMIC_ACQUIRE), nharts);
	for (unsigned int a = 0; a < nharts; a++) {
		for (unsigned int b = 0; b < nharts; b++) {
			if (a == b)
				continue;
			if (pongs_received[a][b] != IPI_TEST_ROUNDS ||
			    __atomic_load_n(&pings_answered[b][a], __ATOMIC_RELAXED) !=
				    IPI_TEST_ROUNDS)
				ktest_fail("hart %u -> %u: %u pongs, %u pings answered (want %d)", a,
					   b, pongs_received[a][b], pings_answered[b][a],
					   IPI_TEST_ROUNDS);
			pairs++;
		}
	}
	kprintf("ipi: %u ordered pairs x %d round trips through %s, all answered\n", pairs,
		IPI_TEST_ROUNDS, arch_ipi_name());
	ktest_pass();
}

/* --- stack overflows: the guard page must catch them and the report must name the stack --- */
static int __attribute__((noinline)) recurse(int depth)
{
	volatile char frame[512];

	frame[0] = (char)depth;
	if (depth > RECURSION_LIMIT)
		return frame[0];
	return recurse(depth + 1) + frame[0];
}

static void test_stack_overflow(void)
{
	kprintf("ktest: recursing on the kernel stack\n");
	recurse(0);
	ktest_fail("recursion returned: no guard page");
}

static void recurse_in_timer_irq(void)
{
	recurse(0);
}

static int never(void)
{
	return 0;
}

static void test_irq_stack_overflow(void)
{
	kprintf("ktest: recursing on the interrupt stack\n");
	timer_arm(timer_now(), recurse_in_timer_irq);
	wait_until(never, TIMER_TEST_TIMEOUT_US);
	ktest_fail("the interrupt stack never overflowed");
}

/* --- uart_irq: console input arrives through the PLIC: claim, handle, complete --- */
#define UART_TEST_INPUT "tacet"
static char uart_received[sizeof(UART_TEST_INPUT)];
static uint32_t uart_nreceived;
static uint32_t uart_irq_harts; /* bit n: hart n took the line */
/* Handler calls, and those that found the receiver empty: a character that arrives while the
 * handler drains raises the line again, and QEMU's PLIC latches that as pending even though
 * the same drain takes the character, so its interrupt finds nothing (a fast handler's
 * "not mine"). Every interrupt of the line must reach the handler exactly once. */
static uint32_t uart_calls, uart_empty_calls;

static void uart_rx_irq(unsigned int irq)
{
	int c, got = 0;

	(void)irq;
	__atomic_fetch_or(&uart_irq_harts, 1u << this_hart()->id, __ATOMIC_RELAXED);
	uart_calls++;
	/* Drain the receiver: the line stays raised while data is waiting. */
	while ((c = console_getc()) >= 0) {
		got = 1;
		if (uart_nreceived < sizeof(UART_TEST_INPUT) - 1)
			uart_received[uart_nreceived++] = (char)c;
	}
	uart_empty_calls += !got;
}

static int uart_input_complete(void)
{
	return __atomic_load_n(&uart_nreceived, __ATOMIC_ACQUIRE) == sizeof(UART_TEST_INPUT) - 1;
}

static void test_uart_irq(void)
{
	unsigned int irq = console_irq();

	if (!irq)
		ktest_fail("the console UART has no interrupt line");
	if (irq_request_fast(irq, uart_rx_irq, IRQF_DISABLED, this_hart()->id) < 0)
		ktest_fail("cannot request line %u", irq);
	console_enable_rx_irq();
	kprintf("ktest: type \"%s\"\n", UART_TEST_INPUT);
	if (!wait_until(uart_input_complete, TIMER_TEST_TIMEOUT_US))
		ktest_fail("received %u of %u characters", uart_nreceived,
			   (unsigned int)sizeof(UART_TEST_INPUT) - 1);
	if (strcmp(uart_received, UART_TEST_INPUT))
		ktest_fail("received \"%s\"", uart_received);
	if (uart_irq_harts != 1u)
		ktest_fail("line %u was taken by harts %#x, routed to hart 0 only", irq,
			   uart_irq_harts);
	if (irq_count(irq_desc_get(irq)) != uart_calls)
		ktest_fail("line %u counted %lu interrupts, the handler ran %u times", irq,
			   (unsigned long)irq_count(irq_desc_get(irq)), uart_calls);
	kprintf("uart: received \"%s\" in %u interrupts with data (and %u that found the "
		"receiver empty) of line %u on hart 0, %lu spurious\n",
		uart_received, uart_calls - uart_empty_calls, uart_empty_calls, irq,
		(unsigned long)irq_spurious());
	ktest_pass();
}

/* --- kernel_exception: an illegal instruction in the kernel panics with a report --- */
static void __attribute__((noinline)) execute_illegal_instruction(void)
{
	__asm__ volatile(".word 0" : : : "memory"); /* all-zero bits: defined to be illegal */
}

static void test_kernel_exception(void)
{
	execute_illegal_instruction();
	ktest_fail("an illegal instruction did not trap");
}

/* --- enabled_interrupts: SIE set outside the idle wait is caught (debug builds) --- */
static void test_enabled_interrupts(void)
{
	timer_arm(timer_now(), 0);
	__asm__ volatile("csrsi sstatus, 2\n"
			 "1: j 1b" : : : "memory"); /* the timer interrupt arrives here */
}

/* --- irq_nest: a flood of nesting interrupts is stopped by the guard, never by the guard page --- */
#define NEST_FLOOD 2000
static uint32_t nest_runs;
static unsigned int nest_pad; /* bytes of stack each handler level takes */

/* A timer callback (a top-half handler) that re-arms at once and opens the window, so its own
 * next interrupt nests into it: each level nests another, as deep as the guard allows. */
static void __attribute__((noinline)) nest_tick(void)
{
	volatile char pad[nest_pad ? nest_pad : 1];

	pad[0] = (char)nest_runs;
	if (++nest_runs >= NEST_FLOOD)
		return;
	timer_arm(timer_now(), nest_tick); /* due now: pending as soon as it is armed */
	if (irq_enable_in_hardirq())
		for (volatile int i = 0; i < 100; i++) /* the nested interrupt arrives here */
			;
	(void)pad[0];
}

static int nest_flood_over(void)
{
	return __atomic_load_n(&nest_runs, __ATOMIC_RELAXED) >= NEST_FLOOD;
}

static void nest_flood(unsigned int pad, const char *what)
{
	struct hart *me = this_hart();
	uint64_t refused = me->nest_refused;
	uintptr_t deepest;

	nest_runs = 0;
	nest_pad = pad;
	me->irq_depth_max = 0;
	me->irq_sp_min = 0;
	timer_arm(timer_now(), nest_tick);
	if (!wait_until(nest_flood_over, TIMER_TEST_TIMEOUT_US))
		ktest_fail("%s: the flood stopped after %u handler runs", what, nest_runs);
	timer_disarm();
	deepest = me->irq_stack_top - me->irq_sp_min;
	kprintf("irq_nest: %s: %u handler runs, depth %u (limit %d), %lu nestings refused, "
		"deepest interrupt-stack use %lu of %d bytes\n", what, nest_runs, me->irq_depth_max,
		IRQ_NEST_MAX, (unsigned long)(me->nest_refused - refused), (unsigned long)deepest,
		STACK_SIZE_BYTES);
	if (me->nest_refused == refused)
		ktest_fail("%s: the guard never refused a nesting", what);
	if (me->irq_depth_max > IRQ_NEST_MAX)
		ktest_fail("%s: nested %u deep", what, me->irq_depth_max);
	if (deepest >= STACK_SIZE_BYTES - IRQ_STACK_MARGIN)
		ktest_fail("%s: came within %lu bytes of the guard page", what,
			   (unsigned long)(STACK_SIZE_BYTES - deepest));
}

static void test_irq_nest(void)
{
	nest_flood(1536, "large frames (the stack threshold stops it)");
	nest_flood(16, "small frames (the depth limit stops it)");
	if (this_hart()->irq_depth_max != IRQ_NEST_MAX)
		ktest_fail("small frames did not reach the depth limit (%u)", this_hart()->irq_depth_max);
	ktest_pass();
}

static const struct ktest tests[] = {
	{ "boot", test_boot },
	{ "timer", test_timer },
	{ "ipi", test_ipi },
	{ "stack_overflow", test_stack_overflow },
	{ "irq_stack_overflow", test_irq_stack_overflow },
	{ "uart_irq", test_uart_irq },
	{ "kernel_exception", test_kernel_exception },
	{ "irq_nest", test_irq_nest },
	{ "enabled_interrupts", test_enabled_interrupts },
	{ "irq_fast_latency", ktest_irq_fast_latency },
	{ "irq_nest_plic", ktest_irq_nest_plic },
	{ "irq_fast_storm", ktest_irq_fast_storm },
	{ "irq_masked", ktest_irq_masked },
	{ "mm", ktest_mm },
};

void ktest_main(void)
{
	static char name[32];

	if (!platform_bootarg("test", name, sizeof(name)))
		return;
	current_test = name;
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (!strcmp(tests[i].name, name))
			tests[i].run();
	ktest_fail("no such test");
}
