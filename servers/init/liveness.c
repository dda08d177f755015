/* liveness.c: init's asking threads, which ask every server whose init.run= entry says `~MS`
 * whether it is alive (a TACET_LABEL_ALIVE call, which lib's service loop answers itself), and
 * the supervisor's side: a server that has not answered within MS ms is ended (PROCESS_END), a
 * failure that its entry's `*N` may restart (supervisor.c), if it ran since it was asked and
 * still wants its hart (it spins), or sat in a wait that is not its loop's all along. A
 * driver that spins, or waits for ever in a handler, stops taking calls: its clients, blocked
 * in theirs, get -TACET_EDEAD at its end and reconnect to the next instance. A client may also
 * say that a server's instance left its request unanswered (INIT_STUCK): the same end.
 * A server kept from running since it was asked (it waited for its hart behind a spinner of its
 * priority, or in a call to init's service thread, which waits for that hart too) is not ended
 * at its limit: its question waits, looked at again every MS ms, up to ALIVE_WAIT_TIMES limits
 * (alive_rule.h). Each `~` server has an asking thread of its own, so that a question that waits
 * keeps no other server from being asked: the spinner's own question ends it.
 * An instance that has published nothing yet has no endpoint to be asked through: its start is
 * its question (from when its asking thread first sees it so), answered by its first publish,
 * with ALIVE_START_TIMES limits, so that one that spins or waits for ever in its set-up is
 * ended by the same rule.
 * Ownership, no lock (supervisor.c's rule): the service thread writes ALIVE_FIRST_SLOT + n (what
 * server n published last: liveness_published, liveness_withdrawn) and alive_published[n]
 * (which instance that is); server n's asking thread only calls through it, and alone writes
 * asking[n], asked_preempted[n] and asked_state[n]: the question it waits for an answer to (its
 * server, that server's instance, when it was asked, whether it is the start's; 0 between two),
 * one word stored and loaded whole (atomic on RV64), and the server's first thread's
 * preemptions and state when it asked (TACET_INFO_PROCESS), stored before the question's word.
 * Before each question it signals the supervisor ALIVE_ASKED, which then reads every question's
 * word and arms its timer for the soonest look, and at the timer looks at each question past
 * its due time (alive_verdict): the same question still unanswered ends the server, or waits.
 * No question is lost or made up by two signals coming together. The asking threads run on
 * init's hart at init's priority, so that a driver spinning there cannot keep them from asking;
 * they never wait for another of init's threads (the service thread, below the drivers, may be
 * the spinner's to starve: an ended instance's endpoint it has not withdrawn yet is not asked).
 * They exist only in a boot whose init.run= has a `~` (started before the leak check's
 * baseline, like the service thread).
 * A server deaf to a line it has alone (it answers calls, but has not taken its device's
 * interrupt: TACET_INFO_PROCESS's irq_held_own) is seen by its asking thread at each round:
 * the same interrupt held ALIVE_OWN_HELD_MS while its first thread sits in a receive
 * (alive_own_held_ends) signals the supervisor ALIVE_OWN_HELD(n), which ends it if it is still
 * the instance seen (own_token, own_since and own_told are the asking thread's; own_ended the
 * word it tells: (ms << 20) | instance + 1, stored before the signal). */
#include <stdio.h>
#include <string.h>
#include "alive_rule.h"
#include "init.h"

#define ASK_START (1ul << 3) /* in a question's word: its server's start's (ask_start) */
#define ASK_INSTANCE(w) (((w) >> 4) & 0xffff)
#define ASK_AT(w) ((w) >> 20)

_Static_assert(ALIVE_SERVERS_MAX <= ASK_START, "a question's word holds its server in 3 bits");

static unsigned int naskers;                          /* asking threads: `~` entries, at most
						       * ALIVE_SERVERS_MAX */
static unsigned long asker_ntfn[ALIVE_SERVERS_MAX];   /* asking thread k's notification */
/* the service thread's: the instance (its restarts) + 1 whose endpoint ALIVE_FIRST_SLOT + n
 * holds, stored after the copy and cleared before the delete; 0: none */
static unsigned long alive_published[ALIVE_SERVERS_MAX];
/* server n's asking thread's (the file's header): the question, and its server's first thread
 * when it asked */
static unsigned long asking[ALIVE_SERVERS_MAX]; /* (at << 20) | (instance << 4) | start | n */
static unsigned long asked_preempted[ALIVE_SERVERS_MAX];
static unsigned int asked_state[ALIVE_SERVERS_MAX];
/* the shared line's interrupt (TACET_INFO_PROCESS's irq_held) server n held when it was asked
 * and still held when it answered: the question stands until that changes (asking thread's) */
