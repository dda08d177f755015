/* test_ratelimit.c: host unit tests of kernel/lib/ratelimit.c: the burst, the window's reset,
 * the count of suppressed lines carried by the next line let through, a clock that wraps, and a
 * random sequence against a model that keeps every line's time. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "lib/ratelimit.h"

static void test_burst_then_suppressed(void **state)
{
	struct ratelimit r = RATELIMIT_INIT(100, 3);
	uint64_t missed = 99;

	(void)state;
	for (int i = 0; i < 3; i++) {
		assert_true(ratelimit_take(&r, 10 + i, &missed));
		assert_int_equal(missed, 0);
	}
	for (int i = 0; i < 5; i++)
		assert_false(ratelimit_take(&r, 20 + i, &missed));
	assert_int_equal(r.suppressed, 5); /* none let through since */
	/* the window began at the first line (10): at 109 it is still on, at 110 a new one */
	assert_false(ratelimit_take(&r, 109, &missed));
	assert_true(ratelimit_take(&r, 110, &missed));
	assert_int_equal(missed, 6);
	assert_true(ratelimit_take(&r, 111, &missed));
	assert_int_equal(missed, 0);
	assert_true(ratelimit_take(&r, 112, &missed)); /* the third of this window */
	assert_false(ratelimit_take(&r, 113, &missed));
	assert_false(ratelimit_take(&r, 114, &missed));
	assert_int_equal(ratelimit_flush(&r), 2); /* reported by the caller: not again */
	assert_int_equal(ratelimit_flush(&r), 0);
	assert_true(ratelimit_take(&r, 210, &missed));
	assert_int_equal(missed, 0);
}

static void test_quiet_line_never_suppressed(void **state)
{
	struct ratelimit r = RATELIMIT_INIT(1000, 1);
	uint64_t missed;

	(void)state;
	for (uint64_t t = 0; t < 100000; t += 1000) {
		assert_true(ratelimit_take(&r, t, &missed));
		assert_int_equal(missed, 0);
	}
	assert_int_equal(ratelimit_flush(&r), 0);
}

static void test_clock_wraps(void **state)
{
	struct ratelimit r = RATELIMIT_INIT(100, 1);
	uint64_t missed;

	(void)state;
	assert_true(ratelimit_take(&r, UINT64_MAX - 10, &missed));
	assert_false(ratelimit_take(&r, UINT64_MAX, &missed));
	assert_false(ratelimit_take(&r, 50, &missed)); /* 61 after the first: same window */
	assert_true(ratelimit_take(&r, 90, &missed));  /* 101 after it */
	assert_int_equal(missed, 2);
}

/* Random times, against a model: a line goes out iff fewer than burst lines went out since its
 * window began, where a window begins with the first line after the previous one expired;
 * every line is either let through or counted, and each count reaches the next line out. */
static void test_random_against_model(void **state)
{
	(void)state;
	srand(7);
	for (int run = 0; run < 200; run++) {
		uint64_t iv = 1 + (uint64_t)(rand() % 500), burst = 1 + (uint64_t)(rand() % 8);
		struct ratelimit r = RATELIMIT_INIT(iv, (uint32_t)burst);
		uint64_t now = (uint64_t)rand(), start = 0, in_window = 0, out = 0, missed_sum = 0;
		uint64_t pending = 0;
		int lines = 1 + rand() % 2000;

		for (int i = 0; i < lines; i++) {
			uint64_t missed;
			bool expect;

			now += (uint64_t)(rand() % (int)(2 * iv / burst + 1));
			if (!in_window || now - start >= iv) {
				start = now;
				in_window = 0;
			}
			expect = in_window < burst;
			assert_int_equal(ratelimit_take(&r, now, &missed), expect);
			if (expect) {
				in_window++;
				out++;
				assert_int_equal(missed, pending);
				missed_sum += missed;
				pending = 0;
			} else {
				pending++;
			}
		}
		assert_int_equal(out + missed_sum + pending, (uint64_t)lines);
		assert_int_equal(ratelimit_flush(&r), pending); /* the rest: told at the flush */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_burst_then_suppressed),
		cmocka_unit_test(test_quiet_line_never_suppressed),
		cmocka_unit_test(test_clock_wraps),
		cmocka_unit_test(test_random_against_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
