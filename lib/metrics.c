/* metrics.c: the kernel's interrupt and hart figures as text (<tacet/metrics.h>): the shell's
 * tables (irqs, irqtop, irqhist, harts) and the Prometheus text format. Called by the console
 * server's shell and by whatever serves /irqs and /metrics; no state but the caller's (a sink,
 * irqtop's rates), no system call (the figures come through the caller's source), no
 * allocation: portable C, host-tested (tests/host/test_metrics.c).
 *
 * The kernel times each interrupt with the cycle counter (TACET_INFO_IRQ_HIST): the top half
 * (trap entry -> top half done), the wake-up latency (top half done -> the woken server
 * running) and the server time (running -> its irq_ack), as log2 histograms with exact maxima
 * and sums. The tables show them in ns, at the rate the counter ran since boot against the
 * device tree's timebase (TACET_INFO_CLOCK, tacet_cycles_to_ns): without QEMU's -icount the
 * counter follows the host's clock, whose rate nothing describes. With the boot argument
 * cycles=instructions (QEMU -icount shift=0: the counter counts retired instructions) they
 * show instructions, which are then exact. The header of every table says which. A percentile
 * from a log2 histogram is a bound: the greatest value of its bucket, or the maximum if less
 * ("p99 <= 511"). The Prometheus text keeps cycles (a bucket's bound must not move). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tacet/clock.h>
#include <tacet/log2hist.h>
#include <tacet/metrics.h>

#define B   TACET_LOG2HIST_BUCKETS
#define BAR 40

_Static_assert(TACET_IRQ_HIST_BUCKETS == TACET_LOG2HIST_BUCKETS, "the kernel's buckets");

/* --- sources ------------------------------------------------------------------------- */

/* say: tacet_sink_printf, short for the many pieces of text below (each at most 255 bytes). */
#define say tacet_sink_printf

/* A record from the source, zeroed first (a record the source does not fill reads as 0). */
static long info(const struct metrics_source *src, unsigned long kind, unsigned long index,
		 void *buf, unsigned long len)
{
	memset(buf, 0, len);
	return src->info(src->ctx, kind, index, buf, len);
}

/* The harts the kernel reports (at most the ABI's per-hart columns). */
static unsigned long hart_count(const struct metrics_source *src)
{
	struct tacet_hart_info hi;
	unsigned long n = 0;

	while (n < TACET_INFO_MAX_HARTS && info(src, TACET_INFO_HART, n, &hi, sizeof(hi)) > 0)
		n++;
	return n;
}

/* The next line from *irq on that was ever bound or taken, its histograms in *ih; false past
 * the last line. */
static bool next_line(const struct metrics_source *src, unsigned long *irq,
		      struct tacet_irq_hist *ih)
{
	for (; *irq < METRICS_MAX_LINES && info(src, TACET_INFO_IRQ_HIST, *irq, ih, sizeof(*ih)) > 0;
	     ++*irq)
		if (ih->bound || ih->count)
			return true;
	return false;
}

static const char *const states[] = { "unbound", "idle", "pending", "disabled" };
#define NSTATES (sizeof(states) / sizeof(states[0]))

