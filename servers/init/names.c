/* names.c: init's name service: the names init.run= grants each server, what they publish, the
 * lookups and grants clients ask for (<tacet/init_proto.h>), and the refusals said when a server
 * asks for what it may not. The table is written by the supervisor until SERVICE_GO (the grants),
 * then by the service thread alone (service.c); no lock (supervisor.c says why). A request is
 * decoded by init_dispatch (generated from lib/proto/init.proto), which refuses one of the wrong
 * shape; each init_serve_* handler gets its words, and its caller's server from the badge.
 *
 * The authority init enforces (may_publish, may_power_off: the rule in one place):
 *  - Names. init.run= grants each server the names it may publish: `uart=console`, or without
 *    `=`, its module's name (rng: "rng"). At most NAMES_PER_SERVER a server, MAX_NAMES in all,
 *    each to one server: a second entry given a name is not started. The name table is made of
 *    the grants before any request is served, so a publish never needs room and no server can
 *    fill it. A publish of a name not granted to the publisher is refused (-TACET_EPERM), said
 *    once (refuse(): at most a line a second per server, the rest counted and said at its end).
 *    When a server ends, what it published is withdrawn (init's capability and slot freed;
 *    lookups: -TACET_ENOENT) and the name waits for its restarted instance: nobody else ever
 *    publishes it.
 *  - Power-off. Only a server whose entry starts with `^` (`^uart=console:ns16550a`) may ask
 *    for it (INIT_POWEROFF); anyone else's request is refused (-TACET_EPERM) and the machine
 *    runs on. A run whose servers have all finished for good powers off without asking.
 *  - Tracing. Only a server whose entry has `%` before its name (`^%uart=console`) is given
 *    the kernel's trace authority (init's TACET_SLOT_TRACE, at its TACET_CHILD_TRACE: loader.c):
 *    start, stop and read the event trace, and every interrupt line's timing. The kernel checks
 *    it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <tacet/init_server.h>
#include "init.h"

#define REFUSAL_QUIET_MS 1000    /* a server's refused requests are said at most this often */

unsigned long service_ep;
unsigned long service_ntfn;
unsigned int service_prio = SERVICE_PRIORITY;
long service_quit_status;

/* A name init.run= grants, and what its server published under it. */
struct published {
	unsigned long name[TACET_NAME_WORDS];
	unsigned long slot;    /* 0: not published (yet, or withdrawn: its server ended) */
	unsigned long how;     /* the rights a client gets, | INIT_BADGE_CLIENTS */
	unsigned int server;   /* the server it is granted to: only it may publish it */
	unsigned long instance; /* which start of that server published `slot` */
};

static struct published names[MAX_NAMES];
static unsigned int nnames;

/* The service thread's record of each server's refused requests (refuse()). */
struct refusals {
	unsigned long said_at; /* when the last was said (ticks) */
	unsigned long unsaid;  /* refused since, not said */
	int said;              /* one was said (since the server's last end) */
};

static struct refusals refusals[MAX_SERVERS];

/* The entry of names[] for the name in w (its words, as a message carries them), or NULL. */
static struct published *find_name(const unsigned long *w)
{
	for (unsigned int i = 0; i < nnames; i++)
		if (!memcmp(names[i].name, w, sizeof(names[i].name)))
			return &names[i];
	return NULL;
}

/* Grant `name` to server id: a new entry of names[], not published yet. 0, or a negative code
 * after saying why: too long, another server's already, or no room. The module's own name, the
 * grant of an entry without `=` (implicit), is only skipped where another has it. */
