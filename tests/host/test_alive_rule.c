/* test_alive_rule.c: host unit tests of servers/init/alive_rule.c, the verdict init's supervisor
 * gives an unanswered liveness question: nothing before the limit; at it, the end of a server
 * that ran since the last look (preempted since, or running now) and still wants its hart
 * (running or ready), or that sat in a wait (not its loop's) then and now, not preempted
 * between; a wait, looked at again every limit up to ALIVE_WAIT_TIMES limits, for one that never
 * got its hart (ready, not preempted) or waits in a call (the spinner's neighbour, whose call to
 * init's service thread the spinner starves) or went into a wait since; the end of any at the
 * longer limit. And the end of a server that held an interrupt of a line it has alone, untaken,
 * for ALIVE_OWN_HELD_MS while it sits in a receive, not before, nor while it is busy. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <tacet/abi.h>
#include "alive_rule.h"

#define LIMIT 10ul
#define READY TACET_THREAD_READY
#define RUNNING TACET_THREAD_RUNNING
#define IN_CALL TACET_THREAD_BLOCKED_REPLY
#define IN_WAIT TACET_THREAD_BLOCKED_NTFN

/* The verdict at `elapsed`, the thread seen then (p0 preemptions, state s0) and now (p1, s1),
 * a look before this one having let it wait if elapsed is past the limit. */
static enum alive_verdict verdict(unsigned long elapsed, unsigned long p0, unsigned int s0,
				  unsigned long p1, unsigned int s1, unsigned long *again)
{
	struct alive_look l = { .elapsed = elapsed, .limit = LIMIT, .preempted_then = p0,
				.preempted_now = p1, .state_then = s0, .state_now = s1,
				.waited = elapsed > LIMIT };

	*again = 0;
	return alive_verdict(&l, again);
}

/* Before its limit nothing is decided, whatever the server did: look again at the limit. */
static void test_before_the_limit(void **state)
{
	unsigned long again;

	(void)state;
	for (unsigned int s = TACET_THREAD_RUNNING; s <= TACET_THREAD_DEAD; s++) {
		assert_int_equal(verdict(LIMIT - 1, 3, s, 9, s, &again), ALIVE_NOT_YET);
		assert_int_equal(again, LIMIT);
	}
}

/* A spinner: it runs now, or the scheduler took its hart since (and it wants it back). */
static void test_ran_and_wants_its_hart_is_ended(void **state)
{
	unsigned long again;

	(void)state;
	assert_int_equal(verdict(LIMIT, 5, RUNNING, 5, RUNNING, &again), ALIVE_END_RAN);
	assert_int_equal(verdict(LIMIT, 5, READY, 6, READY, &again), ALIVE_END_RAN);
	assert_int_equal(verdict(3 * LIMIT, 5, IN_CALL, 9, READY, &again), ALIVE_END_RAN);
}

/* Ready all along and never preempted: it waits for its hart behind the spinner. */
static void test_never_got_its_hart_waits(void **state)
{
	unsigned long again;

	(void)state;
	assert_int_equal(verdict(LIMIT, 5, READY, 5, READY, &again), ALIVE_NOT_YET);
	assert_int_equal(again, 2 * LIMIT);
	assert_int_equal(verdict(2 * LIMIT + 1, 5, READY, 5, READY, &again), ALIVE_NOT_YET);
	assert_int_equal(again, 3 * LIMIT + 1);
	/* the last look is at the longer limit, not past it */
	assert_int_equal(verdict(3 * LIMIT + 5, 5, READY, 5, READY, &again), ALIVE_NOT_YET);
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
		assert_int_equal(verdict(LIMIT, 5, READY, 5, calls[i], &again), ALIVE_NOT_YET);
		assert_int_equal(verdict(LIMIT, 5, calls[i], 7, calls[i], &again), ALIVE_NOT_YET);
		assert_int_equal(again, 2 * LIMIT);
	}
}

/* In a wait or a receive that is not its loop's, then and now, not preempted between: it waits
 * for an event, not for its hart: ended. Gone into it since it was kept from running (ready
 * then): a limit more. */
