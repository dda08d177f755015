/* service.c: a server's IPC side in one loop (<tacet/driver.h>): the clients' calls and, through
 * the device's notification bound to the thread, its interrupts. Not thread-safe: one loop per
 * thread, and the kit is used from one thread at a time. */
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

long tacet_service_take_cap(struct tacet_service *s, const struct tacet_msg *msg)
{
	long fresh;
	unsigned long taken = s->recv;

	if (!TACET_TAG_HAS_CAP(msg->tag))
		return -TACET_EINVAL;
	fresh = tacet_slot_alloc();
	if (fresh < 0)
		return fresh;
	s->recv = (unsigned long)fresh;
	return (long)taken;
}

/* Every event the NOTIFY message's bits make, one at a time. */
static void notified(struct tacet_service *s, unsigned long bits,
		     void (*event)(struct tacet_device *dev, long ev))
{
	if (!s->dev)
		return;
	for (long ev = tacet_device_notified(s->dev, bits); ev; ev = tacet_device_notified(s->dev, 0))
		if (event)
			event(s->dev, ev);
}

long tacet_service_run(struct tacet_service *s,
		       void (*call)(struct tacet_service *s, const struct tacet_msg *msg,
				    struct tacet_msg *reply),
		       void (*event)(struct tacet_device *dev, long ev))
{
	struct tacet_msg msg, reply;
	long err = tacet_recv(s->ep, s->recv, &msg, &s->badge);

	while (!err) {
		if (TACET_TAG_LABEL(msg.tag) == TACET_LABEL_NOTIFY) {
			notified(s, msg.w[0], event);
			err = tacet_recv(s->ep, s->recv, &msg, &s->badge); /* nobody to reply to */
			continue;
		}
		reply = (struct tacet_msg){ .tag = TACET_TAG(0, 1) };
		call(s, &msg, &reply);
		if (TACET_TAG_HAS_CAP(msg.tag)) /* what came with it, unless the handler took it */
			tacet_cap_delete(s->recv);
		notified(s, 0, event); /* what a handler's tacet_device_wait left: events, an ack */
		err = tacet_reply_recv(s->ep, &reply, s->recv, &msg, &s->badge);
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
