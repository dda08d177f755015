/* log2hist.h: log2 histograms, as the kernel keeps them per interrupt line (TACET_INFO_IRQ_HIST:
 * the top half, the wake-up latency and the server time of every interrupt, in cycles) and the
 * shell reads them (irqs, irqtop, irqhist). Bucket k of TACET_LOG2HIST_BUCKETS counts the values
 * whose bit length is k: bucket 0 the value 0, bucket k >= 1 the values in [2^(k-1), 2^k); the
 * last bucket also every longer value. A percentile is therefore known only as a bound, the
 * greatest value of the bucket that holds it (p99 <= 2^k - 1), and never above the exact
 * maximum kept beside the histogram. Plain C without builtins: the kernel (which has no libgcc),
 * user space and the host tests build it alike. */
#ifndef TACET_LOG2HIST_H
#define TACET_LOG2HIST_H

#include <stdint.h>

/* 32 buckets: the last holds every value from 2^30 on (a third of a second at 3 GHz). */
#define TACET_LOG2HIST_BUCKETS 32

/* The bit length of v: 0 for 0, else floor(log2 v) + 1 (a binary search, no loop). */
static inline unsigned long tacet_bitlen(uint64_t v)
{
	unsigned long n = 0;

	if (v >> 32) {
		n += 32;
		v >>= 32;
	}
	if (v >> 16) {
		n += 16;
		v >>= 16;
	}
	if (v >> 8) {
		n += 8;
		v >>= 8;
	}
	if (v >> 4) {
		n += 4;
		v >>= 4;
	}
	if (v >> 2) {
		n += 2;
		v >>= 2;
	}
	if (v >> 1) {
		n += 1;
		v >>= 1;
	}
	return n + v;
}

/* The bucket of a value of bit length len. */
static inline unsigned long tacet_log2hist_bucket_of(unsigned long len)
{
	return len < TACET_LOG2HIST_BUCKETS ? len : TACET_LOG2HIST_BUCKETS - 1;
}

static inline unsigned long tacet_log2hist_bucket(uint64_t v)
{
	return tacet_log2hist_bucket_of(tacet_bitlen(v));
}

/* The least and the greatest value bucket k holds. */
static inline uint64_t tacet_log2hist_low(unsigned int k)
{
	return k ? (uint64_t)1 << (k - 1) : 0;
}

static inline uint64_t tacet_log2hist_high(unsigned int k)
{
	return k >= TACET_LOG2HIST_BUCKETS - 1 ? UINT64_MAX : ((uint64_t)1 << k) - 1;
}

/* The values counted: the sum of the buckets. */
static inline uint64_t tacet_log2hist_total(const unsigned long *h)
{
	uint64_t n = 0;

	for (unsigned int k = 0; k < TACET_LOG2HIST_BUCKETS; k++)
		n += h[k];
	return n;
}

/* The p-th percentile (1..100, nearest rank) as a bound: the greatest value of the bucket that
 * holds the sample of rank ceil(n p / 100), or max (the greatest sample) if that is less.
 * 0 when the histogram is empty. */
static inline uint64_t tacet_log2hist_percentile(const unsigned long *h, unsigned int p,
						 uint64_t max)
{
	uint64_t n = tacet_log2hist_total(h), rank = (n * p + 99) / 100, seen = 0;

	for (unsigned int k = 0; k < TACET_LOG2HIST_BUCKETS && n; k++) {
		seen += h[k];
		if (seen >= rank)
			return tacet_log2hist_high(k) < max ? tacet_log2hist_high(k) : max;
	}
	return 0;
}

#endif