static const char *state_name(unsigned int state)
{
	return state < NSTATES ? states[state] : "?";
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

/* --- the tables' units -------------------------------------------------------------------- */

/* What the tables' times are shown in. */
struct units {
	struct tacet_clock_info ci;
	enum { NS, INSTRUCTIONS, CYCLES } unit; /* CYCLES: no rate known yet */
};

static void units_read(const struct metrics_source *src, struct units *u)
{
	if (info(src, TACET_INFO_CLOCK, 0, &u->ci, sizeof(u->ci)) < 0)
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
static void units_say(const struct tacet_sink *out, const struct units *u)
{
	unsigned __int128 dc = u->ci.cycles - u->ci.boot_cycles, dt = u->ci.time - u->ci.boot_time;
	unsigned long milli; /* cycles a ns, in thousandths */

	if (u->unit == INSTRUCTIONS) {
		say(out, "times in instructions: the cycle counter counts them (boot argument "
			 "cycles=instructions, QEMU -icount shift=0)\n");
	} else if (u->unit == NS) {
		milli = (unsigned long)(dc * u->ci.timebase_hz / (dt * 1000000));
		say(out, "times in ns: the cycle counter ran at %lu.%03lu a ns since boot against the "
			 "timebase (%lu Hz, device tree)\n", milli / 1000, milli % 1000,
		    u->ci.timebase_hz);
	} else {
		say(out, "times in cycles: no rate against the timebase yet\n");
	}
}

/* The pct-th percentile's bound, in the units shown. */
static unsigned long pct(const struct units *u, const unsigned long *h, unsigned int pct,
			 unsigned long max)
{
	return in_units(u, tacet_log2hist_percentile(h, pct, max));
}

/* --- harts ---------------------------------------------------------------------------------- */

void metrics_harts(const struct metrics_source *src, const struct tacet_sink *out)
{
	struct tacet_hart_info hi;
	struct units u;
	char holder[32];

	units_read(src, &u);
	units_say(out, &u);
	say(out, "HART HWID   TIMER IRQS       IPIS  EXT IRQS   SYSCALLS  BKL HOLD MAX (BY)      "
		 "BKL WAIT MAX      WAITS  WAIT P50  WAIT P99   SLEPT\n");
	for (unsigned long i = 0; info(src, TACET_INFO_HART, i, &hi, sizeof(hi)) > 0; i++) {
		bkl_holder(&hi, holder, sizeof(holder));
		say(out, "%4lu %4lu %12lu %10lu %9lu %10lu %13lu %-9s %12lu %10lu %9lu %9lu %7lu\n", i,
		    hi.hwid, hi.timer_irqs, hi.ipis, hi.ext_irqs, hi.syscalls,
		    in_units(&u, hi.bkl_hold_max), holder, in_units(&u, hi.bkl_wait_max),
		    tacet_log2hist_total(hi.bkl_wait_hist),
		    pct(&u, hi.bkl_wait_hist, 50, hi.bkl_wait_max),
		    pct(&u, hi.bkl_wait_hist, 99, hi.bkl_wait_max), hi.bkl_wait_slept);
	}
}

/* --- irqs, irqtop --------------------------------------------------------------------------- */

void metrics_rates_start(const struct metrics_source *src, struct metrics_rates *rates)
{
	struct tacet_irq_info ii;

	for (unsigned long i = 1;
	     i < METRICS_MAX_LINES && info(src, TACET_INFO_IRQ, i, &ii, sizeof(ii)) > 0; i++)
		rates->last[i] = ii.count;
}

/* A line's times, in cycles: p50, p99 and the maximum of the top half, the wake-up latency
 * and the server time, from one snapshot (TACET_INFO_IRQ_HIST). */
struct row {
	unsigned int irq;
	unsigned long t[9];
};

#define WAKE_MAX 5 /* in a row's t[] */

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

/* The lines worth a row (ever bound or taken), in line order, or by their worst wake-up
 * latency, the worst first (an insertion sort: a handful of lines), sorted on the values the
 * table shows. Returns how many. */
static unsigned int lines_shown(const struct metrics_source *src, struct row *rows,
				bool by_latency)
{
	struct tacet_irq_hist ih;
	unsigned int n = 0;

	for (unsigned long irq = 1; next_line(src, &irq, &ih); irq++) {
		unsigned int j = n++;

		while (by_latency && j > 0 && rows[j - 1].t[WAKE_MAX] < ih.wake_max) {
			rows[j] = rows[j - 1];
			j--;
		}
		row_of(&rows[j], &ih);
	}
	return n;
}

/* Like /proc/interrupts: the counts, by hart; with rates, those since the table before. */
static void count_table(const struct metrics_source *src, const struct tacet_sink *out,
			const struct row *rows, unsigned int n, struct metrics_rates *rates)
{
	unsigned long nharts = hart_count(src);
	struct tacet_irq_info ii;

	say(out, " IRQ STATE    HART      COUNT");
	for (unsigned long h = 0; h < nharts; h++)
		say(out, "    HART%lu", h);
	say(out, "%s\n", rates ? "   RATE/s" : "");
	for (unsigned int r = 0; r < n; r++) {
		if (info(src, TACET_INFO_IRQ, rows[r].irq, &ii, sizeof(ii)) < 0)
			continue;
		say(out, "%4u %-8s %4u %10lu", ii.irq, state_name(ii.state), ii.hart, ii.count);
		for (unsigned long h = 0; h < nharts; h++)
			say(out, " %8lu", ii.per_hart[h]);
		if (rates && ii.irq < METRICS_MAX_LINES) {
			say(out, "  %8lu", ii.count - rates->last[ii.irq]);
			rates->last[ii.irq] = ii.count;
		}
		say(out, "\n");
	}
	if (info(src, TACET_INFO_IRQ, 1, &ii, sizeof(ii)) > 0)
		say(out, "spurious claims: %lu\n", ii.spurious_all);
}

/* The times: p50, p99 and the maximum of each of the three. */
static void time_table(const struct metrics_source *src, const struct tacet_sink *out,
		       const struct row *rows, unsigned int n)
{
	struct units u;

	units_read(src, &u);
	units_say(out, &u);
	say(out, "TOP: trap entry -> top half done; WAKE: -> the woken server running; SERV: -> its "
		 "irq_ack; p50, p99: log2 bucket bounds (<=), irqhist LINE\n");
	say(out, " IRQ  TOP p50  TOP p99  TOP MAX WAKE p50 WAKE p99 WAKE MAX SERV p50 SERV p99 "
		 "SERV MAX\n");
	for (unsigned int r = 0; r < n; r++) {
		say(out, "%4u", rows[r].irq);
		for (unsigned int i = 0; i < 9; i++)
			say(out, " %8lu", in_units(&u, rows[r].t[i]));
		say(out, "\n");
	}
}

void metrics_irqs(const struct metrics_source *src, const struct tacet_sink *out,
		  struct metrics_rates *rates, bool by_latency)
{
	struct row rows[METRICS_MAX_LINES]; /* 10 KiB of the caller's stack */
	unsigned int n = lines_shown(src, rows, by_latency);

	count_table(src, out, rows, n, rates);
	time_table(src, out, rows, n);
}

/* --- irqhist -------------------------------------------------------------------------------- */

/* One histogram as text bars (as bcc's hardirqs -d prints them): a row per bucket from the
 * lowest that holds a value to the highest, the last row's bound the maximum. */
static void hist_print(const struct tacet_sink *out, const struct units *u, const char *what,
		       const unsigned long *h, unsigned long max)
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
	say(out, "%s: %lu values", what, n);
	if (!n) {
		say(out, "\n");
		return;
	}
	say(out, ", p50 <= %lu, p99 <= %lu, max %lu\n", pct(u, h, 50, max), pct(u, h, 99, max),
	    in_units(u, max));
	say(out, "%25s : count      distribution\n", unit_name(u));
	for (unsigned int k = lo; k <= hi; k++) {
		unsigned long stars = h[k] * BAR / most;

		memset(bar, '*', stars);
		memset(bar + stars, ' ', BAR - stars);
		bar[BAR] = '\0';
		say(out, "%12lu -> %-10lu : %-10lu |%s|\n", in_units(u, tacet_log2hist_low(k)),
		    in_units(u, k == hi ? max : tacet_log2hist_high(k)), h[k], bar);
	}
}

void metrics_irqhist(const struct metrics_source *src, const struct tacet_sink *out,
		     unsigned long line)
{
	struct tacet_irq_hist ih;
	struct units u;

	if (info(src, TACET_INFO_IRQ_HIST, line, &ih, sizeof(ih)) < 0) {
		say(out, "irqhist: the interrupt controller has no line %lu\n", line);
		return;
	}
	if (!ih.bound && !ih.count) {
		say(out, "irqhist: line %lu is not bound and has taken no interrupt: no histogram\n",
		    line);
		return;
	}
	units_read(src, &u);
	say(out, "irq %u: %s%s, %lu interrupts since boot\n", ih.irq, state_name(ih.state),
	    ih.bound ? "" : " (not bound now)", ih.count);
	units_say(out, &u);
	hist_print(out, &u, "top half (trap entry -> top half done)", ih.top, ih.top_max);
	hist_print(out, &u, "wake-up latency (top half done -> the woken server running)", ih.wake,
		   ih.wake_max);
	hist_print(out, &u, "server time (the server running -> its irq_ack)", ih.server,
		   ih.server_max);
}

/* --- the Prometheus text -------------------------------------------------------------------- */

size_t metrics_label_escape(char *dst, size_t size, const char *value)
{
	size_t n = 0;

	for (; *value; value++) {
		char c = *value == '\n' ? 'n' : *value;
		bool esc = *value == '\\' || *value == '"' || *value == '\n';

		if (esc && n + 1 < size)
			dst[n] = '\\';
		n += esc;
		if (n + 1 < size)
			dst[n] = c;
		n++;
	}
	dst[n < size ? n : size - 1] = '\0';
	return n;
}

/* A sample's labels, name="value" pairs comma-separated (at most two short ones here). */
struct labels {
	char s[128];
	size_t n;
};

static void label(struct labels *l, const char *name, const char *value)
{
	char esc[64];
	int n;

	metrics_label_escape(esc, sizeof(esc), value);
	n = snprintf(l->s + l->n, sizeof(l->s) - l->n, "%s%s=\"%s\"", l->n ? "," : "", name, esc);
	if (n > 0)
		l->n = l->n + (size_t)n < sizeof(l->s) ? l->n + (size_t)n : sizeof(l->s) - 1;
}

static void label_num(struct labels *l, const char *name, unsigned long value)
{
	char num[24];

	snprintf(num, sizeof(num), "%lu", value);
	label(l, name, num);
}

/* A family's HELP and TYPE lines (help: our own text, nothing to escape). */
static void family(const struct tacet_sink *out, const char *name, const char *type,
		   const char *help)
{
	say(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void sample(const struct tacet_sink *out, const char *name, const struct labels *l,
		   unsigned long value)
{
	if (l && l->n)
		say(out, "%s{%s} %lu\n", name, l->s, value);
	else
		say(out, "%s %lu\n", name, value);
}

/* The figures of a line's struct tacet_irq_info one family each. */
enum line_figure { LINE_COUNT, LINE_UNHANDLED, LINE_DISABLED, LINE_BINDERS, LINE_HART };

static const struct {
	const char *name, *type, *help;
} line_families[] = {
	[LINE_COUNT] = { "tacet_irq_interrupts_total", "counter",
			 "Interrupts the line took since boot, all harts." },
	[LINE_UNHANDLED] = { "tacet_irq_unhandled_total", "counter",
			     "Interrupts of the line no binder handled." },
	[LINE_DISABLED] = { "tacet_irq_disabled_total", "counter",
			    "Times storm or spurious detection disabled the line." },
	[LINE_BINDERS] = { "tacet_irq_binders", "gauge",
			   "Servers bound to the line (1 for an in-kernel handler)." },
	[LINE_HART] = { "tacet_irq_hart", "gauge", "The hart the line is routed to." },
};

static unsigned long line_figure(const struct tacet_irq_info *ii, enum line_figure f)
{
	switch (f) {
	case LINE_COUNT:
		return ii->count;
	case LINE_UNHANDLED:
		return ii->unhandled;
	case LINE_DISABLED:
		return ii->disabled_count;
	case LINE_BINDERS:
		return ii->bound;
	case LINE_HART:
		return ii->hart;
	}
	return 0;
}

static void line_labels(struct labels *l, unsigned long irq)
{
	l->n = 0;
	l->s[0] = '\0';
	label_num(l, "irq", irq);
}

static void prom_line_figures(const struct metrics_source *src, const struct tacet_sink *out)
{
	struct tacet_irq_hist ih;
	struct tacet_irq_info ii;
	struct labels l;

	for (unsigned int f = 0; f < sizeof(line_families) / sizeof(line_families[0]); f++) {
		family(out, line_families[f].name, line_families[f].type, line_families[f].help);
		for (unsigned long irq = 1; next_line(src, &irq, &ih); irq++) {
			if (info(src, TACET_INFO_IRQ, irq, &ii, sizeof(ii)) < 0)
				continue;
			line_labels(&l, irq);
			sample(out, line_families[f].name, &l, line_figure(&ii, f));
		}
	}
}

/* Each line's count per hart, and its state as one 0/1 sample per state. */
static void prom_line_harts_states(const struct metrics_source *src,
				   const struct tacet_sink *out)
{
	unsigned long nharts = hart_count(src);
	struct tacet_irq_hist ih;
	struct tacet_irq_info ii;
	struct labels l;

	family(out, "tacet_irq_hart_interrupts_total", "counter",
	       "Interrupts the line took on each hart since boot.");
	for (unsigned long irq = 1; next_line(src, &irq, &ih); irq++) {
		if (info(src, TACET_INFO_IRQ, irq, &ii, sizeof(ii)) < 0)
			continue;
		for (unsigned long h = 0; h < nharts; h++) {
			line_labels(&l, irq);
			label_num(&l, "hart", h);
			sample(out, "tacet_irq_hart_interrupts_total", &l, ii.per_hart[h]);
		}
	}
	family(out, "tacet_irq_state", "gauge",
	       "1 for the line's state: unbound, idle, pending (waiting for irq_ack), disabled.");
	for (unsigned long irq = 1; next_line(src, &irq, &ih); irq++) {
		for (unsigned int s = 0; s < NSTATES; s++) {
			line_labels(&l, irq);
			label(&l, "state", states[s]);
			sample(out, "tacet_irq_state", &l, ih.state == s);
		}
	}
}

/* The three times of struct tacet_irq_hist, a histogram and a maximum each. */
enum line_time { TIME_TOP, TIME_WAKE, TIME_SERVER };

static const struct {
	const char *name, *max_name, *help;
} line_times[] = {
	[TIME_TOP] = { "tacet_irq_top_half_cycles", "tacet_irq_top_half_max_cycles",
		       "trap entry to top half done" },
	[TIME_WAKE] = { "tacet_irq_wake_latency_cycles", "tacet_irq_wake_latency_max_cycles",
			"top half done to the woken server running" },
	[TIME_SERVER] = { "tacet_irq_server_time_cycles", "tacet_irq_server_time_max_cycles",
			  "the woken server running to its irq_ack" },
};

static void time_of(const struct tacet_irq_hist *ih, enum line_time t, const unsigned long **h,
		    unsigned long *sum, unsigned long *max)
{
	*h = t == TIME_TOP ? ih->top : t == TIME_WAKE ? ih->wake : ih->server;
	*sum = t == TIME_TOP ? ih->top_sum : t == TIME_WAKE ? ih->wake_sum : ih->server_sum;
	*max = t == TIME_TOP ? ih->top_max : t == TIME_WAKE ? ih->wake_max : ih->server_max;
}

/* One line's histogram: a bucket per log2 bucket but the last, le its greatest value (the
 * values are whole cycles), cumulative; the last is +Inf (it holds every longer value). */
static void histogram(const struct tacet_sink *out, const char *name, const struct labels *l,
		      const unsigned long *h, unsigned long sum)
{
	unsigned long seen = 0;

	for (unsigned int k = 0; k < B - 1; k++) {
		seen += h[k];
		say(out, "%s_bucket{%s,le=\"%lu\"} %lu\n", name, l->s,
		    (unsigned long)tacet_log2hist_high(k), seen);
	}
	seen += h[B - 1];
	say(out, "%s_bucket{%s,le=\"+Inf\"} %lu\n", name, l->s, seen);
	say(out, "%s_sum{%s} %lu\n%s_count{%s} %lu\n", name, l->s, sum, name, l->s, seen);
}

static void prom_line_times(const struct metrics_source *src, const struct tacet_sink *out)
{
	struct tacet_irq_hist ih;
	const unsigned long *h;
	unsigned long sum, max;
	struct labels l;
	char help[128];

	for (unsigned int t = 0; t < sizeof(line_times) / sizeof(line_times[0]); t++) {
		snprintf(help, sizeof(help), "Cycles from %s, per interrupt.", line_times[t].help);
		family(out, line_times[t].name, "histogram", help);
		for (unsigned long irq = 1; next_line(src, &irq, &ih); irq++) {
			time_of(&ih, t, &h, &sum, &max);
			line_labels(&l, irq);
			histogram(out, line_times[t].name, &l, h, sum);
		}
		snprintf(help, sizeof(help), "The longest time from %s, in cycles.",
			 line_times[t].help);
		family(out, line_times[t].max_name, "gauge", help);
		for (unsigned long irq = 1; next_line(src, &irq, &ih); irq++) {
			time_of(&ih, t, &h, &sum, &max);
			line_labels(&l, irq);
			sample(out, line_times[t].max_name, &l, max);
		}
	}
}

/* The figures of struct tacet_hart_info, one family each. */
enum hart_figure { HART_TIMER, HART_IPIS, HART_EXT, HART_SYSCALLS, HART_HOLD, HART_WAIT };

static const struct {
	const char *name, *type, *help;
} hart_families[] = {
	[HART_TIMER] = { "tacet_hart_timer_interrupts_total", "counter",
			 "Timer interrupts the hart took." },
	[HART_IPIS] = { "tacet_hart_ipis_total", "counter",
			"Inter-processor interrupts the hart took." },
	[HART_EXT] = { "tacet_hart_external_interrupts_total", "counter",
		       "External interrupts the hart took (claims that found no line too)." },
	[HART_SYSCALLS] = { "tacet_hart_syscalls_total", "counter",
			    "System calls made on the hart." },
	[HART_HOLD] = { "tacet_hart_bkl_hold_max_cycles", "gauge",
			"The hart's longest hold of the big kernel lock, in cycles." },
	[HART_WAIT] = { "tacet_hart_bkl_wait_max_cycles", "gauge",
			"The hart's longest wait for the big kernel lock, in cycles." },
};

static unsigned long hart_figure(const struct tacet_hart_info *hi, enum hart_figure f)
{
	switch (f) {
	case HART_TIMER:
		return hi->timer_irqs;
	case HART_IPIS:
		return hi->ipis;
	case HART_EXT:
		return hi->ext_irqs;
	case HART_SYSCALLS:
		return hi->syscalls;
	case HART_HOLD:
		return hi->bkl_hold_max;
	case HART_WAIT:
		return hi->bkl_wait_max;
	}
	return 0;
}

static void prom_harts(const struct metrics_source *src, const struct tacet_sink *out)
{
	unsigned long nharts = hart_count(src);
	struct tacet_hart_info hi;
	struct labels l;
	char holder[32];

	for (unsigned int f = 0; f < sizeof(hart_families) / sizeof(hart_families[0]); f++) {
		family(out, hart_families[f].name, hart_families[f].type, hart_families[f].help);
		for (unsigned long h = 0; h < nharts; h++) {
			if (info(src, TACET_INFO_HART, h, &hi, sizeof(hi)) < 0)
				continue;
			l.n = 0;
			label_num(&l, "hart", h);
			sample(out, hart_families[f].name, &l, hart_figure(&hi, f));
		}
	}
	family(out, "tacet_hart_bkl_wait_cycles", "histogram",
	       "Cycles a hart waited for the BKL held by another, from its arrival to its take "
	       "(the hand-over), per wait.");
	for (unsigned long h = 0; h < nharts; h++) {
		if (info(src, TACET_INFO_HART, h, &hi, sizeof(hi)) < 0)
			continue;
		l.n = 0;
		label_num(&l, "hart", h);
		histogram(out, "tacet_hart_bkl_wait_cycles", &l, hi.bkl_wait_hist, hi.bkl_wait_total);
	}
	family(out, "tacet_hart_bkl_waits_slept_total", "counter",
	       "Waits for the BKL that slept (looked a while, then waited in wfi for the holder's "
	       "IPI).");
	for (unsigned long h = 0; h < nharts; h++) {
		if (info(src, TACET_INFO_HART, h, &hi, sizeof(hi)) < 0)
			continue;
		l.n = 0;
		label_num(&l, "hart", h);
		sample(out, "tacet_hart_bkl_waits_slept_total", &l, hi.bkl_wait_slept);
	}
	family(out, "tacet_hart_bkl_hold_max_by", "gauge",
	       "1, labelled with what held the BKL longest on the hart: a system call by number "
	       "(call N), an interrupt or exception by cause (irq N, exc N), or idle.");
	for (unsigned long h = 0; h < nharts; h++) {
		if (info(src, TACET_INFO_HART, h, &hi, sizeof(hi)) < 0)
			continue;
		bkl_holder(&hi, holder, sizeof(holder));
		l.n = 0;
		label_num(&l, "hart", h);
		label(&l, "by", holder);
		sample(out, "tacet_hart_bkl_hold_max_by", &l, 1);
	}
}

static void prom_clock(const struct metrics_source *src, const struct tacet_sink *out)
{
	struct tacet_clock_info ci;

	if (info(src, TACET_INFO_CLOCK, 0, &ci, sizeof(ci)) < 0)
		return;
	family(out, "tacet_cycles_hz", "gauge",
	       "The cycle counter's rate since boot against the device tree's timebase.");
	sample(out, "tacet_cycles_hz", NULL, tacet_cycles_hz(&ci));
	family(out, "tacet_cycles_are_instructions", "gauge",
	       "1 when the cycle counter counts retired instructions (cycles=instructions).");
	sample(out, "tacet_cycles_are_instructions", NULL,
	       !!(ci.flags & TACET_CLOCK_INSTRUCTIONS));
}

void metrics_prometheus(const struct metrics_source *src, const struct tacet_sink *out)
{
	struct tacet_irq_info ii;

	prom_line_figures(src, out);
	prom_line_harts_states(src, out);
	family(out, "tacet_irq_spurious_claims_total", "counter",
	       "Claims that found no line, or a line not idle, all lines together.");
	sample(out, "tacet_irq_spurious_claims_total", NULL,
	       info(src, TACET_INFO_IRQ, 1, &ii, sizeof(ii)) > 0 ? ii.spurious_all : 0);
	family(out, "tacet_irq_timing_visible", "gauge",
	       "1 when the lines' times below are every line's (the trace authority); 0: left out.");
	sample(out, "tacet_irq_timing_visible", NULL, src->timing);
	if (src->timing)
		prom_line_times(src, out);
	prom_harts(src, out);
	prom_clock(src, out);
}