static unsigned long held[ALIVE_SERVERS_MAX];
/* the interrupt of a line it has alone (irq_held_own) server n held at the last round, since
 * when, whether the supervisor was told of it (its asking thread's), and what it was told */
static unsigned long own_token[ALIVE_SERVERS_MAX];
static unsigned long own_since[ALIVE_SERVERS_MAX];
static unsigned long own_told[ALIVE_SERVERS_MAX];
static unsigned long own_ended[ALIVE_SERVERS_MAX];
/* the supervisor's */
static unsigned long ended_ask[ALIVE_SERVERS_MAX];   /* the question it last ended server n for */
static unsigned long waiting_ask[ALIVE_SERVERS_MAX]; /* the question it lets wait, ... */
static unsigned long look_at[ALIVE_SERVERS_MAX];     /* ...when it looks at it again, ... */
static unsigned long looked_preempted[ALIVE_SERVERS_MAX]; /* ...and what it saw last */
static unsigned int looked_state[ALIVE_SERVERS_MAX];

static unsigned long ms_ticks(unsigned long ms)
{
	return tacet_ns_to_ticks(ms * NS_PER_MS);
}

/* Server n's question w outstanding (its asking thread's), its first thread seen as pi: the
 * supervisor is told. */
static void post(unsigned int n, unsigned long w, const struct tacet_process_info *pi)
{
	__atomic_store_n(&asked_preempted[n], pi->preemptions, __ATOMIC_RELAXED);
	__atomic_store_n(&asked_state[n], pi->state, __ATOMIC_RELAXED);
	__atomic_store_n(&asking[n], w, __ATOMIC_RELEASE);
	tacet_signal(exits_slot, ALIVE_ASKED);
}

/* Server n's instance `instance` has published nothing yet (its asking thread's): no endpoint
 * to ask through, so its start is the question, asked when this thread first saw it so and
 * answered by its first publish (the next ask() replaces it); it stands, unchanged, until
 * then. */
static void ask_start(unsigned int n, unsigned long instance, const struct tacet_process_info *pi)
{
	unsigned long w = __atomic_load_n(&asking[n], __ATOMIC_RELAXED);

	if ((w & ASK_START) && ASK_INSTANCE(w) == instance)
		return;
	post(n, (tacet_time() << 20) | (instance << 4) | ASK_START | n, pi);
}

/* Whether server n's question w, answered, still stands because its server still holds the
 * shared line's interrupt it held when asked (its asking thread's; pi: seen now). A driver
 * that answers its calls but never acknowledges its interrupt keeps the line masked for the
 * other drivers on it, whose clients then see them stuck: it is judged as not answering. */
static int still_held(unsigned int n, unsigned long w, const struct tacet_process_info *pi)
{
	unsigned long h = __atomic_load_n(&held[n], __ATOMIC_RELAXED);

	if (!h)
		return 0;
	if (ASK_INSTANCE(w) == (servers[n].restarts & 0xffff) && pi->irq_held == h)
		return 1;
	__atomic_store_n(&held[n], 0, __ATOMIC_RELAXED);
	__atomic_store_n(&asking[n], 0, __ATOMIC_RELEASE); /* answered */
	return 0;
}

/* Whether server n's instance `instance`, seen as pi, has held the same interrupt of a line it
 * has alone, untaken, for ALIVE_OWN_HELD_MS, sitting in its receive (its asking thread's): the
 * supervisor is told, once for that interrupt, and the server is not asked this round. */
static int own_held(unsigned int n, unsigned long instance, const struct tacet_process_info *pi)
{
	unsigned long now = tacet_time(), held_for;

	if (pi->irq_held_own != own_token[n]) {
		own_token[n] = pi->irq_held_own;
		own_since[n] = now;
		return 0;
	}
	held_for = now - own_since[n];
	if (!own_token[n] || own_told[n] == own_token[n] ||
	    !alive_own_held_ends(held_for, ms_ticks(ALIVE_OWN_HELD_MS), pi->state))
		return 0;
	own_told[n] = own_token[n];
	__atomic_store_n(&own_ended[n], (held_for / ms_ticks(1)) << 20 | (instance + 1),
			 __ATOMIC_RELEASE);
	tacet_signal(exits_slot, ALIVE_OWN_HELD(n));
	return 1;
}

