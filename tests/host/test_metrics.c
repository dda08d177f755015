/* test_metrics.c: host unit tests of lib/metrics.c (<tacet/metrics.h>), linked as it is, fed
 * by a fake source (the kernel's info records of a few lines and harts, set by each test): the
 * irqs table as the shell prints it, irqtop's rates, irqhist's refusals, harts; the Prometheus
 * text (each family once, HELP and TYPE first; per line its counts and state; histograms with
 * cumulative buckets at the log2 bounds, +Inf, _sum and _count; the timing left out without
 * the authority); label escaping; a buffer sink that is too small. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <tacet/log2hist.h>
#include <tacet/metrics.h>

/* --- the fake kernel ---------------------------------------------------------------------- */

#define LINES 40 /* the controller's lines: 1 .. LINES - 1 */
#define HARTS 2

static struct {
	struct tacet_irq_info irq[LINES];
	struct tacet_irq_hist hist[LINES];
	struct tacet_hart_info hart[HARTS];
	struct tacet_clock_info clock;
} k;

static long fake_info(void *ctx, unsigned long kind, unsigned long index, void *buf,
		      unsigned long len)
{
	const void *rec = NULL;
	size_t size = 0;

	(void)ctx;
	if ((kind == TACET_INFO_IRQ || kind == TACET_INFO_IRQ_HIST) && index >= 1 && index < LINES) {
		rec = kind == TACET_INFO_IRQ ? (const void *)&k.irq[index] : &k.hist[index];
		size = kind == TACET_INFO_IRQ ? sizeof(k.irq[0]) : sizeof(k.hist[0]);
	} else if (kind == TACET_INFO_HART && index < HARTS) {
		rec = &k.hart[index];
		size = sizeof(k.hart[0]);
	} else if (kind == TACET_INFO_CLOCK && index == 0) {
		rec = &k.clock;
		size = sizeof(k.clock);
	}
	if (!rec)
		return -TACET_ENOENT;
	if (len < size)
		return -TACET_ERANGE;
	memcpy(buf, rec, size);
	return (long)size;
}

/* A bound line: count interrupts on hart 0 and 1 (3:1), its three times' values. */
static void line(unsigned int irq, unsigned int state, unsigned long count,
		 const unsigned long *top, const unsigned long *wake, const unsigned long *server,
		 unsigned int n)
{
	struct tacet_irq_hist *h = &k.hist[irq];
	struct tacet_irq_info *ii = &k.irq[irq];

	h->irq = ii->irq = irq;
	h->state = ii->state = state;
	h->bound = ii->bound = 1;
	h->count = ii->count = count;
	ii->per_hart[0] = count - count / 4;
	ii->per_hart[1] = count / 4;
	ii->hart = 1;
	for (unsigned int i = 0; i < n; i++) {
		const unsigned long *v[3] = { &top[i], &wake[i], &server[i] };
		unsigned long *hist[3] = { h->top, h->wake, h->server };
		unsigned long *sum[3] = { &h->top_sum, &h->wake_sum, &h->server_sum };
		unsigned long *max[3] = { &h->top_max, &h->wake_max, &h->server_max };

		for (unsigned int t = 0; t < 3; t++) {
			hist[t][tacet_log2hist_bucket(*v[t])]++;
			*sum[t] += *v[t];
			*max[t] = *v[t] > *max[t] ? *v[t] : *max[t];
		}
	}
	ii->top_half_max = h->top_max;
	ii->wake_max = h->wake_max;
	ii->server_max = h->server_max;
}

/* Two lines, 5 (four interrupts; one top half of 2^31 cycles: the last bucket) and 10 (two),
 * line 7 once bound and taken, now unbound; two harts; the counter counting instructions. */
