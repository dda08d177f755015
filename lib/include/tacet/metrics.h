/* tacet/metrics.h: the kernel's interrupt and hart figures (TACET_INFO_IRQ, _IRQ_HIST, _HART,
 * _CLOCK) rendered as text, one renderer for every reader: the shell's tables (irqs, irqtop,
 * irqhist, harts) and the Prometheus text exposition format, version 0.0.4 (the shell's
 * `metrics`, an HTTP server's /metrics).
 *
 * The renderers make no system call and allocate nothing: the figures come from a source (an
 * info call of tacet_info's shape, lib/metrics_kernel.c's for the kernel's) and the text goes
 * to a sink (<tacet/sink.h>: a write callback, or a caller's buffer). lib/metrics.c is
 * portable C: the host tests feed it a fake source.
 *
 * Authority: the counts and states of every line and each hart's figures (BKL holds included)
 * are anyone's; a line's timing (top-half, wake-up and server times, their histograms and
 * maxima) only its binders' and the trace authority's holders' (abi.h). Others read the timing
 * as 0, so a source says whether it sees every line's (timing): without, the tables show the
 * zeros the kernel gave (as they always have) and the Prometheus text leaves the timing out,
 * with tacet_irq_timing_visible 0 saying so.
 *
 * Not thread-safe as to a sink or a struct metrics_rates; otherwise no state. */
#ifndef TACET_METRICS_H
#define TACET_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <tacet/abi.h>
#include <tacet/sink.h>

/* The lines a renderer looks at: 1 .. METRICS_MAX_LINES - 1 (it stops at the first the kernel
 * has not: -TACET_ENOENT). */
#define METRICS_MAX_LINES 128

/* Where the figures come from: info(ctx, kind, index, buf, len) as tacet_info (bytes written,
 * or a negative TACET_E* code; -TACET_ENOENT past the last record). timing: the source sees
 * every line's timing. */
struct metrics_source {
	long (*info)(void *ctx, unsigned long kind, unsigned long index, void *buf,
		     unsigned long len);
	void *ctx;
	bool timing;
};

/* The kernel as a source (lib/metrics_kernel.c, for servers): the info call with the trace
 * authority in slot trace (0: none); timing says whether that slot holds it. */
void metrics_kernel_source(struct metrics_source *src, unsigned long trace);

/* The Prometheus text (version 0.0.4; Content-Type "text/plain; version=0.0.4"): per line ever
 * bound or taken, labelled irq="N", its counts (tacet_irq_interrupts_total, per hart, unhandled,
 * times disabled), state, binders and hart; with timing, the three times as histograms in
 * cycles (tacet_irq_top_half_cycles, _wake_latency_cycles, _server_time_cycles: a bucket per
 * log2 bucket, le its greatest value, cumulative, then +Inf, _sum, _count) and their maxima as
 * gauges; the spurious claims; per hart, labelled hart="N", its counts and its longest BKL
 * hold (and what held it) and wait, in cycles; the cycle counter's rate. Times stay in cycles:
 * a bucket's bound in seconds would move with the measured rate. */
void metrics_prometheus(const struct metrics_source *src, const struct tacet_sink *out);

/* A label value escaped as the text format wants it (\\, \", \n), into dst (size > 0) as far
 * as it fits, NUL-terminated; returns the escaped length (not counting the NUL). */
size_t metrics_label_escape(char *dst, size_t size, const char *value);

/* --- the shell's tables -------------------------------------------------------------------- */

/* irqtop's rates: each line's count at the table before. */
struct metrics_rates {
	unsigned long last[METRICS_MAX_LINES];
};
/* The rates of the next table count from now. */
void metrics_rates_start(const struct metrics_source *src, struct metrics_rates *rates);

/* irqs: the lines ever bound or taken, their counts like /proc/interrupts (with rates, the
 * interrupts since the table before, and rates updated) and their times (p50, p99, max of the
 * top half, the wake-up latency, the server time), by line or (by_latency) the worst wake-up
 * latency first. Takes about 10 KiB of the caller's stack (a row per line, to sort). */
void metrics_irqs(const struct metrics_source *src, const struct tacet_sink *out,
		  struct metrics_rates *rates, bool by_latency);

/* irqhist LINE: the line's three histograms as text bars; an error line for a line the
 * controller has not, or one never bound nor taken. */
void metrics_irqhist(const struct metrics_source *src, const struct tacet_sink *out,
		     unsigned long line);

/* harts: each hart's counts, its longest BKL hold (and what held it) and wait. */
void metrics_harts(const struct metrics_source *src, const struct tacet_sink *out);

#endif
