/* service.c: a server's IPC side in one loop (<tacet/service.h>): the clients' calls and, through
 * the device's notification bound to the thread, its interrupts and its clients' ends (the
 * session table's watches, <tacet/session.h>); or, for a service without a device, a
 * notification of its own bound to the thread. Not thread-safe: one loop per thread, and a
 * thread that runs it beside another using the kit takes its slots from a pool of its own
 * (tacet_slot_pool_use: init's service thread). */
#include <stddef.h>
#include <tacet.h>

long tacet_service_open(struct tacet_service *s, const char *name, unsigned long how,
			struct tacet_device *dev)
{
	long ep = tacet_slot_alloc(), recv = tacet_slot_alloc(), err = ep < 0 ? ep : recv;

	if (err >= 0)
		err = tacet_endpoint_new((unsigned long)ep);
	if (!err && dev)
		err = tacet_ntfn_bind(dev->ntfn_slot);
	if (!err)
		err = tacet_publish(name, (unsigned long)ep, how);
	if (err) {
		if (ep >= 0)
			tacet_slot_free((unsigned long)ep);
		if (recv >= 0)
			tacet_slot_free((unsigned long)recv);
		return err;
	}
	*s = (struct tacet_service){ .ep = (unsigned long)ep, .recv = (unsigned long)recv, .dev = dev };
	return 0;
}

long tacet_service_sessions(struct tacet_service *s, struct tacet_sessions *t, void *state,
			    unsigned long size,
			    void (*ended)(struct tacet_sessions *t, unsigned long badge, void *state))
{
	if (!s->dev)
		return -TACET_EINVAL; /* the watches signal the device's notification */
	tacet_sessions_init(t, state, size, ended, s->dev->ntfn_slot);
	s->sessions = t;
	return 0;
}

long tacet_service_take_cap(struct tacet_service *s)
{
	long fresh;
	unsigned long taken = s->recv;

	if (!s->cap_came)
		return -TACET_EINVAL;
	fresh = tacet_slot_alloc();
	if (fresh < 0)
		return fresh;
	s->recv = (unsigned long)fresh;
	s->cap_came = 0;
	return (long)taken;
}

/* The NOTIFY message's bits: the sessions' first (their clients' ends), then every event the
 * rest make, one at a time. */
static void notified(struct tacet_service *s, unsigned long bits)
{
	if (s->sessions && bits)
		bits = tacet_sessions_notified(s->sessions, bits);
	if (!s->dev) {
		if (bits && s->notified)
			s->notified(s, bits);
		return;
	}
	for (long ev = tacet_device_notified(s->dev, bits); ev; ev = tacet_device_notified(s->dev, 0))
		if (s->event)
			s->event(s->dev, ev);
}

int tacet_service_drain(struct tacet_service *s)
{
	long bits = s->dev ? tacet_poll(s->dev->ntfn_slot) : 0;

	notified(s, bits > 0 ? (unsigned long)bits : 0);
	return bits > 0;
}

long tacet_service_irq_info(struct tacet_service *s, struct tacet_irq_info *info)
{
	long err;

	do {
		while (tacet_service_drain(s))
			;
		err = tacet_info(TACET_INFO_IRQ, s->dev->irq, info, sizeof(*info));
	} while (tacet_service_drain(s)); /* one that came while we looked: again */
	return err;
}

long tacet_service_run(struct tacet_service *s,
		       void (*call)(struct tacet_service *s, const struct tacet_msg *msg,
				    struct tacet_msg *reply),
		       void (*event)(struct tacet_device *dev, long ev))
{
	struct tacet_msg msg, reply;
	long err = tacet_recv(s->ep, s->recv, &msg, &s->badge);

	s->event = event;
	while (!err) {
		if (TACET_TAG_LABEL(msg.tag) == TACET_LABEL_NOTIFY) {
			notified(s, msg.w[0]);
			err = tacet_recv(s->ep, s->recv, &msg, &s->badge); /* nobody to reply to */
			continue;
		}
		reply = (struct tacet_msg){ .tag = TACET_TAG(0, 1) };
		s->cap_came = TACET_TAG_HAS_CAP(msg.tag);
		if (TACET_TAG_LABEL(msg.tag) != TACET_LABEL_ALIVE)
			call(s, &msg, &reply);
		if (s->cap_came) /* what came with it, unless the handler took it */
			tacet_cap_delete(s->recv);
		notified(s, 0); /* what a handler's tacet_device_wait left: events, an ack */
		err = s->no_reply ? tacet_recv(s->ep, s->recv, &msg, &s->badge)
				  : tacet_reply_recv(s->ep, &reply, s->recv, &msg, &s->badge);
		s->no_reply = 0;
		if (s->reply_slot) /* the caller has its copy */
			tacet_slot_free(s->reply_slot);
		s->reply_slot = 0;
	}
	return err;
}

long tacet_service_reply_slot(struct tacet_service *s)
{
	long slot = s->reply_slot ? (long)s->reply_slot : tacet_slot_alloc();

	if (slot > 0)
		s->reply_slot = (unsigned long)slot;
	return slot;
}
