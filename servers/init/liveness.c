/* liveness.c: init's liveness thread, which asks every server whose init.run= entry says `~MS`
 * whether it is alive (a TACET_LABEL_ALIVE call, which lib's service loop answers itself), and
 * the supervisor's side: a server that has not answered within MS ms is ended (PROCESS_END), a
 * failure that its entry's `*N` may restart (supervisor.c). A driver that spins, or waits for
 * ever in a handler, stops taking calls: its clients, blocked in theirs, get -TACET_EDEAD at its
 * end and reconnect to the next instance. A client may also say that a server's instance left
 * its request unanswered (INIT_STUCK): the same end.
 * Three owners, no lock (supervisor.c's rule): the service thread writes ALIVE_FIRST_SLOT + n
 * (what server n published last: liveness_published, liveness_withdrawn); the liveness thread
 * only calls through it. The liveness thread alone writes `asking`, one word stored and loaded
 * whole (atomic on RV64): the question it waits for an answer to (its server, that server's
 * instance, when it was asked), 0 between two; before each question it signals the supervisor
 * ALIVE_ASKED, which then reads the word and arms its timer for the question's limit, and at
 * the timer reads it again: the same question still unanswered past its limit ends the
 * server. No question is lost or made up by two signals coming together. The liveness thread
 * runs on init's hart at init's priority, so that a driver spinning there cannot keep it from
 * asking; it never waits for another of init's threads. It exists only in a boot whose
 * init.run= has a `~` (started before the leak check's baseline, like the service thread). */
#include <stdio.h>
#include <string.h>
#include "init.h"

#define ASK_SERVER(w) ((unsigned int)((w) & 0xf))
#define ASK_INSTANCE(w) (((w) >> 4) & 0xffff)
#define ASK_AT(w) ((w) >> 20)

static unsigned long round_ms; /* the liveness thread's pause between two rounds */
static unsigned long asking;   /* the liveness thread's: (at << 20) | (instance << 4) | server */
static unsigned long ended_ask; /* the supervisor's: the question it last ended a server for */

/* Ask server n (the liveness thread's): one call through what it last published. */
static void ask(unsigned int n)
{
	struct tacet_msg msg = { .tag = TACET_TAG(TACET_LABEL_ALIVE, 0) };
	unsigned long w = (tacet_time() << 20) | ((servers[n].restarts & 0xffff) << 4) | n;

	if (tacet_cap_info(ALIVE_FIRST_SLOT + n, NULL, NULL) != TACET_CAP_ENDPOINT)
		return; /* not published (yet, or again) */
	__atomic_store_n(&asking, w, __ATOMIC_RELEASE);
	tacet_signal(exits_slot, ALIVE_ASKED);
	tacet_call(ALIVE_FIRST_SLOT + n, &msg); /* an answer, or the end of that instance */
	__atomic_store_n(&asking, 0, __ATOMIC_RELEASE);
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

/* The supervisor: s stopped answering: its end, a failure its `*N` may restart. */
static void end_unanswering(struct server *s)
{
	s->status = -TACET_EBUSY;
	tacet_process_end(s->process_slot);
}

/* The supervisor: ALIVE_STUCK bits from the service thread (a client's INIT_STUCK). */
void liveness_noted(unsigned long bits)
{
	for (unsigned int n = 0; n < nservers && n < ALIVE_SERVERS_MAX; n++) {
		struct server *s = &servers[n];

		if (!(bits & ALIVE_STUCK(n)) || s->state != SERVER_RUNNING)
			continue;
		printf("init: a client of %s says it left a request unanswered; ending it\n", s->name);
		end_unanswering(s);
	}
}

/* The question outstanding, if its server is still the instance asked and still running:
 * that server; else NULL. */
static struct server *asked(unsigned long w)
{
	struct server *s = w && ASK_SERVER(w) < nservers ? &servers[ASK_SERVER(w)] : NULL;

	if (!s || s->state != SERVER_RUNNING || (s->restarts & 0xffff) != ASK_INSTANCE(w) ||
	    w == ended_ask)
		return NULL;
	return s;
}

/* The supervisor: when the question outstanding passes its server's limit (0: none). */
unsigned long liveness_deadline(void)
{
	unsigned long w = __atomic_load_n(&asking, __ATOMIC_ACQUIRE);
	struct server *s = asked(w);

	return s ? ASK_AT(w) + tacet_ns_to_ticks(s->alive_ms * NS_PER_MS) : 0;
}

/* The supervisor, at its timer: end the server whose question has gone unanswered past its
 * limit. */
void liveness_check(void)
{
	unsigned long w = __atomic_load_n(&asking, __ATOMIC_ACQUIRE);
	struct server *s = asked(w);

	if (!s || tacet_time() - ASK_AT(w) < tacet_ns_to_ticks(s->alive_ms * NS_PER_MS))
		return;
	printf("init: server %s has not answered for %u ms; ending it\n", s->name, s->alive_ms);
	ended_ask = w;
	end_unanswering(s);
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

/* The service thread: INIT_STUCK from server `from`, about instance `instance` of server id,
 * which published the service `service`: 0 (the supervisor is told), or why not. */
long liveness_stuck(const struct server *from, unsigned int id, const char *service,
		    unsigned long instance)
{
	const char *g;
	size_t len = strlen(service);

	for (g = from->grants; *g; g += strcspn(g, ";"), g += *g == ';')
		if (!strncmp(g, service, len) && g[len] == '=')
			break;
	if (!*g || !servers[id].alive_ms || id >= ALIVE_SERVERS_MAX)
		return -TACET_EPERM;
	if (servers[id].restarts != instance)
		return -TACET_EDEAD;
	tacet_signal(exits_slot, ALIVE_STUCK(id));
	return 0;
}

/* The service thread: server id ended; its endpoint is not asked any more. */
void liveness_withdrawn(unsigned int id)
{
	tacet_cap_delete(ALIVE_FIRST_SLOT + id);
}