static int setup(void **state)
{
	static const unsigned long top5[] = { 100, 120, 130, 1ul << 31 };
	static const unsigned long wake5[] = { 300, 40, 0, 7 };
	static const unsigned long server5[] = { 1000, 1023, 1024, 5 };
	static const unsigned long top10[] = { 8, 9 };
	static const unsigned long wake10[] = { 5000, 6000 };
	static const unsigned long server10[] = { 1, 2 };

	(void)state;
	memset(&k, 0, sizeof(k));
	for (unsigned int i = 1; i < LINES; i++)
		k.irq[i].irq = k.hist[i].irq = i;
	line(5, 1, 4, top5, wake5, server5, 4);
	line(10, 2, 2, top10, wake10, server10, 2);
	k.irq[7].count = k.hist[7].count = 3;
	k.irq[7].per_hart[1] = 3;
	k.irq[5].unhandled = 1;
	k.irq[5].disabled_count = 2;
	for (unsigned int i = 1; i < LINES; i++)
		k.irq[i].spurious_all = 9;
	k.hart[0] = (struct tacet_hart_info){ .hwid = 0, .timer_irqs = 11, .ipis = 12,
					      .ext_irqs = 13, .syscalls = 14, .bkl_hold_max = 1500,
					      .bkl_hold_cause = 8, .bkl_hold_call = 23,
					      .bkl_wait_max = 900, .bkl_wait_total = 1200,
					      .bkl_wait_slept = 1 };
	k.hart[0].bkl_wait_hist[7] = 3;  /* 64..127 */
	k.hart[0].bkl_wait_hist[10] = 1; /* 512..1023: the longest, 900 */
	k.hart[1] = (struct tacet_hart_info){ .hwid = 3, .timer_irqs = 21, .bkl_hold_max = 99,
					      .bkl_hold_cause = 1ul << 63 | 9 };
	k.clock = (struct tacet_clock_info){ .timebase_hz = 10000000, .boot_cycles = 1000,
					     .boot_time = 100, .cycles = 1001000, .time = 10100,
					     .flags = TACET_CLOCK_INSTRUCTIONS };
	return 0;
}

static const struct metrics_source traced = { .info = fake_info, .timing = true };
static const struct metrics_source untraced = { .info = fake_info, .timing = false };

static char text[1 << 20];

static const char *render_prometheus(const struct metrics_source *src)
{
	struct tacet_buf b;
	struct tacet_sink out = tacet_buf_sink(&b, text, sizeof(text));

	metrics_prometheus(src, &out);
	assert_false(tacet_buf_cut(&b));
	assert_int_equal(strlen(text), b.len);
	return text;
}

/* Whether text holds line as a whole line. */
static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

#define assert_line(text, line)                                                               \
	do {                                                                                  \
		if (!has_line(text, line))                                                    \
			fail_msg("no line \"%s\" in:\n%s", line, text);                       \
	} while (0)

/* --- the shell's tables ------------------------------------------------------------------- */

static const char irqs_expected[] =
	" IRQ STATE    HART      COUNT    HART0    HART1\n"
	"   5 idle        1          4        3        1\n"
	"   7 unbound     0          3        0        3\n"
	"  10 pending     1          2        2        0\n"
	"spurious claims: 9\n"
	"times in instructions: the cycle counter counts them (boot argument cycles=instructions, "
	"QEMU -icount shift=0)\n"
	"TOP: trap entry -> top half done; WAKE: -> the woken server running; SERV: -> its "
	"irq_ack; p50, p99: log2 bucket bounds (<=), irqhist LINE\n"
	" IRQ  TOP p50  TOP p99  TOP MAX WAKE p50 WAKE p99 WAKE MAX SERV p50 SERV p99 SERV MAX\n"
	"   5      127 2147483648 2147483648        7      300      300     1023     1024     1024\n"
	"   7        0        0        0        0        0        0        0        0        0\n"
	"  10        9        9        9     6000     6000     6000        1        2        2\n";

/* irqs: the lines ever bound or taken (not the rest), by line; p50 and p99 as bucket bounds
 * up to the maximum; times in instructions, as the clock says. */
static void test_irqs_table(void **state)
{
	struct tacet_buf b;
	struct tacet_sink out = tacet_buf_sink(&b, text, sizeof(text));

	(void)state;
	metrics_irqs(&traced, &out, NULL, false);
	assert_string_equal(text, irqs_expected);
}

/* By the worst wake-up latency: line 10 (6000) before 5 (300) before 7 (none). */
static void test_irqs_by_latency(void **state)
{
	struct tacet_buf b;
	struct tacet_sink out = tacet_buf_sink(&b, text, sizeof(text));
	const char *times;

	(void)state;
	metrics_irqs(&traced, &out, NULL, true);
	times = strstr(text, " IRQ  TOP p50");
	assert_non_null(times);
	assert_true(strstr(times, "\n  10 ") < strstr(times, "\n   5 "));
	assert_true(strstr(times, "\n   5 ") < strstr(times, "\n   7 "));
}

