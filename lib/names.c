/* names.c: the client side of init's name service (INIT_PUBLISH / INIT_LOOKUP, and
 * INIT_GRANT for a service's publisher), reconnecting to a server that was restarted, and
 * asking init to power off (INIT_POWEROFF). */
#include <string.h>
#include <tacet.h>
#include <tacet/init_proto.h>

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
	struct tacet_msg msg = { .tag = TACET_TAG_CAP(INIT_PUBLISH, TACET_NAME_WORDS + 1, slot) };
	long err = pack_name(name, msg.w);

	msg.w[TACET_NAME_WORDS] = how;
	if (!err)
		err = tacet_call(TACET_CHILD_INIT, &msg);
	return err ? err : (long)msg.w[0];
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
	struct tacet_msg msg;
	long err;

	do {
		msg.tag = TACET_TAG(INIT_LOOKUP, TACET_NAME_WORDS + 1);
		err = pack_name(name, msg.w);
		msg.w[TACET_NAME_WORDS] = dst;
		if (!err)
			err = tacet_call(TACET_CHILD_INIT, &msg);
		if (!err)
			err = (long)msg.w[0];
		if (!err)
			*instance = msg.w[1];
		if (err != -TACET_ENOENT || !tries)
			return err;
		pause_in(dst);
	} while (tries--);
	return err;
}

long tacet_reconnect(const char *name, unsigned long slot, unsigned int tries)
{
	unsigned long instance;

	return tacet_reconnect_instance(name, slot, tries, &instance);
}

long tacet_reconnect_instance(const char *name, unsigned long slot, unsigned int tries,
			      unsigned long *instance)
{
	tacet_cap_delete(slot); /* a capability to an endpoint that has ended */
	return tacet_lookup_instance(name, slot, tries, instance);
}

long tacet_poweroff(int status)
{
	struct tacet_msg msg = { .tag = TACET_TAG(INIT_POWEROFF, 1), .w = { (unsigned long)status } };
	long err = tacet_call(TACET_CHILD_INIT, &msg);

	return err ? err : (long)msg.w[0]; /* only a refusal is answered */
}

long tacet_grant(const char *service, unsigned long badge, char *arg, unsigned long size)
{
	struct tacet_msg msg = { .tag = TACET_TAG(INIT_GRANT, TACET_NAME_WORDS + 1) };
	long err = size > TACET_NAME_WORDS * sizeof(unsigned long) ? pack_name(service, &msg.w[1])
								   : -TACET_ERANGE;

	msg.w[0] = badge;
	if (!err)
		err = tacet_call(TACET_CHILD_INIT, &msg);
	if (!err)
		err = (long)msg.w[0];
	if (err)
		return err;
	memcpy(arg, &msg.w[1], TACET_NAME_WORDS * sizeof(unsigned long));
	arg[TACET_NAME_WORDS * sizeof(unsigned long)] = 0;
	return 0;
}
