/* alive_rule.h: the liveness check's verdict on one unanswered question (alive_rule.c), apart
 * from init's threads and system calls so that the host tests run it (tests/host/alive_rule.mk).
 * A pure function: what the supervisor saw of the server, in, the verdict, out. */
#ifndef ALIVE_RULE_H
#define ALIVE_RULE_H

/* A question whose server never got its hart (or waits in a call) waits up to this many times
 * its limit: long enough for the thread that keeps the hart to be asked and ended by its own
 * question (within a round and a limit), short enough that a server waiting for ever inside
 * a handler is still ended. */
#define ALIVE_WAIT_TIMES 4

enum alive_verdict {
	ALIVE_NOT_YET, /* not past its limit, or its server never ran since: look again later */
	ALIVE_END_RAN, /* past its limit, and the server ran since it was asked: it spins or
			* works without going back to its loop */
	ALIVE_END_WAITED, /* past ALIVE_WAIT_TIMES limits, whatever it did */
};

/* What the supervisor saw of a question's server (any unit of time, the same for all). */
struct alive_look {
	unsigned long elapsed;    /* since the question was asked */
	unsigned long limit;      /* the server's `~MS` */
	unsigned long runs_asked; /* its first thread's runs (TACET_INFO_PROCESS) when asked */
	unsigned long runs_now;   /* ...and now */
	unsigned int state;       /* that thread's state now (enum tacet_thread_state) */
};

/* The verdict; for ALIVE_NOT_YET, *again is when (elapsed) to look again. A server ran since
 * the question if its thread was taken from a run queue since (runs moved) or runs now; it is
 * ended at the limit only if it ran and still wants its hart (running or ready): one that
 * never got its hart, or waits in a call or a wait (for init's service thread, which a
 * spinner of its hart starves too), is looked at again every limit until the longer one. */
enum alive_verdict alive_verdict(const struct alive_look *l, unsigned long *again);

#endif
