/* liveness.c: init's liveness thread, which asks every server whose init.run= entry says `~MS`
 * whether it is alive (a TACET_LABEL_ALIVE call, which lib's service loop answers itself), and
 * the supervisor's side: a server that has not answered within MS ms is ended (PROCESS_END), a
 * failure that its entry's `*N` may restart (supervisor.c). A driver that spins, or waits for
 * ever in a handler, stops taking calls: its clients, blocked in theirs, get -TACET_EDEAD at its
 * end and reconnect to the next instance.
 * Three owners, no lock (supervisor.c's rule): the service thread writes ALIVE_FIRST_SLOT + n
 * (what server n published last: liveness_published, liveness_withdrawn); the liveness thread
 * only calls through it, and signals the supervisor ALIVE_ASKED(n) before a call and
 * ALIVE_ANSWERED(n) after it (an answer, or an error: the server ended or is not published); the
 * supervisor owns asked_at and the decision (liveness_noted, liveness_check). The liveness
 * thread runs on init's hart at init's priority, so that a driver spinning there cannot keep it
 * from asking; it never waits for another of init's threads. It exists only in a boot whose
 * init.run= has a `~` (started before the leak check's baseline, like the service thread). */
#include <stdio.h>
#include <string.h>
#include "init.h"

static unsigned long round_ms; /* the liveness thread's pause between two rounds */

/* Ask server n (the liveness thread's): one call through what it last published. */
static void ask(unsigned int n)
{
	struct tacet_msg msg = { .tag = TACET_TAG(TACET_LABEL_ALIVE, 0) };

	if (tacet_cap_info(ALIVE_FIRST_SLOT + n, NULL, NULL) != TACET_CAP_ENDPOINT)
		return; /* not published (yet, or again) */
	tacet_signal(exits_slot, ALIVE_ASKED(n));
	tacet_call(ALIVE_FIRST_SLOT + n, &msg);
	tacet_signal(exits_slot, ALIVE_ANSWERED(n));
}

/* The liveness thread: waits for ALIVE_GO, then asks each `~` server in turn, a round every
 * round_ms, until ALIVE_QUIT. */
static void liveness_main(void *unused)
{
	unsigned long bits = 0;

	(void)unused;
	while (!(bits & ALIVE_GO)) {
		long got = tacet_wait(ALIVE_NTFN_SLOT);

		if (got < 0 || (got & ALIVE_QUIT))
			tacet_exit(0);
		bits |= (unsigned long)got;
	}
	for (;;) {
		for (unsigned int n = 0; n < nservers; n++)
			if (servers[n].alive_ms)
				ask(n);
		tacet_timer_set(ALIVE_NTFN_SLOT, ALIVE_TICK,
				tacet_time() + tacet_ns_to_ticks(round_ms * NS_PER_MS));
		bits = (unsigned long)tacet_wait(ALIVE_NTFN_SLOT);
		if (bits & ALIVE_QUIT) {
			tacet_timer_set(ALIVE_NTFN_SLOT, ALIVE_TICK, 0);
			tacet_exit(0);
		}
	}
}

/* The shortest `~MS` init.run= says, or 0 if none (the supervisor, before any server starts:
 * servers[] is filled later). */
static unsigned long shortest_alive_ms(void)
{
	const char *p = strstr(bi->bootargs, "init.run="), *end;
	unsigned long best = 0;

	if (!p)
		return 0;
	end = strchr(p, ' ');
	for (p = strchr(p, ALIVE_MARK); p && (!end || p < end); p = strchr(p + 1, ALIVE_MARK)) {
		unsigned long ms = 0;

		while (p[1] >= '0' && p[1] <= '9')
			ms = 10 * ms + (unsigned long)(*++p - '0');
		if (ms && (!best || ms < best))
			best = ms;
	}
	return best;
}

/* The supervisor, at the start (before the leak check's baseline): the liveness thread and its
 * notification, if init.run= has a `~`. 0, or the error. */
long start_liveness(void)
{
	struct tacet_self self = { 0 };
	unsigned long stack = (unsigned long)tacet_slot_alloc(), ms = shortest_alive_ms();
	long err;

	if (!ms) {
		tacet_slot_free(stack);
		return 0;
	}
	round_ms = ms / 4 ? ms / 4 : 1; /* a server is asked about 4 times within its limit */
	tacet_self(&self);
	err = tacet_ntfn_new(ALIVE_NTFN_SLOT);
	if (!err)
		err = tacet_frame_new(stack, ALIVE_STACK_PAGES);
	if (!err)
		err = tacet_map(TACET_SLOT_SELF_PROCESS, stack, ALIVE_STACK_VA,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	tacet_slot_free(stack);
	if (!err)
		err = tacet_thread_start(liveness_main, NULL,
					 ALIVE_STACK_VA + ALIVE_STACK_PAGES * TACET_PAGE_SIZE,
					 TACET_SCHED(self.prio, self.hart));
	return err < 0 ? err : 0;
}

/* The supervisor: every server of init.run= has started (nservers and the entries are final). */
void liveness_go(void)
{
	if (round_ms)
		tacet_signal(ALIVE_NTFN_SLOT, ALIVE_GO);
}

/* The supervisor: the liveness thread's bits from exits_slot. A question and its answer in one
 * batch: if one was outstanding before, its answer came first and the new question is
 * outstanding now; else the new question was answered. */
void liveness_noted(unsigned long bits)
{
	for (unsigned int n = 0; n < nservers; n++) {
		struct server *s = &servers[n];
		int asked = (bits & ALIVE_ASKED(n)) != 0, answered = (bits & ALIVE_ANSWERED(n)) != 0;

		if (asked && answered)
			s->asked_at = s->asked_at ? tacet_time() : 0;
		else if (answered)
			s->asked_at = 0;
		else if (asked)
			s->asked_at = tacet_time();
	}
}

/* The supervisor: when the soonest unanswered question passes its server's limit (0: none). */
unsigned long liveness_deadline(void)
{
	unsigned long soonest = 0;

	for (unsigned int n = 0; n < nservers; n++) {
		const struct server *s = &servers[n];
		unsigned long at = s->asked_at + tacet_ns_to_ticks(s->alive_ms * NS_PER_MS);

		if (s->asked_at && s->state == SERVER_RUNNING && (!soonest || at < soonest))
			soonest = at;
	}
	return soonest;
}

/* The supervisor: end every server whose question has gone unanswered past its limit. */
void liveness_check(void)
{
	unsigned long now = tacet_time();

	for (unsigned int n = 0; n < nservers; n++) {
		struct server *s = &servers[n];

		if (!s->asked_at || s->state != SERVER_RUNNING ||
		    now - s->asked_at < tacet_ns_to_ticks(s->alive_ms * NS_PER_MS))
			continue;
		printf("init: server %s has not answered for %u ms; ending it\n", s->name,
		       s->alive_ms);
		s->asked_at = 0;
		s->status = -TACET_EBUSY;
		tacet_process_end(s->process_slot);
	}
}

/* The service thread: server id (a `~` entry) published the endpoint in slot: the liveness
 * thread asks through a copy of it from now on. */
void liveness_published(unsigned int id, unsigned long slot)
{
	if (!servers[id].alive_ms)
		return;
	tacet_cap_delete(ALIVE_FIRST_SLOT + id);
	tacet_cap_copy(slot, ALIVE_FIRST_SLOT + id, TACET_RIGHT_WRITE, 0);
}

/* The service thread: server id ended; its endpoint is not asked any more. */
void liveness_withdrawn(unsigned int id)
{
	tacet_cap_delete(ALIVE_FIRST_SLOT + id);
}
