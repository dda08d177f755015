/* irqshow.c: the shell's interrupt and hart commands (irqshow.h): irqs and irqtop's table,
 * irqhist, and harts (each hart's counts, its longest BKL hold and wait, in the same units).
 *
 * The kernel times each interrupt with the cycle counter (TACET_INFO_IRQ_HIST): the top half
 * (trap entry -> top half done), the wake-up latency (top half done -> the woken server
 * running) and the server time (running -> its irq_ack), as log2 histograms with exact maxima.
 * The shell shows them in ns, at the rate the counter ran since boot against the device tree's
 * timebase (TACET_INFO_CLOCK, tacet_cycles_to_ns): without QEMU's -icount the counter follows
 * the host's clock, whose rate nothing describes. With the boot argument cycles=instructions
 * (QEMU -icount shift=0: the counter counts retired instructions) it shows instructions, which
 * are then exact. The header of every table says which. A percentile from a log2 histogram is
 * a bound: the greatest value of its bucket, or the maximum if less ("p99 <= 511"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/log2hist.h>
#include "irqshow.h"

/* An info call with the trace authority init gives the console server (`%` in its init.run=
 * entry): every line's timing, the trace. */
static long info_traced(unsigned long kind, unsigned long index, void *buf, unsigned long len)
{
	return tacet_info_traced(TACET_CHILD_TRACE, kind, index, buf, len);
}

#define B         TACET_LOG2HIST_BUCKETS
#define MAX_LINES 128
#define BAR       40

_Static_assert(TACET_IRQ_HIST_BUCKETS == TACET_LOG2HIST_BUCKETS, "the kernel's buckets");

/* What the times are shown in. */
struct units {
	struct tacet_clock_info ci;
	enum { NS, INSTRUCTIONS, CYCLES } unit; /* CYCLES: no rate known yet */
};

static void units_read(struct units *u)
{
	if (tacet_info(TACET_INFO_CLOCK, 0, &u->ci, sizeof(u->ci)) < 0)
		memset(&u->ci, 0, sizeof(u->ci));
	if (u->ci.flags & TACET_CLOCK_INSTRUCTIONS)
		u->unit = INSTRUCTIONS;
	else if (u->ci.cycles != u->ci.boot_cycles && u->ci.time != u->ci.boot_time &&
		 u->ci.timebase_hz)
		u->unit = NS;
	else
		u->unit = CYCLES;
}

static unsigned long in_units(const struct units *u, unsigned long cycles)
{
	return u->unit == NS ? tacet_cycles_to_ns(&u->ci, cycles) : cycles;
}

static const char *unit_name(const struct units *u)
{
	return u->unit == NS ? "ns" : u->unit == INSTRUCTIONS ? "instructions" : "cycles";
}

/* The line that says what the times are. */
static void units_say(const struct units *u)
{
	unsigned __int128 dc = u->ci.cycles - u->ci.boot_cycles, dt = u->ci.time - u->ci.boot_time;
	unsigned long milli; /* cycles a ns, in thousandths */

	if (u->unit == INSTRUCTIONS) {
		printf("times in instructions: the cycle counter counts them (boot argument "
		       "cycles=instructions, QEMU -icount shift=0)\n");
	} else if (u->unit == NS) {
		milli = (unsigned long)(dc * u->ci.timebase_hz / (dt * 1000000));
		printf("times in ns: the cycle counter ran at %lu.%03lu a ns since boot against the "
		       "timebase (%lu Hz, device tree)\n", milli / 1000, milli % 1000,
		       u->ci.timebase_hz);
	} else {
		printf("times in cycles: no rate against the timebase yet\n");
	}
}

/* What held the BKL longest: a system call by number, an interrupt or exception by cause. */
static void bkl_holder(const struct tacet_hart_info *hi, char *buf, size_t len)
{
	unsigned long code = hi->bkl_hold_cause & ~(1ul << 63);

	if (!hi->bkl_hold_cause && !hi->bkl_hold_call)
		snprintf(buf, len, "idle");
	else if (hi->bkl_hold_cause >> 63)
		snprintf(buf, len, "irq %lu", code);
	else if (code == 8) /* an ecall from user mode */
		snprintf(buf, len, "call %lu", hi->bkl_hold_call);
	else
		snprintf(buf, len, "exc %lu", code);
}

