/* alive_rule.h: the liveness check's verdict on one unanswered question (alive_rule.c), apart
 * from init's threads and system calls so that the host tests run it (tests/host/alive_rule.mk).
 * A pure function: what the supervisor saw of the server, in, the verdict, out. */
#ifndef ALIVE_RULE_H
#define ALIVE_RULE_H

/* A question whose server never got its hart (or waits in a call) waits up to this many times
 * its limit: long enough for the thread that keeps the hart to be asked and ended by its own
 * question (within a round and a limit), short enough that a server waiting for ever in a
 * call is still ended. */
#define ALIVE_WAIT_TIMES 4

enum alive_verdict {
	ALIVE_NOT_YET,  /* not past its limit, or its server was kept from running: look again */
	ALIVE_END_RAN,  /* it ran since the last look and wants its hart: it spins, or works
			 * without going back to its loop */
	ALIVE_END_WAIT, /* it waited a whole limit in a wait or a receive that is not its loop's
			 * (a handler waiting for an event that does not come), not for a hart */
	ALIVE_END_LONGEST, /* ALIVE_WAIT_TIMES limits have passed, whatever it did */
};

/* What the supervisor saw of a question's server (any unit of time, the same for all). */
struct alive_look {
	unsigned long elapsed;   /* since the question was asked */
	unsigned long limit;     /* the server's `~MS` */
	unsigned long runs_then; /* its first thread's runs (TACET_INFO_PROCESS) at the last look,
				  * or when it was asked */
	unsigned long runs_now;  /* ...and now */
	unsigned int state;      /* that thread's state now (enum tacet_thread_state) */
};

/* The verdict; for ALIVE_NOT_YET, *again is when (elapsed) to look again. The server ran since
 * the last look if its thread was taken from a run queue since (runs moved) or runs now. Past
 * the limit: one that ran and wants its hart (running or ready) is ended; one that did not run
 * and is in a wait or a receive (not its loop's: that one would have answered) has waited a
 * whole limit for an event, and is ended; one kept from running (ready, runs unchanged: the
 * hart is a spinner's), in a call (to init's service thread, which that spinner starves too),
 * or just gone into a wait, is looked at again a limit later, up to ALIVE_WAIT_TIMES limits. */
enum alive_verdict alive_verdict(const struct alive_look *l, unsigned long *again);

#endif