static long grant(unsigned int id, const char *name, int implicit)
{
	const char *who = servers[id].name;
	unsigned long w[TACET_NAME_WORDS] = { 0 };
	struct published *n;

	if (strlen(name) >= NAME_BYTES) {
		if (implicit)
			return 0;
		printf("init: %s: the name \"%s\" is longer than %lu bytes; not starting %s\n", who,
		       name, NAME_BYTES - 1, who);
		return -TACET_ERANGE;
	}
	memcpy(w, name, strlen(name));
	n = find_name(w);
	if (n && (n->server == id || implicit))
		return 0; /* named twice; or a module started twice, whose first entry has its name */
	if (n) {
		printf("init: %s: the name \"%s\" is granted to %s; not starting %s\n", who, name,
		       servers[n->server].name, who);
		return -TACET_EBUSY;
	}
	if (nnames == MAX_NAMES) {
		printf("init: %s: no room for the name \"%s\" (%u names in all)%s\n", who, name,
		       MAX_NAMES, implicit ? "" : "; not starting it");
		return implicit ? 0 : -TACET_ENOMEM;
	}
	names[nnames] = (struct published){ .server = id };
	memcpy(names[nnames++].name, w, sizeof(w));
	return 0;
}

/* The names server id may publish, into names[] (before SERVICE_GO): its entry's `=name+name...`
 * (up to NAMES_PER_SERVER; `=` alone: none), or without `=` its module's name. 0, or a negative
 * code after saying why: the server is then not started (release_names). */
long grant_names(unsigned int id)
{
	const char *spec = servers[id].names;
	unsigned int count = 0;
	long err = 0;

	if (*spec++ != '=')
		return grant(id, servers[id].name, 1);
	while (!err && *spec) {
		char name[NAME_BYTES + 1] = { 0 };
		unsigned int len = 0;

		for (; *spec && *spec != '+'; spec++)
			if (len < NAME_BYTES)
				name[len++] = *spec; /* past NAME_BYTES - 1: too long, grant() says */
		spec += *spec == '+';
		if (len && ++count > NAMES_PER_SERVER) {
			printf("init: %s: more than %u names; not starting %s\n", servers[id].name,
			       NAMES_PER_SERVER, servers[id].name);
			return -TACET_ERANGE;
		}
		if (len)
			err = grant(id, name, 0);
	}
	return err;
}

/* Server id could not start: the names granted to it are free for another entry. */
void release_names(unsigned int id)
{
	unsigned int kept = 0;

	for (unsigned int i = 0; i < nnames; i++)
		if (names[i].server != id)
			names[kept++] = names[i];
	nnames = kept;
}

/* The rule, in one place: may server s publish under the name whose entry is n (NULL: a name
 * init.run= grants nobody)? Only the server it is granted to, any instance of it. */
static int may_publish(const struct server *s, const struct published *n)
{
	return n && n->server == (unsigned int)(s - servers);
}

/* ...and may server s power the machine off? Only if its init.run= entry starts with `^`. */
static int may_power_off(const struct server *s)
{
	return s->power_off;
}

/* Server s asked for what it may not (`what`, formatted): refused, and said, but at most once in
 * REFUSAL_QUIET_MS for each server (a hostile one may ask in a loop); the refusals in between
 * are counted, and said with the next line or at the server's end (refusals_end). */