void cmd_harts(void)
{
	struct tacet_hart_info hi;
	struct units u;
	char holder[32];

	units_read(&u);
	units_say(&u);
	printf("HART HWID   TIMER IRQS       IPIS  EXT IRQS   SYSCALLS  BKL HOLD MAX (BY)      "
	       "BKL WAIT MAX\n");
	for (unsigned long i = 0; tacet_info(TACET_INFO_HART, i, &hi, sizeof(hi)) > 0; i++) {
		bkl_holder(&hi, holder, sizeof(holder));
		printf("%4lu %4lu %12lu %10lu %9lu %10lu %13lu %-9s %12lu\n", i, hi.hwid,
		       hi.timer_irqs, hi.ipis, hi.ext_irqs, hi.syscalls, in_units(&u, hi.bkl_hold_max),
		       holder, in_units(&u, hi.bkl_wait_max));
	}
}

/* The pct-th percentile's bound, in the units shown. */
static unsigned long pct(const struct units *u, const unsigned long *h, unsigned int pct,
			 unsigned long max)
{
	return in_units(u, tacet_log2hist_percentile(h, pct, max));
}

/* --- irqs, irqtop ----------------------------------------------------------------------------- */

static const char *const states[] = { "unbound", "idle", "pending", "disabled" };
static unsigned long last_count[MAX_LINES];

static const char *state_name(unsigned int state)
{
	return state < sizeof(states) / sizeof(states[0]) ? states[state] : "?";
}

void irq_rates_start(void)
{
	struct tacet_irq_info ii;

	for (unsigned long i = 1; i < MAX_LINES && info_traced(TACET_INFO_IRQ, i, &ii, sizeof(ii)) > 0;
	     i++)
		last_count[i] = ii.count;
}

/* A line's times, in cycles: p50, p99 and the maximum of the top half, the wake-up latency
 * and the server time, from one snapshot (TACET_INFO_IRQ_HIST). */
struct row {
	unsigned int irq;
	unsigned long t[9];
};

static void row_of(struct row *r, const struct tacet_irq_hist *ih)
{
	const unsigned long *h[3] = { ih->top, ih->wake, ih->server };
	const unsigned long max[3] = { ih->top_max, ih->wake_max, ih->server_max };

	r->irq = ih->irq;
	for (unsigned int i = 0; i < 3; i++) {
		r->t[3 * i] = tacet_log2hist_percentile(h[i], 50, max[i]);
		r->t[3 * i + 1] = tacet_log2hist_percentile(h[i], 99, max[i]);
		r->t[3 * i + 2] = max[i];
	}
}

#define WAKE_MAX 5 /* in a row's t[] */

/* The lines worth a row (ever bound or taken), in line order, or by their worst wake-up
 * latency, the worst first (an insertion sort: a handful of lines), sorted on the values the
 * table shows. Returns how many. */
static unsigned int lines_shown(struct row *rows, int by_latency)
{
	struct tacet_irq_hist ih;
	unsigned int n = 0;

	for (unsigned int i = 1;
	     i < MAX_LINES && info_traced(TACET_INFO_IRQ_HIST, i, &ih, sizeof(ih)) > 0; i++) {
		unsigned int j = n;

		if (!ih.bound && !ih.count)
			continue;
		n++;
		while (by_latency && j > 0 && rows[j - 1].t[WAKE_MAX] < ih.wake_max) {
			rows[j] = rows[j - 1];
			j--;
		}
		row_of(&rows[j], &ih);
	}
	return n;
}

/* Like /proc/interrupts: the counts, by hart; with rate, a second's since the last table. */
static void count_table(const struct row *rows, unsigned int n, unsigned long nharts, int rate)
{
	struct tacet_irq_info ii;

	printf(" IRQ STATE    HART      COUNT");
	for (unsigned long h = 0; h < nharts; h++)
		printf("    HART%lu", h);
	printf("%s\n", rate ? "   RATE/s" : "");
	for (unsigned int r = 0; r < n; r++) {
		if (info_traced(TACET_INFO_IRQ, rows[r].irq, &ii, sizeof(ii)) < 0)
			continue;
		printf("%4u %-8s %4u %10lu", ii.irq, state_name(ii.state), ii.hart, ii.count);
		for (unsigned long h = 0; h < nharts; h++)
			printf(" %8lu", ii.per_hart[h]);
		if (rate)
			printf("  %8lu", ii.count - last_count[ii.irq]);
		last_count[ii.irq] = ii.count;
		printf("\n");
	}
	if (info_traced(TACET_INFO_IRQ, 1, &ii, sizeof(ii)) > 0)
		printf("spurious claims: %lu\n", ii.spurious_all);
}

