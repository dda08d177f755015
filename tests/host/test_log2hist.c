/* test_log2hist.c: host unit tests of kernel/uapi/tacet/log2hist.h: the bit length against a
 * bit-by-bit count at every power of two and on random values, the buckets (the last takes
 * every longer value) and their bounds, and the percentiles as bucket bounds: nearest rank,
 * never above the maximum, a bound of the sorted samples' true percentile, and 0 for an empty
 * histogram. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <tacet/log2hist.h>
#include <tacet/bench_hist.h>
#include "host_rng.h"
#include "host_sort.h"

#define B TACET_LOG2HIST_BUCKETS

static unsigned long bitlen_slow(uint64_t v)
{
	unsigned long n = 0;

	for (; v; v >>= 1)
		n++;
	return n;
}

static void test_bitlen(void **state)
{
	(void)state;
	assert_int_equal(tacet_bitlen(0), 0);
	assert_int_equal(tacet_bitlen(UINT64_MAX), 64);
	for (unsigned int k = 0; k < 64; k++) {
		uint64_t p = (uint64_t)1 << k;

		assert_int_equal(tacet_bitlen(p), k + 1);
		assert_int_equal(tacet_bitlen(p - 1), k);
		assert_int_equal(tacet_bitlen(p | (p - 1)), k + 1);
	}
	rng_state = 0x6c6f6732ull;
	for (int i = 0; i < 100000; i++) {
		uint64_t v = rng_next() >> rng_below(64);

		assert_int_equal(tacet_bitlen(v), bitlen_slow(v));
	}
	/* the benchmarks' buckets are the same bit length, of the excess over the minimum */
	assert_int_equal(tacet_hist_bucket(1000 + 37, 1000), tacet_bitlen(37));
}

/* Bucket k holds exactly [low(k), high(k)]; the buckets tile every value; the last takes all
 * from 2^(B-2) on. */
static void test_buckets(void **state)
{
	(void)state;
	assert_int_equal(tacet_log2hist_bucket(0), 0);
	assert_int_equal(tacet_log2hist_low(0), 0);
	assert_int_equal(tacet_log2hist_high(0), 0);
	for (unsigned int k = 1; k < B; k++) {
		assert_int_equal(tacet_log2hist_low(k), tacet_log2hist_high(k - 1) + 1);
		assert_int_equal(tacet_log2hist_bucket(tacet_log2hist_low(k)), k);
		assert_int_equal(tacet_log2hist_bucket(tacet_log2hist_low(k) - 1), k - 1);
		if (k < B - 1)
			assert_int_equal(tacet_log2hist_bucket(tacet_log2hist_high(k)), k);
	}
	assert_int_equal(tacet_log2hist_low(B - 1), (uint64_t)1 << (B - 2));
	assert_int_equal(tacet_log2hist_high(B - 1), UINT64_MAX);
	assert_int_equal(tacet_log2hist_bucket((uint64_t)1 << 40), B - 1);
	assert_int_equal(tacet_log2hist_bucket(UINT64_MAX), B - 1);
	assert_int_equal(tacet_log2hist_bucket_of(64), B - 1);
}

static void test_percentile_edges(void **state)
{
	unsigned long h[B];

	(void)state;
	memset(h, 0, sizeof(h));
	assert_int_equal(tacet_log2hist_total(h), 0);
	assert_int_equal(tacet_log2hist_percentile(h, 99, 0), 0); /* empty */
	h[tacet_log2hist_bucket(150)] = 1; /* one sample, 150: bucket [128, 255] */
	assert_int_equal(tacet_log2hist_percentile(h, 50, 150), 150); /* the maximum bounds it */
	assert_int_equal(tacet_log2hist_percentile(h, 100, 150), 150);
	h[tacet_log2hist_bucket(40)] = 99; /* 99 samples of 40 below it: [32, 63] */
	assert_int_equal(tacet_log2hist_total(h), 100);
	assert_int_equal(tacet_log2hist_percentile(h, 50, 150), 63);
	assert_int_equal(tacet_log2hist_percentile(h, 99, 150), 63);  /* rank 99: still 40s */
	assert_int_equal(tacet_log2hist_percentile(h, 100, 150), 150); /* rank 100: the 150 */
	h[0] = 100; /* 100 zeros: the median is 0 */
	assert_int_equal(tacet_log2hist_percentile(h, 50, 150), 0);
	assert_int_equal(tacet_log2hist_percentile(h, 51, 150), 63);
	memset(h, 0, sizeof(h));
	h[B - 1] = 3; /* beyond 2^30: bounded by the maximum only */
	assert_int_equal(tacet_log2hist_percentile(h, 99, 5000000000ull), 5000000000ull);
}

/* Random samples: the histogram adds up to their number; each percentile bound is at least the
 * sorted samples' nearest-rank percentile, in the same bucket, and at most the maximum; p50 <=
 * p99 <= max. */
static void test_percentiles_against_sorted(void **state)
{
	enum { N = 3000, ROUNDS = 300 };
	static uint64_t s[N];
	static const unsigned int ps[] = { 1, 50, 90, 99, 100 };

	(void)state;
	rng_state = 0x70393921ull;
	for (int round = 0; round < ROUNDS; round++) {
		unsigned long n = 1 + rng_below(N), h[B];
		uint64_t max = 0;

		memset(h, 0, sizeof(h));
		for (unsigned long i = 0; i < n; i++) {
			unsigned int r = (unsigned int)rng_below(100);

			s[i] = r < 80 ? 100 + rng_below(100) : r < 99 ? rng_below(5000)
								: rng_next() >> rng_below(64);
			h[tacet_log2hist_bucket(s[i])]++;
			if (s[i] > max)
				max = s[i];
		}
		qsort(s, n, sizeof(s[0]), compare_u64);
		assert_int_equal(tacet_log2hist_total(h), n);
		for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
			uint64_t exact = tacet_hist_percentile(s, n, ps[i]);
			uint64_t bound = tacet_log2hist_percentile(h, ps[i], max);

			assert_true(bound >= exact);
			assert_true(bound <= max);
			assert_int_equal(tacet_log2hist_bucket(bound), tacet_log2hist_bucket(exact));
		}
		assert_true(tacet_log2hist_percentile(h, 50, max) <=
			    tacet_log2hist_percentile(h, 99, max));
		assert_int_equal(tacet_log2hist_percentile(h, 100, max), max);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bitlen),
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_percentile_edges),
		cmocka_unit_test(test_percentiles_against_sorted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
