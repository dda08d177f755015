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

/* A server's start, from when its asking thread first sees the instance until its first
 * publish (before which there is no endpoint to ask through), is a question with this many
 * times its limit: a driver's set-up (its device reset and opened, its buffers made, its lines
 * printed) is far longer than an answer, and wants its hart all along, beside the set-ups of
 * the others init restarts with it on that hart; one that spins there is ended all the same. */
#define ALIVE_START_TIMES 20

/* A server that holds an interrupt of a line it has alone, its signal untaken
 * (TACET_INFO_PROCESS's irq_held_own: it has not looked at its device's interrupt since), for
 * this long while it sits in a receive (a driver deaf to its line: it answers calls, but its
 * device is not served) is ended whatever its `~MS`. A healthy driver takes its interrupt's
 * signal as soon as it is in its loop (a wait on the notification, or the receive the
 * notification is bound to): microseconds, a few milliseconds on a loaded host; one that takes
 * it and puts its ack off (lib's device loop) is not reported at all, nor is one busy in a
 * handler (a call, a sleep: not a receive). Two seconds is far above any of these, under
 * -icount or a host that stalls the machine for a while, yet well below what a client of the
 * dead device waits before giving up (a stream's 10 s). */
#define ALIVE_OWN_HELD_MS 2000

enum alive_verdict {
	ALIVE_NOT_YET,  /* not past its limit, or its server was kept from running: look again */
	ALIVE_END_RAN,  /* it ran since the last look and wants its hart: it spins, or works
			 * without going back to its loop */
	ALIVE_END_WAIT, /* it sat in a wait or a receive that is not its loop's (a handler
			 * waiting for an event that does not come) at the last look and now,
			 * not preempted between: it waits for an event, not for a hart */
	ALIVE_END_LONGEST, /* ALIVE_WAIT_TIMES limits have passed, and a look before this one
			    * let it wait: whatever it did */
};

/* What the supervisor saw of a question's server (any unit of time, the same for all): its
 * first thread (TACET_INFO_PROCESS) at the last look, or when it was asked, and now. */
struct alive_look {
	unsigned long elapsed;     /* since the question was asked */
	unsigned long limit;       /* the server's `~MS` */
	unsigned long preempted_then, preempted_now; /* its preemptions */
	unsigned int state_then, state_now;          /* its state (enum tacet_thread_state) */
	int waited; /* a look before this one let the question wait */
};

/* The verdict; for ALIVE_NOT_YET, *again is when (elapsed) to look again. The server ran since
 * the last look if the scheduler preempted it since (it had its hart, and wanted it on) or it
 * runs now. Past the limit: one that ran and wants its hart (running or ready) is ended; one
 * in a wait or a receive (not its loop's: that one would have answered) then and now, not
 * preempted between, has waited for an event, and is ended; one kept from running (ready and
 * not preempted: the hart is a spinner's), in a call (to init's service thread, which that
 * spinner starves too), or gone into a wait since, is looked at again a limit later, up to
 * ALIVE_WAIT_TIMES limits; a first look that comes later than that (the machine itself was
 * stopped: a host that did not run it) lets it wait one limit more. */
enum alive_verdict alive_verdict(const struct alive_look *l, unsigned long *again);

/* Whether a server that has held the same interrupt of a line it has alone, its signal untaken,
 * for held_for (any unit of time, the same as limit: ALIVE_OWN_HELD_MS's) is ended, its first
 * thread seen now in state_now (enum tacet_thread_state): only past the limit and while it sits
 * in a receive (its loop's, deaf to the line); one in a call, a wait or running is busy in a
 * handler (the console's shell pinging for seconds), and its own question judges it. */
int alive_own_held_ends(unsigned long held_for, unsigned long limit, unsigned int state_now);

#endif