/* irqtop: the rate column counts from metrics_rates_start, then from the table before. */
static void test_irqtop_rates(void **state)
{
	struct metrics_rates rates = { 0 };
	struct tacet_buf b;
	struct tacet_sink out;

	(void)state;
	metrics_rates_start(&traced, &rates);
	k.irq[5].count += 17;
	out = tacet_buf_sink(&b, text, sizeof(text));
	metrics_irqs(&traced, &out, &rates, false);
	assert_non_null(strstr(text, "HART1   RATE/s\n"));
	assert_non_null(strstr(text, "\n   5 idle        1         21        3        1        17\n"));
	assert_non_null(strstr(text, "\n  10 pending     1          2        2        0         0\n"));
	k.irq[5].count += 2;
	out = tacet_buf_sink(&b, text, sizeof(text));
	metrics_irqs(&traced, &out, &rates, false);
	assert_non_null(strstr(text, "\n   5 idle        1         23        3        1         2\n"));
}

/* irqhist: a line with its bars; a line the controller lacks; a line never bound nor taken. */
static void test_irqhist(void **state)
{
	struct tacet_buf b;
	struct tacet_sink out = tacet_buf_sink(&b, text, sizeof(text));

	(void)state;
	metrics_irqhist(&traced, &out, 10);
	assert_non_null(strstr(text, "irq 10: pending, 2 interrupts since boot\n"));
	assert_non_null(strstr(text, "wake-up latency (top half done -> the woken server running): 2 "
				     "values, p50 <= 6000, p99 <= 6000, max 6000\n"));
	assert_non_null(strstr(text, "        4096 -> 6000       : 2          |"));
	out = tacet_buf_sink(&b, text, sizeof(text));
	metrics_irqhist(&traced, &out, LINES);
	assert_string_equal(text, "irqhist: the interrupt controller has no line 40\n");
	out = tacet_buf_sink(&b, text, sizeof(text));
	metrics_irqhist(&traced, &out, 3);
	assert_string_equal(text,
			    "irqhist: line 3 is not bound and has taken no interrupt: no histogram\n");
}

/* harts: a row each, what held the BKL longest by call or cause. */
static void test_harts(void **state)
{
	struct tacet_buf b;
	struct tacet_sink out = tacet_buf_sink(&b, text, sizeof(text));

	(void)state;
	metrics_harts(&traced, &out);
	/* the waits: 4, the median's bucket 64..127, the 99th's the longest (900, below its
	 * bucket's 1023), 1 slept */
	assert_non_null(strstr(text, "\n   0    0           11         12        13         14"
				     "          1500 call 23            900          4       127"
				     "       900       1\n"));
	assert_non_null(strstr(text, "\n   1    3           21          0         0          0"
				     "            99 irq 9                0          0         0"
				     "         0       0\n"));
}

/* --- the Prometheus text ------------------------------------------------------------------ */

/* Each family's HELP then TYPE line once, its samples right after (a sample's name is the
 * family's, or the family's with _bucket, _sum or _count for a histogram), no other line. */
static void assert_families_whole(const char *text)
{
	char family[128] = "", seen[8192] = " ", name[160], type[32];
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = strcspn(p, "{ ");

		assert_non_null(nl);
		if (!strncmp(p, "# HELP ", 7)) {
			assert_int_equal(sscanf(p, "# HELP %127s", family), 1);
			snprintf(name, sizeof(name), " %s ", family);
			if (strstr(seen, name))
				fail_msg("family %s twice", family);
			strncat(seen, name + 1, sizeof(seen) - strlen(seen) - 1);
			p = nl + 1;
			assert_int_equal(sscanf(p, "# TYPE %127s %31s", name, type), 2);
			assert_string_equal(name, family);
			p = strchr(p, '\n') + 1;
			continue;
		}
		assert_true(family[0]);
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (strcmp(name, family) && (strncmp(name, family, strlen(family)) ||
					     (strcmp(name + strlen(family), "_bucket") &&
					      strcmp(name + strlen(family), "_sum") &&
					      strcmp(name + strlen(family), "_count"))))
			fail_msg("sample %s under family %s", name, family);
		p = nl + 1;
	}
}