/* Ask server n (its asking thread's), after taking its first thread's preemptions and state:
 * one call through what its instance published, or, if it has published nothing yet (an
 * endpoint there is an ended instance's until the service thread withdraws it), the question
 * its start is. A restart under way (the instance changed meanwhile): no question this round.
 * A question is answered by the call's answer, and by the acknowledgement of a shared line's
 * interrupt its server held when asked (still_held): until then it stands, and the
 * supervisor's rule judges it like one unanswered. */
static void ask(unsigned int n)
{
	struct tacet_msg msg = { .tag = TACET_TAG(TACET_LABEL_ALIVE, 0) };
	struct tacet_process_info pi = { 0 };
	unsigned int restarts = servers[n].restarts;
	unsigned long instance = restarts & 0xffff, w;

	if (tacet_process_info(servers[n].process_slot, &pi) || servers[n].restarts != restarts ||
	    own_held(n, instance, &pi))
		return;
	w = __atomic_load_n(&asking[n], __ATOMIC_RELAXED);
	if (still_held(n, w, &pi))
		return;
	if (__atomic_load_n(&alive_published[n], __ATOMIC_ACQUIRE) != restarts + 1ul) {
		ask_start(n, instance, &pi);
		return;
	}
	w = (tacet_time() << 20) | (instance << 4) | n;
	post(n, w, &pi);
	tacet_call(ALIVE_FIRST_SLOT + n, &msg); /* an answer, or the end of that instance */
	__atomic_store_n(&held[n], pi.irq_held, __ATOMIC_RELAXED);
	if (pi.irq_held && !tacet_process_info(servers[n].process_slot, &pi) &&
	    still_held(n, w, &pi))
		return;
	__atomic_store_n(&held[n], 0, __ATOMIC_RELAXED);
	__atomic_store_n(&asking[n], 0, __ATOMIC_RELEASE);
}

/* The server asking thread k asks: the k-th `~` entry (servers[] is final once ALIVE_GO has
 * come), or -1 if that one is past ALIVE_SERVERS_MAX or could not start. */
static int asker_server(unsigned int k)
{
	for (unsigned int n = 0; n < nservers && n < ALIVE_SERVERS_MAX; n++)
		if (servers[n].alive_ms && !k--)
			return (int)n;
	return -1;
}

/* Asking thread k (arg): waits for ALIVE_GO, then asks its server every quarter of its limit
 * (or of ALIVE_OWN_HELD_MS, if shorter: the interrupt it holds is looked at each round), until
 * ALIVE_QUIT. */
static void asker_main(void *arg)
{
	unsigned int k = (unsigned int)(unsigned long)arg;
	unsigned long ntfn = asker_ntfn[k], bits = 0, round = 0;
	int n;

	while (!(bits & ALIVE_GO)) {
		long got = tacet_wait(ntfn);

		if (got < 0 || (got & ALIVE_QUIT))
			tacet_exit(0);
		bits |= (unsigned long)got;
	}
	n = asker_server(k);
	if (n >= 0) {
		unsigned long ms = servers[n].alive_ms < ALIVE_OWN_HELD_MS ? servers[n].alive_ms
									 : ALIVE_OWN_HELD_MS;

		round = ms_ticks(ms / 4 ? ms / 4 : 1);
	}
	for (;;) {
		if (n >= 0) {
			ask((unsigned int)n);
			tacet_timer_set(ntfn, ALIVE_TICK, tacet_time() + round);
		}
		bits = (unsigned long)tacet_wait(ntfn);
		if (bits & ALIVE_QUIT) {
			tacet_timer_set(ntfn, ALIVE_TICK, 0);
			tacet_exit(0);
		}
	}
}

/* The `~MS` entries init.run= has (the supervisor, before any server starts: servers[] is
 * filled later). */
static unsigned int alive_entries(void)
{
	const char *p = strstr(bi->bootargs, "init.run="), *end;
	unsigned int count = 0;

	if (!p)
		return 0;
	end = strchr(p, ' ');
	for (p = strchr(p, ALIVE_MARK); p && (!end || p < end); p = strchr(p + 1, ALIVE_MARK))
		count += p[1] >= '1' && p[1] <= '9';
	return count;
}

