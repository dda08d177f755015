/* test_alive_rule.c: host unit tests of servers/init/alive_rule.c, the verdict init's supervisor
 * gives an unanswered liveness question: nothing before the limit; at it, the end of a server
 * that ran since it was asked (its runs moved, or it runs now) and still wants its hart (running
 * or ready), or that waited all along in a wait (not its loop's); a wait, looked at again every
 * limit up to ALIVE_WAIT_TIMES limits, for one that never got its hart (ready, runs unchanged)
 * or waits in a call (the spinner's neighbour, whose call to init's service thread the spinner
 * starves); the end of any at the longer limit. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <tacet/abi.h>
#include "alive_rule.h"

#define LIMIT 10ul

static enum alive_verdict verdict(unsigned long elapsed, unsigned long asked, unsigned long now,
				  unsigned int state, unsigned long *again)
{
	struct alive_look l = { .elapsed = elapsed, .limit = LIMIT, .runs_then = asked,
				.runs_now = now, .state = state };

	*again = 0;
	return alive_verdict(&l, again);
}

/* Before its limit nothing is decided, whatever the server did: look again at the limit. */
static void test_before_the_limit(void **state)
{
	unsigned long again;

	(void)state;
	for (unsigned int s = TACET_THREAD_RUNNING; s <= TACET_THREAD_DEAD; s++) {
		assert_int_equal(verdict(LIMIT - 1, 3, 9, s, &again), ALIVE_NOT_YET);
		assert_int_equal(again, LIMIT);
	}
}

/* A spinner: it ran (on its hart now, or taken from the queue since) and wants its hart. */
static void test_ran_and_wants_its_hart_is_ended(void **state)
{
	unsigned long again;

	(void)state;
	assert_int_equal(verdict(LIMIT, 5, 5, TACET_THREAD_RUNNING, &again), ALIVE_END_RAN);
	assert_int_equal(verdict(LIMIT, 5, 6, TACET_THREAD_READY, &again), ALIVE_END_RAN);
	assert_int_equal(verdict(3 * LIMIT, 5, 9, TACET_THREAD_READY, &again), ALIVE_END_RAN);
}

/* Ready all along and never taken from the queue: it waits for its hart behind the spinner. */
static void test_never_got_its_hart_waits(void **state)
{
	unsigned long again;

	(void)state;
	assert_int_equal(verdict(LIMIT, 5, 5, TACET_THREAD_READY, &again), ALIVE_NOT_YET);
	assert_int_equal(again, 2 * LIMIT);
	assert_int_equal(verdict(2 * LIMIT + 1, 5, 5, TACET_THREAD_READY, &again), ALIVE_NOT_YET);
	assert_int_equal(again, 3 * LIMIT + 1);
	/* the last look is at the longer limit, not past it */
	assert_int_equal(verdict(3 * LIMIT + 5, 5, 5, TACET_THREAD_READY, &again), ALIVE_NOT_YET);
	assert_int_equal(again, ALIVE_WAIT_TIMES * LIMIT);
}

/* In a call, whether or not it ran: it does not want its hart (blk waiting for init's grant),
 * so it is not ended at its limit. Faulted or ended: its end comes another way. */
static void test_waiting_in_a_call_waits(void **state)
{
	static const unsigned int calls[] = { TACET_THREAD_BLOCKED_SEND, TACET_THREAD_BLOCKED_REPLY,
					      TACET_THREAD_FAULTED, TACET_THREAD_DEAD };
	unsigned long again;

	(void)state;
	for (unsigned int i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		assert_int_equal(verdict(LIMIT, 5, 5, calls[i], &again), ALIVE_NOT_YET);
		assert_int_equal(verdict(LIMIT, 5, 7, calls[i], &again), ALIVE_NOT_YET);
		assert_int_equal(again, 2 * LIMIT);
	}
}

/* In a wait or a receive that is not its loop's: a whole limit without running is a handler
 * waiting for an event, not for a hart: ended. Gone into it since the last look (it ran): a
 * limit more. */
static void test_in_a_wait_all_along_is_ended(void **state)
{
	unsigned long again;

	(void)state;
	assert_int_equal(verdict(LIMIT, 5, 5, TACET_THREAD_BLOCKED_NTFN, &again), ALIVE_END_WAIT);
	assert_int_equal(verdict(LIMIT, 5, 5, TACET_THREAD_BLOCKED_RECV, &again), ALIVE_END_WAIT);
	assert_int_equal(verdict(LIMIT, 5, 6, TACET_THREAD_BLOCKED_NTFN, &again), ALIVE_NOT_YET);
	assert_int_equal(again, 2 * LIMIT);
	/* the next look compares with this one's runs */
	assert_int_equal(verdict(2 * LIMIT, 6, 6, TACET_THREAD_BLOCKED_NTFN, &again),
			 ALIVE_END_WAIT);
}

/* At the longer limit any server is ended: one waiting for ever in a call too. */
static void test_longer_limit_ends_any(void **state)
{
	unsigned long again;

	(void)state;
	assert_int_equal(verdict(ALIVE_WAIT_TIMES * LIMIT, 5, 5, TACET_THREAD_READY, &again),
			 ALIVE_END_LONGEST);
	assert_int_equal(verdict(ALIVE_WAIT_TIMES * LIMIT, 5, 8, TACET_THREAD_BLOCKED_REPLY,
				 &again), ALIVE_END_LONGEST);
	assert_int_equal(verdict(ALIVE_WAIT_TIMES * LIMIT + 100, 5, 6, TACET_THREAD_BLOCKED_NTFN,
				 &again), ALIVE_END_LONGEST);
	/* one that ran and wants its hart is ended for having run, at any look */
	assert_int_equal(verdict(ALIVE_WAIT_TIMES * LIMIT, 5, 6, TACET_THREAD_RUNNING, &again),
			 ALIVE_END_RAN);
}

/* The count wraps: any change is a run. */
static void test_runs_wrap(void **state)
{
	unsigned long again;

	(void)state;
	assert_int_equal(verdict(LIMIT, ~0ul, 0, TACET_THREAD_READY, &again), ALIVE_END_RAN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_before_the_limit),
		cmocka_unit_test(test_ran_and_wants_its_hart_is_ended),
		cmocka_unit_test(test_never_got_its_hart_waits),
		cmocka_unit_test(test_waiting_in_a_call_waits),
		cmocka_unit_test(test_in_a_wait_all_along_is_ended),
		cmocka_unit_test(test_longer_limit_ends_any),
		cmocka_unit_test(test_runs_wrap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