static void refuse(const struct server *s, const char *fmt, ...)
{
	struct refusals *r = &refusals[s - servers];
	unsigned long now = tacet_time();
	char what[128], more[48] = "";
	va_list ap;

	if (r->said && now - r->said_at < tacet_ns_to_ticks(REFUSAL_QUIET_MS * NS_PER_MS)) {
		r->unsaid++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (r->unsaid)
		snprintf(more, sizeof(more), " (and %lu more refused since)", r->unsaid);
	say("init: refused: %s may not %s%s\n", s->name, what, more);
	*r = (struct refusals){ .said_at = now, .said = 1 };
}

/* Server id has ended: the refusals not said yet are, and its next instance's first is said. */
static void refusals_end(unsigned int id)
{
	if (refusals[id].unsaid)
		say("init: refused: %lu more requests of %s, not said one by one\n",
		    refusals[id].unsaid, servers[id].name);
	refusals[id] = (struct refusals){ 0 };
}

/* The name in a message's words, printable (a hostile server chooses the bytes), into text. */
static const char *name_text(const unsigned long *w, char text[NAME_BYTES + 1])
{
	const char *c = (const char *)w;
	unsigned int i;

	for (i = 0; i < NAME_BYTES && c[i]; i++)
		text[i] = c[i] >= ' ' && c[i] <= '~' && c[i] != '"' ? c[i] : '?';
	text[i] = 0;
	return text;
}

/* The server a call came from (its endpoint's badge: its number + 1), or NULL: unbadged, init's
 * supervisor. */
static struct server *caller(const struct tacet_service *svc)
{
	return svc->badge && svc->badge <= nservers ? &servers[svc->badge - 1] : NULL;
}

/* INIT_EXIT: the status the supervisor reads after the instance's end. */
long init_serve_exit(struct tacet_service *svc, uint64_t status)
{
	struct server *s = caller(svc);

	if (s) {
		s->status = (long)status;
		say("init: server %s finished with status %ld\n", s->name, s->status);
	}
	return 0;
}

/* What a publisher may let its clients have: calling and sending capabilities, never
 * receiving (READ); optionally a badge per client (then what must be unbadged). The name is its
 * own (may_publish), and published once at a time (n: its entry). */
static long publish_check(unsigned long how, unsigned long what, const struct published *n)
{
	unsigned long badge = 0;

	if (how & ~(TACET_RIGHT_WRITE | TACET_RIGHT_GRANT | INIT_BADGE_CLIENTS))
		return -TACET_EINVAL;
	if ((how & INIT_BADGE_CLIENTS) && (tacet_cap_info(what, NULL, &badge) < 0 || badge))
		return -TACET_EINVAL;
	return n->slot ? -TACET_EEXIST : 0;
}

/* INIT_PUBLISH: what, the capability that came with it, kept under the name (the service loop
 * deletes it unless taken). */
long init_serve_publish(struct tacet_service *svc, uint64_t name0, uint64_t name1, uint64_t name2,
			uint64_t how, unsigned long what)
{
	const unsigned long w[TACET_NAME_WORDS] = { name0, name1, name2 };
	struct server *s = caller(svc);
	struct published *n = find_name(w);
	char text[NAME_BYTES + 1];
	long err = -TACET_EPERM;

	if (s && !may_publish(s, n))
		refuse(s, "publish \"%s\" (init.run= grants it to %s)", name_text(w, text),
		       n ? servers[n->server].name : "no server");
	else if (s)
		err = publish_check(how, what, n);
	if (!err)
		err = tacet_service_take_cap(svc);
	if (err < 0)
		return err;
	n->how = how;
	n->slot = (unsigned long)err;
	n->instance = s ? s->restarts : 0; /* the caller is blocked in this call: it lives */
	if (s)
		liveness_published((unsigned int)(s - servers), n->slot);
	return 0;
}

/* Server id has ended: what it published is withdrawn (its endpoints ended with it), the names
 * kept for it: a restarted instance publishes its own under them, and nobody else may. */
static void withdraw_names(unsigned int id)
{
	liveness_withdrawn(id);
	for (unsigned int i = 0; i < nnames; i++) {
		if (names[i].server != id || !names[i].slot)
			continue;
		tacet_slot_free(names[i].slot);
		names[i].slot = 0;
	}
}

/* INIT_LOOKUP: a copy with the rights the publisher chose, into the caller's slot dst, badged
 * with the caller's number + 1 if it asked for that (minted in a slot of init's, then given). */
long init_serve_lookup(struct tacet_service *svc, uint64_t name0, uint64_t name1, uint64_t name2,
		       uint64_t dst, uint64_t *instance)
{
	const unsigned long w[TACET_NAME_WORDS] = { name0, name1, name2 };
	struct server *s = caller(svc);
	struct published *n = find_name(w);
	unsigned long rights;
	long mint, err;

	if (!s)
		return -TACET_EPERM;
	if (!n || !n->slot)
		return -TACET_ENOENT; /* not yet, or its server is being restarted */
	/* the publisher's start, as it published: its server's count now may be a later start's,
	 * when the supervisor restarted it before this thread withdrew the ended one's names (a
	 * reply to a lookup taken before the end was signalled) */
	*instance = n->instance;
	rights = n->how & (TACET_RIGHT_WRITE | TACET_RIGHT_GRANT);
	if (!(n->how & INIT_BADGE_CLIENTS))
		return tacet_cap_give(s->process_slot, n->slot, dst, rights);
	mint = tacet_slot_alloc();
	if (mint < 0)
		return mint;
	err = tacet_cap_copy(n->slot, (unsigned long)mint, rights, (unsigned long)(s - servers) + 1);
	if (!err)
		err = tacet_cap_give(s->process_slot, (unsigned long)mint, dst, rights);
	tacet_slot_free((unsigned long)mint);
	return err;
}

/* INIT_GRANT: what the entry of server badge - 1 grants for the service the caller published
 * under the name (`name=arg` among its grants), into arg (NUL-padded). Only that name's
 * publisher may ask, while it serves: a grant says what a client may do, which is the service's
 * business alone. Read after SERVICE_GO: grants are never written after that. */
long init_serve_grant(struct tacet_service *svc, uint64_t badge, uint64_t name0, uint64_t name1,
		      uint64_t name2, uint64_t *arg0, uint64_t *arg1, uint64_t *arg2)
{
	const unsigned long w[TACET_NAME_WORDS] = { name0, name1, name2 };
	struct server *s = caller(svc);
	struct published *n = find_name(w);
	unsigned long arg[TACET_NAME_WORDS] = { 0 };
	char name[NAME_BYTES + 1] = { 0 };
	const char *g;
	size_t len;

	if (!s || !n || !n->slot || n->server != (unsigned int)(s - servers))
		return -TACET_EPERM;
	if (!badge || badge > nservers)
		return -TACET_EINVAL;
	if (servers[badge - 1].grants_cut)
		return -TACET_ERANGE; /* a grant cut short could say less, or more, than it meant */
	memcpy(name, w, NAME_BYTES);
	len = strlen(name);
	for (g = servers[badge - 1].grants; *g; g += strcspn(g, ";"), g += *g == ';')
		if (!strncmp(g, name, len) && g[len] == '=')
			break;
	if (!*g)
		return -TACET_ENOENT;
	g += len + 1;
	len = strcspn(g, ";");
	if (len >= NAME_BYTES)
		return -TACET_ERANGE;
	memcpy(arg, g, len);
	*arg0 = arg[0], *arg1 = arg[1], *arg2 = arg[2];
	return 0;
}

/* INIT_STUCK: a client's word that the service's instance left its request unanswered
 * (liveness.c decides). */
long init_serve_stuck(struct tacet_service *svc, uint64_t name0, uint64_t name1, uint64_t name2,
		      uint64_t instance)
{
	const unsigned long w[TACET_NAME_WORDS] = { name0, name1, name2 };
	struct server *s = caller(svc);
	struct published *n = find_name(w);
	char name[NAME_BYTES + 1] = { 0 };

	if (!s)
		return -TACET_EPERM;
	if (!n || !n->slot)
		return -TACET_ENOENT;
	memcpy(name, w, NAME_BYTES);
	return liveness_stuck(s, n->server, name, instance);
}

/* INIT_POWEROFF: the supervisor's to do, if the caller may ask: it preempts this thread at the
 * signal, and the caller gets no reply. */
long init_serve_poweroff(struct tacet_service *svc, uint64_t status)
{
	struct server *s = caller(svc);

	if (!s || !may_power_off(s)) {
		if (s)
			refuse(s, "power the machine off (its init.run= entry has no %c)",
			       POWER_OFF_MARK);
		return -TACET_EPERM;
	}
	say("init: power off requested by %s\n", s->name);
	svc->no_reply = 1;
	tacet_signal(exits_slot, POWEROFF_ASKED | (status ? POWEROFF_FAILED : 0));
	return 0;
}

/* INIT_SERVICE_SYNC: the supervisor's alone; answered after every end signalled before it
 * (the notification's bits come before a queued call). */
long init_serve_sync(struct tacet_service *svc)
{
	return svc->badge ? -TACET_EINVAL : 0;
}

/* Server id has ended (the service thread, told by the supervisor): its names withdrawn, its
 * refusals said. */
void names_ended(unsigned int id)
{
	withdraw_names(id);
	refusals_end(id);
}
