/* session.c: a service's session table (<tacet/session.h>): open, close, a client's death,
 * and the watch that tells of it. Not thread-safe: the service loop's thread calls it. */
#include <string.h>
#include <tacet.h>

void tacet_sessions_init(struct tacet_sessions *t, void *state, unsigned long size,
			 void (*ended)(struct tacet_sessions *t, unsigned long badge, void *state),
			 unsigned long ntfn)
{
	*t = (struct tacet_sessions){ .state = state, .size = size, .ended = ended, .ntfn = ntfn };
}

static void *state_of(struct tacet_sessions *t, unsigned long badge)
{
	return t->state ? (char *)t->state + (badge - 1) * t->size : NULL;
}

/* Badge's session ends: the server's callback, then its watch (PROCESS_WATCH with badge 0, which
 * the kernel takes whether the watch is still there or has fired) and the capability kept for
 * it. */
static void end(struct tacet_sessions *t, unsigned long badge)
{
	t->open &= ~(1u << (badge - 1));
	if (t->ended)
		t->ended(t, badge, state_of(t, badge));
	tacet_process_watch(t->process[badge - 1], t->ntfn, 0);
	tacet_slot_free(t->process[badge - 1]);
	t->process[badge - 1] = 0;
}

/* Watch the process in slot `process` for badge, through a copy kept for the unwatch. */
static long watch(struct tacet_sessions *t, unsigned long badge, unsigned long process)
{
	long slot = tacet_slot_alloc(), err;

	if (slot < 0)
		return -TACET_ENOMEM;
	err = tacet_cap_copy(process, (unsigned long)slot, 0, 0);
	if (!err)
		err = tacet_process_watch((unsigned long)slot, t->ntfn, TACET_SESSION_BIT(badge));
	if (err) {
		tacet_slot_free((unsigned long)slot);
		return err;
	}
	t->process[badge - 1] = (unsigned long)slot;
	return 0;
}

long tacet_session_open(struct tacet_sessions *t, unsigned long badge, unsigned long process)
{
	unsigned long rights = 1;
	long err;

	if (badge - 1 >= TACET_SESSIONS_MAX ||
	    tacet_cap_info(process, &rights, NULL) != TACET_CAP_PROCESS || rights)
		return -TACET_EPERM; /* only a capability that can be watched and nothing more */
	if (t->open & (1u << (badge - 1)))
		end(t, badge);
	err = watch(t, badge, process);
	if (err)
		return err;
	if (t->state)
		memset(state_of(t, badge), 0, t->size);
	t->open |= 1u << (badge - 1);
	return 0;
}

long tacet_session_close(struct tacet_sessions *t, unsigned long badge)
{
	if (badge - 1 >= TACET_SESSIONS_MAX || !(t->open & (1u << (badge - 1))))
		return -TACET_EINVAL;
	end(t, badge);
	return 0;
}

int tacet_session_is_open(const struct tacet_sessions *t, unsigned long badge)
{
	return badge - 1 < TACET_SESSIONS_MAX && (t->open & (1u << (badge - 1)));
}

void *tacet_session_get(struct tacet_sessions *t, unsigned long badge)
{
	return tacet_session_is_open(t, badge) ? state_of(t, badge) : NULL;
}

unsigned long tacet_sessions_notified(struct tacet_sessions *t, unsigned long bits)
{
	for (unsigned long b = 1; b <= TACET_SESSIONS_MAX && (bits & TACET_SESSION_BITS); b++) {
		if (!(bits & TACET_SESSION_BIT(b)))
			continue;
		bits &= ~TACET_SESSION_BIT(b);
		if (t->open & (1u << (b - 1)))
			end(t, b);
	}
	return bits;
}