static void test_prometheus_counts(void **state)
{
	const char *t;

	(void)state;
	t = render_prometheus(&traced);
	assert_families_whole(t);
	assert_line(t, "# HELP tacet_irq_interrupts_total Interrupts the line took since boot, "
		       "all harts.");
	assert_line(t, "# TYPE tacet_irq_interrupts_total counter");
	assert_line(t, "tacet_irq_interrupts_total{irq=\"5\"} 4");
	assert_line(t, "tacet_irq_interrupts_total{irq=\"7\"} 3");
	assert_line(t, "tacet_irq_interrupts_total{irq=\"10\"} 2");
	assert_null(strstr(t, "{irq=\"3\"")); /* never bound nor taken */
	assert_line(t, "tacet_irq_hart_interrupts_total{irq=\"5\",hart=\"0\"} 3");
	assert_line(t, "tacet_irq_hart_interrupts_total{irq=\"5\",hart=\"1\"} 1");
	assert_null(strstr(t, "hart=\"2\""));
	assert_line(t, "tacet_irq_unhandled_total{irq=\"5\"} 1");
	assert_line(t, "tacet_irq_disabled_total{irq=\"5\"} 2");
	assert_line(t, "tacet_irq_binders{irq=\"7\"} 0");
	assert_line(t, "tacet_irq_hart{irq=\"5\"} 1");
	assert_line(t, "tacet_irq_state{irq=\"10\",state=\"pending\"} 1");
	assert_line(t, "tacet_irq_state{irq=\"10\",state=\"idle\"} 0");
	assert_line(t, "tacet_irq_state{irq=\"7\",state=\"unbound\"} 1");
	assert_line(t, "tacet_irq_spurious_claims_total 9");
	assert_line(t, "tacet_irq_timing_visible 1");
	assert_line(t, "tacet_hart_syscalls_total{hart=\"0\"} 14");
	assert_line(t, "tacet_hart_bkl_hold_max_cycles{hart=\"0\"} 1500");
	assert_line(t, "tacet_hart_bkl_wait_max_cycles{hart=\"0\"} 900");
	/* the hand-over's record: cumulative buckets, +Inf the count, the exact sum */
	assert_line(t, "tacet_hart_bkl_wait_cycles_bucket{hart=\"0\",le=\"63\"} 0");
	assert_line(t, "tacet_hart_bkl_wait_cycles_bucket{hart=\"0\",le=\"127\"} 3");
	assert_line(t, "tacet_hart_bkl_wait_cycles_bucket{hart=\"0\",le=\"1023\"} 4");
	assert_line(t, "tacet_hart_bkl_wait_cycles_bucket{hart=\"0\",le=\"+Inf\"} 4");
	assert_line(t, "tacet_hart_bkl_wait_cycles_sum{hart=\"0\"} 1200");
	assert_line(t, "tacet_hart_bkl_wait_cycles_count{hart=\"1\"} 0");
	assert_line(t, "tacet_hart_bkl_waits_slept_total{hart=\"0\"} 1");
	assert_line(t, "tacet_hart_bkl_hold_max_by{hart=\"0\",by=\"call 23\"} 1");
	assert_line(t, "tacet_hart_bkl_hold_max_by{hart=\"1\",by=\"irq 9\"} 1");
	assert_line(t, "tacet_cycles_hz 1000000000"); /* 10^6 cycles in 10^4 ticks at 10 MHz */
	assert_line(t, "tacet_cycles_are_instructions 1");
}

/* Line 5's top half: 100, 120, 130 in bucket 7 ([64, 127] and [128, 255]: 100 and 120 in 7,
 * 130 in 8), 2^31 only in +Inf; cumulative; _sum exact; _count the values. */
