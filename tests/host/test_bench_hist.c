/* test_bench_hist.c: host unit tests of kernel/uapi/tacet/bench_hist.h: the bucket of a sample
 * at each power-of-two boundary, the least value of each bucket, nearest-rank percentiles at
 * the edges, the runs a reporter prints checked against a brute-force count, and the cap on
 * how many it prints. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <tacet/bench_hist.h>
#include "host_rng.h"
#include "host_sort.h"

static void test_buckets_double(void **state)
{
	(void)state;
	assert_int_equal(tacet_hist_bucket(500, 500), 0);
	assert_int_equal(tacet_hist_bucket(501, 500), 1);
	assert_int_equal(tacet_hist_bucket(502, 500), 2);
	assert_int_equal(tacet_hist_bucket(503, 500), 2);
	assert_int_equal(tacet_hist_bucket(504, 500), 3);
	for (unsigned int k = 1; k < 64; k++) {
		uint64_t low = tacet_hist_low(7, k);

		assert_int_equal(low, 7 + (1ull << (k - 1)));
		assert_int_equal(tacet_hist_bucket(low, 7), k);     /* the least it holds */
		assert_int_equal(tacet_hist_bucket(low - 1, 7), k - 1); /* one less: the bucket below */
	}
	assert_int_equal(tacet_hist_low(7, 0), 7);
	assert_int_equal(tacet_hist_bucket(UINT64_MAX, 0), 64);
}

static void test_percentiles(void **state)
{
	uint64_t one[] = { 42 }, hundred[100], thousand[1000];

	(void)state;
	assert_int_equal(tacet_hist_percentile(one, 1, 90), 42);
	assert_int_equal(tacet_hist_percentile(one, 1, 99), 42);
	for (unsigned int i = 0; i < 100; i++)
		hundred[i] = i + 1; /* 1..100: the p-th percentile is p */
	assert_int_equal(tacet_hist_percentile(hundred, 100, 90), 90);
	assert_int_equal(tacet_hist_percentile(hundred, 100, 99), 99);
	assert_int_equal(tacet_hist_percentile(hundred, 100, 100), 100);
	assert_int_equal(tacet_hist_percentile(hundred, 100, 1), 1);
	for (unsigned int i = 0; i < 1000; i++)
		thousand[i] = i < 990 ? 300 : 5000; /* ten outliers: p99 is still the bulk's */
	assert_int_equal(tacet_hist_percentile(thousand, 1000, 99), 300);
	thousand[989] = 4000;
	assert_int_equal(tacet_hist_percentile(thousand, 1000, 99), 4000);
}

/* Random sorted samples (a bulk, a few near it, rare outliers far above): walking the runs as a
 * reporter does covers every sample once in at most TACET_HIST_MAX_BUCKETS runs, each run but a
 * capped last one is one bucket, and its count is the number of samples whose bucket that is
 * (for the capped last one, whose bucket is that or higher). */
static void test_runs_against_brute_force(void **state)
{
	enum { N = 2000, ROUNDS = 200 };
	static uint64_t s[N];
	unsigned int capped_rounds = 0;

	(void)state;
	rng_state = 0x68697374ull;
	for (int round = 0; round < ROUNDS; round++) {
		unsigned long n = 1 + rng_below(N), covered = 0, prev_bucket = 0;

		for (unsigned long i = 0; i < n; i++) {
			unsigned int r = (unsigned int)rng_below(100);

			s[i] = 400 + (r < 90 ? 0 : r < 98 ? rng_below(8) : rng_below(100000));
		}
		qsort(s, n, sizeof(s[0]), compare_u64);
		for (unsigned long i = 0, run, shown = 0; i < n; i += run, shown++) {
			unsigned int k = tacet_hist_bucket(s[i], s[0]);
			int capped = shown + 1 == TACET_HIST_MAX_BUCKETS;
			unsigned long count = 0;

			assert_true(shown < TACET_HIST_MAX_BUCKETS);
			run = tacet_hist_run(s, n, i, (unsigned int)shown);
			assert_true(run >= 1 && i + run <= n);
			assert_true(i == 0 ? k == 0 : k > prev_bucket); /* buckets rise, none twice */
			for (unsigned long j = 0; j < n; j++) {
				unsigned int kj = tacet_hist_bucket(s[j], s[0]);

				count += capped ? kj >= k : kj == k;
			}
			assert_int_equal(run, count);
			assert_true(s[i] >= tacet_hist_low(s[0], k));
			covered += run;
			prev_bucket = k;
			capped_rounds += capped;
		}
		assert_int_equal(covered, n);
	}
	assert_true(capped_rounds > 0 && capped_rounds < ROUNDS); /* both ways were walked */
}

/* One sample in each of buckets 0..19: the first TACET_HIST_MAX_BUCKETS - 1 are printed alone,
 * the last printed takes the rest, and nothing is printed after it. */
static void test_cap_merges_the_top(void **state)
{
	enum { N = 20 };
	uint64_t s[N];
	unsigned long i = 0, run = 0;
	unsigned int shown = 0;

	(void)state;
	for (unsigned int k = 0; k < N; k++)
		s[k] = tacet_hist_low(1000, k);
	for (; i < N; i += run, shown++) {
		run = tacet_hist_run(s, N, i, shown);
		if (shown + 1 < TACET_HIST_MAX_BUCKETS)
			assert_int_equal(run, 1);
	}
	assert_int_equal(shown, TACET_HIST_MAX_BUCKETS);
	assert_int_equal(run, N - (TACET_HIST_MAX_BUCKETS - 1));
	assert_int_equal(i, N);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_double),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_runs_against_brute_force),
		cmocka_unit_test(test_cap_merges_the_top),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