/* The times: p50, p99 and the maximum of each of the three. */
static void time_table(const struct row *rows, unsigned int n)
{
	struct units u;

	units_read(&u);
	units_say(&u);
	printf("TOP: trap entry -> top half done; WAKE: -> the woken server running; SERV: -> its "
	       "irq_ack; p50, p99: log2 bucket bounds (<=), irqhist LINE\n");
	printf(" IRQ  TOP p50  TOP p99  TOP MAX WAKE p50 WAKE p99 WAKE MAX SERV p50 SERV p99 "
	       "SERV MAX\n");
	for (unsigned int r = 0; r < n; r++) {
		printf("%4u", rows[r].irq);
		for (unsigned int i = 0; i < 9; i++)
			printf(" %8lu", in_units(&u, rows[r].t[i]));
		printf("\n");
	}
}

void irq_table(int rate, int by_latency)
{
	static struct row rows[MAX_LINES];
	struct tacet_hart_info hi;
	unsigned long nharts = 0;
	unsigned int n;

	while (nharts < TACET_INFO_MAX_HARTS &&
	       tacet_info(TACET_INFO_HART, nharts, &hi, sizeof(hi)) > 0)
		nharts++;
	n = lines_shown(rows, by_latency);
	count_table(rows, n, nharts, rate);
	time_table(rows, n);
}

/* --- irqhist ---------------------------------------------------------------------------------- */

/* One histogram as text bars (as bcc's hardirqs -d prints them): a row per bucket from the
 * lowest that holds a value to the highest, the last row's bound the maximum. */
static void hist_print(const struct units *u, const char *what, const unsigned long *h,
		       unsigned long max)
{
	unsigned long n = tacet_log2hist_total(h), most = 0;
	unsigned int lo = B, hi = 0;
	char bar[BAR + 1];

	for (unsigned int k = 0; k < B; k++) {
		if (!h[k])
			continue;
		lo = lo < k ? lo : k;
		hi = k;
		most = h[k] > most ? h[k] : most;
	}
	printf("%s: %lu values", what, n);
	if (!n) {
		printf("\n");
		return;
	}
	printf(", p50 <= %lu, p99 <= %lu, max %lu\n", pct(u, h, 50, max), pct(u, h, 99, max),
	       in_units(u, max));
	printf("%25s : count      distribution\n", unit_name(u));
	for (unsigned int k = lo; k <= hi; k++) {
		unsigned long stars = h[k] * BAR / most;

		memset(bar, '*', stars);
		memset(bar + stars, ' ', BAR - stars);
		bar[BAR] = '\0';
		printf("%12lu -> %-10lu : %-10lu |%s|\n", in_units(u, tacet_log2hist_low(k)),
		       in_units(u, k == hi ? max : tacet_log2hist_high(k)), h[k], bar);
	}
}

void cmd_irqhist(const char *arg)
{
	struct tacet_irq_hist ih;
	struct units u;
	char *end = NULL;
	unsigned long line = arg ? strtoul(arg, &end, 0) : 0;

	if (!arg || !*arg || *end) {
		printf("usage: irqhist LINE (a line's number, as irqs lists it)\n");
		return;
	}
	if (info_traced(TACET_INFO_IRQ_HIST, line, &ih, sizeof(ih)) < 0) {
		printf("irqhist: the interrupt controller has no line %lu\n", line);
		return;
	}
	if (!ih.bound && !ih.count) {
		printf("irqhist: line %lu is not bound and has taken no interrupt: no histogram\n",
		       line);
		return;
	}
	units_read(&u);
	printf("irq %u: %s%s, %lu interrupts since boot\n", ih.irq, state_name(ih.state),
	       ih.bound ? "" : " (not bound now)", ih.count);
	units_say(&u);
	hist_print(&u, "top half (trap entry -> top half done)", ih.top, ih.top_max);
	hist_print(&u, "wake-up latency (top half done -> the woken server running)", ih.wake,
		   ih.wake_max);
	hist_print(&u, "server time (the server running -> its irq_ack)", ih.server,
		   ih.server_max);
}
