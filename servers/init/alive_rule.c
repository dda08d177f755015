/* alive_rule.c: the liveness check's verdict on an unanswered question, and on an interrupt of
 * a line a server has alone that it holds untaken (alive_rule.h). No state, no system call: the
 * supervisor and the asking threads (liveness.c) call it, and the host tests. */
#include <tacet/abi.h>
#include "alive_rule.h"

/* Blocked in a wait, or in a receive: a loop's receive would have taken the question. */
static int in_a_wait(unsigned int state)
{
	return state == TACET_THREAD_BLOCKED_NTFN || state == TACET_THREAD_BLOCKED_RECV;
}

enum alive_verdict alive_verdict(const struct alive_look *l, unsigned long *again)
{
	unsigned long longest = ALIVE_WAIT_TIMES * l->limit;
	int running = l->state_now == TACET_THREAD_RUNNING;
	int ran = running || l->preempted_now != l->preempted_then;

	if (l->elapsed < l->limit) {
		*again = l->limit;
		return ALIVE_NOT_YET;
	}
	if (ran && (running || l->state_now == TACET_THREAD_READY))
		return ALIVE_END_RAN;
	if (!ran && in_a_wait(l->state_then) && in_a_wait(l->state_now))
		return ALIVE_END_WAIT;
	if (l->elapsed >= longest && l->waited)
		return ALIVE_END_LONGEST;
	*again = l->elapsed + l->limit;
	if (l->elapsed < longest && *again > longest)
		*again = longest;
	return ALIVE_NOT_YET;
}

int alive_own_held_ends(unsigned long held_for, unsigned long limit, unsigned int state_now)
{
	return held_for >= limit && state_now == TACET_THREAD_BLOCKED_RECV;
}
