/* session.c: the net server's sessions (lib's <tacet/session.h> table is the kit's; this is
 * net's record of each, struct session): the capability slots clients give (lib's pool,
 * counted for NET_USAGE) and a session's end: stopped when its rings lie, detached when it
 * gives and takes nothing more, freed (its areas unpinned, its rings unmapped) once the device
 * holds none of its buffers. Which session is the receiver is the data path's (pass.c).
 *
 * Locking (net.h): every function here runs with the lock held, but ended (the main thread's,
 * which takes it) and slot_copy/slot_free (lib's slot pool: the main thread's alone).
 * session_stop is any thread's (a pass that finds a lie); what follows it, the detach and the
 * free, is the main thread's (sweep, from its pass and NET_USAGE). Callers: net.c (the calls),
 * pass.c (the passes), lib's session table (ended). */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "net.h"

struct session sessions[MAX_SESSIONS];
struct session *clients[MAX_CLIENTS]; /* only the main thread writes it */
int sweep_due;
uint64_t stopped;
unsigned int client_slots;

/* --- capability slots for what clients give: lib's pool, counted (NET_USAGE) ------------- */

long slot_copy(unsigned long from, unsigned long rights, unsigned long *into)
{
	long slot = tacet_slot_alloc(), err;

	if (slot < 0)
		return -TACET_ENOMEM;
	err = tacet_cap_copy(from, (unsigned long)slot, rights, 0);
	if (err) {
		tacet_slot_free((unsigned long)slot);
		return err;
	}
	client_slots++;
	*into = (unsigned long)slot;
	return 0;
}

void slot_free(unsigned long *slot)
{
	if (!*slot)
		return;
	client_slots--;
	tacet_slot_free(*slot);
	*slot = 0;
}

/* --- sessions -------------------------------------------------------------------------------- */

void area_free(struct area *a)
{
	if (a->slot)
		tacet_frame_unpin(a->slot, dev.frame_slot);
	slot_free(&a->slot);
	*a = (struct area){ 0 };
}

void rings_unmap(struct session *s)
{
	if (s->rings_va) {
		tacet_unmap(TACET_CHILD_SELF, s->rings_va, s->rings_pages);
		tacet_va_free(s->rings_va, s->rings_pages);
	}
	s->rings_va = 0;
	slot_free(&s->rings_slot);
}

/* No client any more and nothing at the device: everything back. */
static void session_free(struct session *s)
{
	area_free(&s->rx);
	area_free(&s->tx);
	rings_unmap(s);
	slot_free(&s->ntfn);
	*s = (struct session){ 0 };
}

/* s gives nothing more and takes nothing more (ended or stopped): the receive buffers the
 * device holds for it come back soon, by a reset (the device gives no buffer back otherwise
 * until a frame fills it, which may be never); the transmit ones as the device sends them. */
static void session_detach(struct session *s, int was_receiver)
{
	slot_free(&s->ntfn);
	if (was_receiver && s->at_rx)
		reset_soon("its receiving session ended");
	if (!s->open && !s->at_rx && !s->at_tx)
		session_free(s);
}

/* Badge's session ended (lib's table: its process ended, NET_CLOSE, or a new NET_OPEN). The
 * main thread's, without the lock. */
void ended(struct tacet_sessions *t, unsigned long badge, void *state)
{
	struct session *s = clients[badge - 1]; /* only the main thread writes clients[] */
	int was_receiver;

	(void)t, (void)state;
	if (!s)
		return;
	lock();
	was_receiver = receiver() == s;
	clients[badge - 1] = NULL;
	s->open = 0;
	session_detach(s, was_receiver);
	unlock();
}

/* s lied in its rings (why): stopped, counted once; the client closes or opens again. Any
 * thread, the lock held: the detach is the main thread's (sweep). */
void session_stop(struct session *s, const char *why)
{
	int was_receiver = receiver() == s;

	if (s->stopped)
		return;
	printf("net: %s: stopping the session of badge %lu: %s\n", tacet_service_name(), s->badge,
	       why);
	s->stopped = 1;
	stopped++;
	s->detach_due = 1 + was_receiver;
	sweep_due = 1;
}

/* The main thread's, the lock held: stopped sessions detached, ended ones the device holds
 * nothing of any more freed. */
void sweep(void)
{
	sweep_due = 0;
	for (unsigned int i = 0; i < MAX_SESSIONS; i++) {
		struct session *s = &sessions[i];
		int due = s->detach_due;

		if (!s->badge)
			continue;
		s->detach_due = 0;
		if (due)
			session_detach(s, due > 1);
		else if (!s->open && !s->at_rx && !s->at_tx)
			session_free(s);
	}
}