/* Asking thread k: its notification, and its stack (a guard page below each) and thread. */
static long start_asker(unsigned int k, const struct tacet_self *self)
{
	long slot = tacet_slot_alloc(), stack = tacet_slot_alloc(), err;
	unsigned long va = ALIVE_STACK_VA + k * (ALIVE_STACK_PAGES + 1) * TACET_PAGE_SIZE;

	if (slot < 0 || stack < 0)
		return slot < 0 ? slot : stack;
	asker_ntfn[k] = (unsigned long)slot;
	err = tacet_ntfn_new(asker_ntfn[k]);
	if (!err)
		err = tacet_frame_new((unsigned long)stack, ALIVE_STACK_PAGES);
	if (!err)
		err = tacet_map(TACET_SLOT_SELF_PROCESS, (unsigned long)stack, va,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	tacet_slot_free((unsigned long)stack);
	if (!err)
		err = tacet_thread_start(asker_main, (void *)(unsigned long)k,
					 va + ALIVE_STACK_PAGES * TACET_PAGE_SIZE,
					 TACET_SCHED(self->prio, self->hart));
	return err < 0 ? err : 0;
}

/* The supervisor, at the start (before the leak check's baseline): an asking thread for each
 * `~` entry of init.run= (up to ALIVE_SERVERS_MAX). 0, or the error. */
long start_liveness(void)
{
	struct tacet_self self = { 0 };
	unsigned int count = alive_entries();
	long err = 0;

	if (!count)
		return 0;
	tacet_self(&self);
	if (count > ALIVE_SERVERS_MAX)
		count = ALIVE_SERVERS_MAX;
	for (unsigned int k = 0; k < count && !err; k++) {
		err = start_asker(k, &self);
		if (!err)
			naskers = k + 1;
	}
	return err;
}

/* The supervisor: every server of init.run= has started (nservers and the entries are final). */
void liveness_go(void)
{
	for (unsigned int k = 0; k < naskers; k++)
		tacet_signal(asker_ntfn[k], ALIVE_GO);
}

/* The supervisor: s stopped answering: its end, a failure its `*N` may restart. */
static void end_unanswering(struct server *s)
{
	s->status = -TACET_EBUSY;
	tacet_process_end(s->process_slot);
}

/* The supervisor: server n's asking thread saw it hold its interrupt (own_held): its end, if
 * it is still the instance seen. Whether it ended it. */
static int own_held_noted(unsigned int n)
{
	struct server *s = &servers[n];
	unsigned long told = __atomic_load_n(&own_ended[n], __ATOMIC_ACQUIRE);

	if (s->state != SERVER_RUNNING || (told & 0xfffff) != (s->restarts & 0xffff) + 1ul)
		return 0;
	printf("init: server %s has held its interrupt unacknowledged for %lu ms (it answers "
	       "calls, but its device is not served); ending it\n", s->name, told >> 20);
	end_unanswering(s);
	return 1;
}

/* The supervisor: ALIVE_STUCK bits from the service thread (a client's INIT_STUCK), and
 * ALIVE_OWN_HELD bits from the asking threads. */
void liveness_noted(unsigned long bits)
{
	for (unsigned int n = 0; n < nservers && n < ALIVE_SERVERS_MAX; n++) {
		struct server *s = &servers[n];

		if ((bits & ALIVE_OWN_HELD(n)) && own_held_noted(n))
			continue; /* ended: a client's report of it too says nothing more */
		if (!(bits & ALIVE_STUCK(n)) || s->state != SERVER_RUNNING)
			continue;
		printf("init: a client of %s says it left a request unanswered; ending it\n", s->name);
		end_unanswering(s);
	}
}

/* Server n's question outstanding (its word w), if its server is still the instance asked and
 * still running, and it has not been ended for it: that server; else NULL. */
static struct server *asked(unsigned int n, unsigned long w)
{
	struct server *s = w && n < nservers ? &servers[n] : NULL;

	if (!s || s->state != SERVER_RUNNING || (s->restarts & 0xffff) != ASK_INSTANCE(w) ||
	    w == ended_ask[n])
		return NULL;
	return s;
}

/* Question w's limit, in ms: its server's `~MS`; ALIVE_START_TIMES of them for its start. */
static unsigned long limit_ms(unsigned long w, const struct server *s)
{
	return (w & ASK_START ? ALIVE_START_TIMES : 1) * (unsigned long)s->alive_ms;
}

/* When the supervisor looks at server n's question w next: at its limit, or where the last
 * look left it. */
static unsigned long look_time(unsigned int n, unsigned long w, const struct server *s)
{
	return waiting_ask[n] == w ? look_at[n] : ASK_AT(w) + ms_ticks(limit_ms(w, s));
}

/* The supervisor: when it must next look at a question outstanding (0: none is). */
unsigned long liveness_deadline(void)
{
	unsigned long soonest = 0;

	for (unsigned int n = 0; naskers && n < nservers && n < ALIVE_SERVERS_MAX; n++) {
		unsigned long w = __atomic_load_n(&asking[n], __ATOMIC_ACQUIRE), at;
		const struct server *s = asked(n, w);

		if (!s)
			continue;
		at = look_time(n, w, s);
		if (!soonest || at < soonest)
			soonest = at;
	}
	return soonest;
}

static const char *state_name(unsigned int state)
{
	static const char *const names[] = { "running", "ready", "in a send", "in a receive",
					     "in a call", "in a wait", "faulted", "ended" };

	return state < sizeof(names) / sizeof(names[0]) ? names[state] : "?";
}

/* The supervisor: server n's question w (asked of s), due: end s, or let the question wait. */
static void look(unsigned int n, unsigned long w, struct server *s, unsigned long now)
{
	struct tacet_process_info pi = { .state = TACET_THREAD_DEAD };
	struct alive_look l = { .elapsed = now - ASK_AT(w), .limit = ms_ticks(limit_ms(w, s)) };
	unsigned long again = 0, per_ms = ms_ticks(1);
	const char *start = w & ASK_START ? " (nothing published since its start)" : "";
	enum alive_verdict v;

	l.waited = waiting_ask[n] == w;
	if (l.waited) {
		l.preempted_then = looked_preempted[n];
		l.state_then = looked_state[n];
	} else {
		l.preempted_then = __atomic_load_n(&asked_preempted[n], __ATOMIC_RELAXED);
		l.state_then = __atomic_load_n(&asked_state[n], __ATOMIC_RELAXED);
	}
	if (__atomic_load_n(&asking[n], __ATOMIC_ACQUIRE) != w)
		return; /* answered meanwhile (asked_* may be the next question's) */
	tacet_process_info(s->process_slot, &pi);
	l.preempted_now = pi.preemptions;
	l.state_now = pi.state;
	v = alive_verdict(&l, &again);
	if (v == ALIVE_NOT_YET) {
		if (waiting_ask[n] != w)
			printf("init: server %s did not answer within %lu ms%s, but was kept from "
			       "running (%s): its question waits, up to %lu ms\n", s->name,
			       limit_ms(w, s), start, state_name(pi.state),
			       ALIVE_WAIT_TIMES * limit_ms(w, s));
		waiting_ask[n] = w;
		look_at[n] = ASK_AT(w) + again;
		looked_preempted[n] = pi.preemptions;
		looked_state[n] = pi.state;
		return;
	}
	if (__atomic_load_n(&held[n], __ATOMIC_RELAXED))
		start = " (it answers calls, but holds a shared line's interrupt unacknowledged: the "
			"line's other drivers wait for it)";
	printf("init: server %s has not answered for %lu ms%s%s; ending it\n", s->name,
	       l.elapsed / per_ms, start, v == ALIVE_END_RAN    ? ", though it ran"
				   : v == ALIVE_END_WAIT ? ", waiting in a wait all along"
							 : "");
	ended_ask[n] = w;
	end_unanswering(s);
}

/* The supervisor, at its timer: look at every question due (past its limit, or its wait's
 * next look). */
void liveness_check(void)
{
	unsigned long now = naskers ? tacet_time() : 0;

	for (unsigned int n = 0; naskers && n < nservers && n < ALIVE_SERVERS_MAX; n++) {
		unsigned long w = __atomic_load_n(&asking[n], __ATOMIC_ACQUIRE);
		struct server *s = asked(n, w);

		if (s && now >= look_time(n, w, s))
			look(n, w, s, now);
	}
}

/* The service thread: server id (a `~` entry) published the endpoint in slot: its asking
 * thread asks through a copy of it from now on. */
void liveness_published(unsigned int id, unsigned long slot)
{
	if (!servers[id].alive_ms || id >= ALIVE_SERVERS_MAX)
		return;
	__atomic_store_n(&alive_published[id], 0, __ATOMIC_RELEASE);
	tacet_cap_delete(ALIVE_FIRST_SLOT + id);
	if (!tacet_cap_copy(slot, ALIVE_FIRST_SLOT + id, TACET_RIGHT_WRITE, 0))
		__atomic_store_n(&alive_published[id], servers[id].restarts + 1ul, __ATOMIC_RELEASE);
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
	if (id < ALIVE_SERVERS_MAX)
		__atomic_store_n(&alive_published[id], 0, __ATOMIC_RELEASE);
	tacet_cap_delete(ALIVE_FIRST_SLOT + id);
}
