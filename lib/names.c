/* names.c: the client side of init's name service (INIT_PUBLISH / INIT_LOOKUP, and
 * INIT_GRANT for a service's publisher), reconnecting to a server that was restarted, and
 * asking init to power off (INIT_POWEROFF): names packed into words, then the stubs generated
 * from lib/proto/init.proto. */
#include <string.h>
#include <tacet.h>
#include <tacet/init_client.h>

#define LOOKUP_PAUSE_NS 1000000ull /* between tries: 1 ms */

static long pack_name(const char *name, unsigned long *w)
{
	size_t len = strlen(name);

	if (len >= TACET_NAME_WORDS * sizeof(unsigned long))
		return -TACET_ERANGE;
	memset(w, 0, TACET_NAME_WORDS * sizeof(unsigned long));
	memcpy(w, name, len);
	return 0;
}

long tacet_publish(const char *name, unsigned long slot, unsigned long how)
{
	unsigned long w[TACET_NAME_WORDS];
	long err = pack_name(name, w);

	return err ? err : init_call_publish(TACET_CHILD_INIT, w[0], w[1], w[2], how, slot);
}

/* Sleep a little on a notification made in slot (empty, and left empty): a yield would keep
 * the hart busy, and a busy hart can starve the one that is about to publish (under -icount QEMU
 * runs the harts in turn, and a hart runs until it waits). */
static void pause_in(unsigned long slot)
{
	if (tacet_ntfn_new(slot))
		return (void)tacet_yield();
	if (!tacet_timer_set(slot, 1, tacet_time() + tacet_ns_to_ticks(LOOKUP_PAUSE_NS)))
		tacet_wait(slot);
	tacet_cap_delete(slot);
}

long tacet_lookup(const char *name, unsigned long dst, unsigned int tries)
{
	unsigned long instance;

	return tacet_lookup_instance(name, dst, tries, &instance);
}

long tacet_lookup_instance(const char *name, unsigned long dst, unsigned int tries,
			   unsigned long *instance)
{
	unsigned long w[TACET_NAME_WORDS];
	uint64_t got;
	long err;

	do {
		err = pack_name(name, w);
		if (!err)
			err = init_call_lookup(TACET_CHILD_INIT, w[0], w[1], w[2], dst, &got);
		if (!err)
			*instance = got;
		if (err != -TACET_ENOENT || !tries)
			return err;
		pause_in(dst);
	} while (tries--);
	return err;
}

long tacet_reconnect(const char *name, unsigned long slot, unsigned int tries)
{
	unsigned long instance = 0;

	return tacet_reconnect_instance(name, slot, tries, &instance);
}

/* The lookup goes into a slot of the caller's pool, and only an endpoint found replaces the one
 * in slot: a lookup that finds none (the next instance hung in its set-up, say) leaves the
 * ended endpoint there, whose every call says -TACET_EDEAD, so the client's next call reconnects
 * again. (Emptied first, as it once was, every later call said -TACET_EEMPTY, which no client
 * takes for the service's end: it never reached the service again.) */
long tacet_reconnect_instance(const char *name, unsigned long slot, unsigned int tries,
			      unsigned long *instance)
{
	long found = tacet_slot_alloc(), err = found < 0 ? found : 0;
	unsigned long got = *instance;

	if (!err)
		err = tacet_lookup_instance(name, (unsigned long)found, tries, &got);
	if (!err) {
		tacet_cap_delete(slot); /* a capability to an endpoint that has ended */
		err = tacet_cap_copy((unsigned long)found, slot, TACET_RIGHTS_ALL, 0);
	}
	if (!err)
		*instance = got;
	if (found >= 0)
		tacet_slot_free((unsigned long)found);
	return err;
}

/* Has the endpoint in slot ended (its server with it)? A watch on it says so at once
 * (ENDPOINT_WATCH: -TACET_EDEAD), through a notification made for the question. */
static int endpoint_ended(unsigned long slot)
{
	long ntfn = tacet_slot_alloc(), err = ntfn < 0 ? ntfn : tacet_ntfn_new((unsigned long)ntfn);

	if (!err)
		err = tacet_endpoint_watch(slot, (unsigned long)ntfn, 1);
	if (!err)
		tacet_endpoint_watch(slot, (unsigned long)ntfn, 0);
	if (ntfn >= 0)
		tacet_slot_free((unsigned long)ntfn);
	return err == -TACET_EDEAD || err == -TACET_EEMPTY;
}

long tacet_reconnect_next(const char *name, unsigned long slot, unsigned int tries,
			  unsigned long *instance)
{
	unsigned long was = *instance;

	if (!endpoint_ended(slot))
		return 0; /* the server lives: -TACET_EDEAD was its own answer, not its end */

	do {
		long err = tacet_reconnect_instance(name, slot, tries, instance);

		if (err || *instance != was)
			return err;
		tacet_sleep_ns(LOOKUP_PAUSE_NS);
	} while (tries--);
	return -TACET_EDEAD;
}

long tacet_report_stuck(const char *name, unsigned long instance)
{
	unsigned long w[TACET_NAME_WORDS];
	long err = pack_name(name, w);

	return err ? err : init_call_stuck(TACET_CHILD_INIT, w[0], w[1], w[2], instance);
}

long tacet_poweroff(int status)
{
	/* only a refusal is answered */
	return init_call_poweroff(TACET_CHILD_INIT, (unsigned long)status);
}

long tacet_grant(const char *service, unsigned long badge, char *arg, unsigned long size)
{
	unsigned long w[TACET_NAME_WORDS];
	uint64_t got[TACET_NAME_WORDS];
	long err = size > sizeof(w) ? pack_name(service, w) : -TACET_ERANGE;

	if (!err)
		err = init_call_grant(TACET_CHILD_INIT, badge, w[0], w[1], w[2], &got[0], &got[1],
				      &got[2]);
	if (err)
		return err;
	memcpy(arg, got, sizeof(got));
	arg[TACET_NAME_WORDS * sizeof(unsigned long)] = 0;
	return 0;
}
