/* bench_hist.h: the histogram of a benchmark's samples, as the benchmark servers
 * (servers/bench/bench.c) and the kernel's own benchmark (kernel/test/ktest.c) both print it, right
 * after their BENCH line, for tests/bench/bench.py:
 *
 *     BENCHHIST <name> p90=<n> p99=<n> <low>:<count> <low>:<count> ...
 *
 * one <low>:<count> per bucket that holds samples, lowest first. Bucket 0 holds the samples
 * equal to the minimum; bucket k >= 1 those whose excess over the minimum is in
 * [2^(k-1), 2^k), so <low>, the least value it can hold, is min + 2^(k-1). Under -icount a
 * path's samples are nearly all the same count, and the rest are outliers a few hundred or
 * thousand instructions higher (a timer tick or an IPI inside the window): buckets that
 * double keep those apart in a handful of entries whatever the path's length. At most
 * TACET_HIST_MAX_BUCKETS are printed, the last of them holding every sample above its <low>
 * too, so the line stays short whatever the samples. p90 and p99 are nearest-rank percentiles.
 * Not an ABI: shared here because both sides of the kernel print it. */
#ifndef TACET_BENCH_HIST_H
#define TACET_BENCH_HIST_H

#include <stdint.h>
#include <tacet/log2hist.h>

/* The most buckets a line prints. A path under -icount fills two or three (the bulk, a sample
 * that went another way, a tick or an IPI); eight leave room for more and keep a line of
 * 8-digit figures and 4-digit counts under 200 characters, inside a server's 256-character
 * printf line buffer, so the line reaches the console in one write. What the last bucket
 * merges is still bounded by the BENCH line's maximum. */
#define TACET_HIST_MAX_BUCKETS 8

/* The bucket of a sample: 0 for the minimum, else the bit length of its excess over it. */
static inline unsigned int tacet_hist_bucket(uint64_t sample, uint64_t min)
{
	return tacet_bitlen(sample - min);
}

/* The least value bucket k can hold. */
static inline uint64_t tacet_hist_low(uint64_t min, unsigned int k)
{
	return k ? min + ((uint64_t)1 << (k - 1)) : min;
}

/* The p-th percentile (1..100, nearest rank) of n >= 1 samples sorted in ascending order. */
static inline uint64_t tacet_hist_percentile(const uint64_t *sorted, unsigned long n,
					     unsigned int p)
{
	unsigned long rank = (n * p + 99) / 100; /* ceil(n p / 100), at least 1 */

	return sorted[rank - 1];
}

/* How many samples from sorted[i] on share sorted[i]'s bucket (they are contiguous), when
 * `shown` buckets were printed before it: the last one allowed takes all that are left. */
static inline unsigned long tacet_hist_run(const uint64_t *sorted, unsigned long n,
					   unsigned long i, unsigned int shown)
{
	unsigned int k = tacet_hist_bucket(sorted[i], sorted[0]);
	unsigned long j = i + 1;

	if (shown + 1 >= TACET_HIST_MAX_BUCKETS)
		return n - i;
	while (j < n && tacet_hist_bucket(sorted[j], sorted[0]) == k)
		j++;
	return j - i;
}

#endif