static void test_prometheus_histogram(void **state)
{
	const char *t;
	char want[160];
	unsigned long cum = 0;

	(void)state;
	t = render_prometheus(&traced);
	assert_line(t, "# TYPE tacet_irq_top_half_cycles histogram");
	for (unsigned int b = 0; b < TACET_LOG2HIST_BUCKETS - 1; b++) {
		cum += b == 7 ? 2 : b == 8 ? 1 : 0;
		snprintf(want, sizeof(want), "tacet_irq_top_half_cycles_bucket{irq=\"5\",le=\"%lu\"} %lu",
			 (1ul << b) - 1, cum);
		assert_line(t, want);
	}
	assert_line(t, "tacet_irq_top_half_cycles_bucket{irq=\"5\",le=\"+Inf\"} 4");
	snprintf(want, sizeof(want), "tacet_irq_top_half_cycles_sum{irq=\"5\"} %lu",
		 100 + 120 + 130 + (1ul << 31));
	assert_line(t, want);
	assert_line(t, "tacet_irq_top_half_cycles_count{irq=\"5\"} 4");
	snprintf(want, sizeof(want), "tacet_irq_top_half_max_cycles{irq=\"5\"} %lu", 1ul << 31);
	assert_line(t, want);
	/* server times 1023 and 1024: either side of a bound */
	assert_line(t, "tacet_irq_server_time_cycles_bucket{irq=\"5\",le=\"1023\"} 3");
	assert_line(t, "tacet_irq_server_time_cycles_bucket{irq=\"5\",le=\"2047\"} 4");
	assert_line(t, "tacet_irq_wake_latency_cycles_bucket{irq=\"5\",le=\"0\"} 1");
	assert_line(t, "tacet_irq_wake_latency_cycles_sum{irq=\"10\"} 11000");
	assert_line(t, "tacet_irq_wake_latency_max_cycles{irq=\"10\"} 6000");
	assert_line(t, "tacet_irq_server_time_cycles_count{irq=\"7\"} 0");
}

/* Without the authority: the counts, no line timing at all, and a gauge that says so. */
static void test_prometheus_without_timing(void **state)
{
	const char *t;

	(void)state;
	t = render_prometheus(&untraced);
	assert_families_whole(t);
	assert_line(t, "tacet_irq_interrupts_total{irq=\"5\"} 4");
	assert_line(t, "tacet_irq_timing_visible 0");
	assert_null(strstr(t, "tacet_irq_top_half"));
	assert_null(strstr(t, "tacet_irq_wake_latency"));
	assert_null(strstr(t, "tacet_irq_server_time"));
	assert_line(t, "tacet_hart_bkl_hold_max_cycles{hart=\"0\"} 1500"); /* anyone's */
}

static void test_label_escape(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(metrics_label_escape(out, sizeof(out), "a\"b\\c\nd"), 10);
	assert_string_equal(out, "a\\\"b\\\\c\\nd");
	assert_int_equal(metrics_label_escape(out, sizeof(out), ""), 0);
	assert_string_equal(out, "");
	/* cut: as much as fits, terminated; the whole length returned */
	assert_int_equal(metrics_label_escape(out, 4, "\"\"\""), 6);
	assert_string_equal(out, "\\\"\\");
	assert_int_equal(metrics_label_escape(out, 1, "abc"), 3);
	assert_string_equal(out, "");
}

/* A buffer too small: the text as far as it fits, terminated, the whole length known. */
static void test_buf_sink_cut(void **state)
{
	static char small[100];
	struct tacet_buf b;
	struct tacet_sink out;
	size_t whole = strlen(render_prometheus(&traced));

	(void)state;
	memset(small, 'x', sizeof(small));
	out = tacet_buf_sink(&b, small, sizeof(small));
	metrics_prometheus(&traced, &out);
	assert_true(tacet_buf_cut(&b));
	assert_int_equal(b.len, whole);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_memory_equal(small, text, sizeof(small) - 1);
	out = tacet_buf_sink(&b, small, 1);
	metrics_prometheus(&traced, &out);
	assert_int_equal(small[0], '\0');
	assert_int_equal(b.len, whole);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_irqs_table, setup),
		cmocka_unit_test_setup(test_irqs_by_latency, setup),
		cmocka_unit_test_setup(test_irqtop_rates, setup),
		cmocka_unit_test_setup(test_irqhist, setup),
		cmocka_unit_test_setup(test_harts, setup),
		cmocka_unit_test_setup(test_prometheus_counts, setup),
		cmocka_unit_test_setup(test_prometheus_histogram, setup),
		cmocka_unit_test_setup(test_prometheus_without_timing, setup),
		cmocka_unit_test_setup(test_label_escape, setup),
		cmocka_unit_test_setup(test_buf_sink_cut, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
