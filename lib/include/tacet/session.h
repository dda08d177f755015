/* session.h: a service's sessions, one a client badge (INIT_BADGE_CLIENTS: server number + 1,
 * 1..TACET_SESSIONS_MAX), each with state of a size the server chooses, ended when the client
 * closes it, opens another, or its process ends. Included by <tacet.h>; docs/drivers.md
 * (section 5) builds a service on it.
 *
 * A client opens its session with a capability to its own process without rights (it can only
 * be watched): the table watches the process on the service's notification with the badge's
 * bit, TACET_SESSION_BIT(badge), and keeps the capability so that the session's end ends the
 * watch (PROCESS_WATCH with badge 0). The service loop (tacet_service_run) hands the table the
 * notification's bits before anything else, so a client's end is taken before the next call
 * (a bit that comes for a badge with no session open, its session closed meanwhile, ends
 * nothing); `ended` runs once for every session that ends, however it ends, with its state
 * still there; the state is zeroed at the next open.
 * Not thread-safe: the service loop's thread uses it. */
#ifndef TACET_SESSION_H
#define TACET_SESSION_H

#include <stdint.h>

#define TACET_SESSIONS_MAX 32
/* The notification bit of badge b's watch: bits 2..33 (above the device kit's two). */
#define TACET_SESSION_BIT(badge) (1ul << (1 + (badge)))
#define TACET_SESSION_BITS       (((1ul << TACET_SESSIONS_MAX) - 1) << 2)

struct tacet_sessions {
	void *state;          /* TACET_SESSIONS_MAX * size bytes: badge b's at (b - 1) * size;
			       * NULL (size 0): the server keeps nothing a session */
	unsigned long size;
	/* the session of badge ends (state: its state); may be NULL */
	void (*ended)(struct tacet_sessions *t, unsigned long badge, void *state);
	unsigned long ntfn;   /* the watches' notification (the service's) */
	uint32_t open;        /* bit b - 1: badge b has a session */
	unsigned long process[TACET_SESSIONS_MAX]; /* the watched process's capability (0: none) */
};

/* An empty table: no session open. */
void tacet_sessions_init(struct tacet_sessions *t, void *state, unsigned long size,
			 void (*ended)(struct tacet_sessions *t, unsigned long badge, void *state),
			 unsigned long ntfn);
/* Open badge's session (ending the one it had), watching the process whose capability is in
 * slot `process` (a call's, s->recv: copied, the slot is left as it was). 0, or
 * -TACET_EPERM (a badge out of 1..TACET_SESSIONS_MAX, or not a process capability without
 * rights), -TACET_EBUSY (the process has four watchers), -TACET_EDEAD (it has ended),
 * -TACET_ENOMEM (no slot to keep the capability). A refused capability changes nothing; a
 * watch that fails leaves badge with no session (the one it had ended). */
long tacet_session_open(struct tacet_sessions *t, unsigned long badge, unsigned long process);
/* End badge's session: 0, or -TACET_EINVAL if none is open. */
long tacet_session_close(struct tacet_sessions *t, unsigned long badge);
/* Whether badge has a session open. */
int tacet_session_is_open(const struct tacet_sessions *t, unsigned long badge);
/* Badge's state if its session is open (and the table keeps state), else NULL. */
void *tacet_session_get(struct tacet_sessions *t, unsigned long badge);
/* Bits taken from the notification: the sessions whose process ended end. Returns the other
 * bits, for the device. */
unsigned long tacet_sessions_notified(struct tacet_sessions *t, unsigned long bits);

#endif