static void test_in_a_wait_all_along_is_ended(void **state)
{
	unsigned long again;

	(void)state;
	assert_int_equal(verdict(LIMIT, 5, IN_WAIT, 5, IN_WAIT, &again), ALIVE_END_WAIT);
	assert_int_equal(verdict(LIMIT, 5, TACET_THREAD_BLOCKED_RECV, 5,
				 TACET_THREAD_BLOCKED_RECV, &again), ALIVE_END_WAIT);
	assert_int_equal(verdict(LIMIT, 5, READY, 5, IN_WAIT, &again), ALIVE_NOT_YET);
	assert_int_equal(again, 2 * LIMIT);
	assert_int_equal(verdict(LIMIT, 5, IN_WAIT, 6, IN_WAIT, &again), ALIVE_NOT_YET);
	/* the next look compares with this one */
	assert_int_equal(verdict(2 * LIMIT, 6, IN_WAIT, 6, IN_WAIT, &again), ALIVE_END_WAIT);
}

/* At the longer limit any server is ended: one waiting for ever in a call too. */
static void test_longer_limit_ends_any(void **state)
{
	unsigned long again;

	(void)state;
	assert_int_equal(verdict(ALIVE_WAIT_TIMES * LIMIT, 5, READY, 5, READY, &again),
			 ALIVE_END_LONGEST);
	assert_int_equal(verdict(ALIVE_WAIT_TIMES * LIMIT, 5, IN_CALL, 8, IN_CALL, &again),
			 ALIVE_END_LONGEST);
	assert_int_equal(verdict(ALIVE_WAIT_TIMES * LIMIT + 100, 5, READY, 5, IN_WAIT, &again),
			 ALIVE_END_LONGEST);
	/* one that ran and wants its hart is ended for having run, at any look */
	assert_int_equal(verdict(ALIVE_WAIT_TIMES * LIMIT, 5, READY, 6, RUNNING, &again),
			 ALIVE_END_RAN);
}

/* A first look later than the longer limit (the machine was not run meanwhile) lets a server
 * kept from running wait one limit more; one that ran is ended at once. */
static void test_late_first_look_waits_once(void **state)
{
	struct alive_look l = { .elapsed = 8 * LIMIT, .limit = LIMIT, .preempted_then = 5,
				.preempted_now = 5, .state_then = READY, .state_now = READY };
	unsigned long again = 0;

	(void)state;
	assert_int_equal(alive_verdict(&l, &again), ALIVE_NOT_YET);
	assert_int_equal(again, 9 * LIMIT);
	l.waited = 1;
	l.elapsed = 9 * LIMIT;
	assert_int_equal(alive_verdict(&l, &again), ALIVE_END_LONGEST);
	l.waited = 0;
	l.preempted_now = 6;
	assert_int_equal(alive_verdict(&l, &again), ALIVE_END_RAN);
}

/* The count wraps: any change is a preemption. */
static void test_preemptions_wrap(void **state)
{
	unsigned long again;

	(void)state;
	assert_int_equal(verdict(LIMIT, ~0ul, READY, 0, READY, &again), ALIVE_END_RAN);
}

/* A driver deaf to a line it has alone: ended once it held the interrupt the limit, sitting in
 * its receive; not before, and never while it runs, waits or is in a call (a handler). */
static void test_own_line_held(void **state)
{
	unsigned long limit = ALIVE_OWN_HELD_MS;

	(void)state;
	assert_false(alive_own_held_ends(limit - 1, limit, TACET_THREAD_BLOCKED_RECV));
	assert_true(alive_own_held_ends(limit, limit, TACET_THREAD_BLOCKED_RECV));
	assert_true(alive_own_held_ends(10 * limit, limit, TACET_THREAD_BLOCKED_RECV));
	for (unsigned int s = TACET_THREAD_RUNNING; s <= TACET_THREAD_DEAD; s++)
		if (s != TACET_THREAD_BLOCKED_RECV)
			assert_false(alive_own_held_ends(10 * limit, limit, s));
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
		cmocka_unit_test(test_late_first_look_waits_once),
		cmocka_unit_test(test_preemptions_wrap),
		cmocka_unit_test(test_own_line_held),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
