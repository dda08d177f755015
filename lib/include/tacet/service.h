/* service.h: a server's IPC side, part of the driver kit (<tacet/driver.h>, lib/service.c):
 * the service loop, and the session table it feeds (<tacet/session.h>). Host-compilable (no
 * system call inline here), so that the host tests build the generated dispatch against it. */
#ifndef TACET_SERVICE_H
#define TACET_SERVICE_H

#include <tacet/msg.h>
#include <tacet/session.h>

struct tacet_device;

/*
 * A server's IPC side: an endpoint published with init's name service, and one loop that
 * receives both the clients' calls and the device's events (the device's notification is
 * bound to the thread, so its bits arrive as TACET_LABEL_NOTIFY messages; the loop hands them
 * to tacet_device_notified and calls `event` for each event it returns).
 * Call handlers get the service (s->badge: the caller's badge; with INIT_BADGE_CLIENTS it says
 * which client), the message and a reply already set to one word, 0; they fill in the reply. A
 * capability that came with a call lands in s->recv; the loop deletes it after the handler
 * unless the handler took it with tacet_service_take_cap. A reply carries one of the server's
 * capabilities with TACET_TAG_CAP(label, words, slot) as its tag (the caller gets a copy); one
 * made for this caller alone goes in tacet_service_reply_slot. The loop replies before it
 * receives again, so a handler must not block for long: everything else waits meanwhile (its
 * interrupts too). A handler may wait for the device itself (tacet_device_wait); after it, the
 * loop makes any ack still owed and hands `event` whatever events the waits left.
 * A handler whose caller must get no reply at all (init's granted power-off) sets s->no_reply.
 * A service without a device may bind a notification of its own to the thread: its bits go to
 * s->notified (after the session table's, if any).
 * A server that the console server calls (the shell's commands) must not print through the
 * console from its handlers: the console is blocked in that call, and the two would deadlock. */
struct tacet_service {
	unsigned long ep;        /* the endpoint (a lib slot) */
	unsigned long recv;      /* where a call's capability lands (a lib slot) */
	struct tacet_device *dev; /* whose events come into the loop; NULL: none */
	unsigned long badge;     /* the badge of the call being handled */
	unsigned long reply_slot; /* the loop's: tacet_service_reply_slot's (0: none) */
	int cap_came;            /* the loop's: a capability came with the call, still in recv */
	struct tacet_sessions *sessions; /* the server's session table, if it keeps one: the
					  * loop hands it the notification's bits first */
	void (*event)(struct tacet_device *dev, long ev); /* the loop's: run's event */
	void (*notified)(struct tacet_service *s, unsigned long bits); /* without a device: the
						* bound notification's bits; NULL: none */
	int no_reply;            /* a handler's: the caller gets no reply (the loop clears it) */
};

/* A call with this label (no words) the loop answers itself, before any handler: reply label 0,
 * w0 = 0. init's liveness thread asks it of a server whose init.run= entry says `~MS` (the
 * server is ended and restarted if it has not answered within MS ms): a service loop that
 * answers is taking its calls. Below TACET_LABEL_KERNEL, above every protocol's labels. */
#define TACET_LABEL_ALIVE 0x7a11

/* Create the endpoint, bind dev's notification (if dev) to the calling thread, and publish the
 * endpoint as `name`, clients getting the rights in `how` (<tacet.h>: tacet_publish). */
long tacet_service_open(struct tacet_service *s, const char *name, unsigned long how,
			struct tacet_device *dev);
/* Receive and answer forever; returns only the error that stopped it. event may be NULL. */
long tacet_service_run(struct tacet_service *s,
		       void (*call)(struct tacet_service *s, const struct tacet_msg *msg,
				    struct tacet_msg *reply),
		       void (*event)(struct tacet_device *dev, long ev));
/* Keep sessions (<tacet/session.h>) in t, each with `size` bytes of state in `state`
 * (TACET_SESSIONS_MAX of them; NULL and 0 for none), their clients watched on the device's
 * notification; ended runs for each session that ends. After tacet_service_open; -TACET_EINVAL
 * without a device. */
long tacet_service_sessions(struct tacet_service *s, struct tacet_sessions *t, void *state,
			    unsigned long size,
			    void (*ended)(struct tacet_sessions *t, unsigned long badge, void *state));
/* In a call handler: take whatever the notification holds now (clients' ends, the device's
 * events) as the loop would, before answering something that must reflect them. 1 if it held
 * anything. */
int tacet_service_drain(struct tacet_service *s);
/* In a call handler of a service with a device: the kernel's counts of the device's line
 * (TACET_INFO_IRQ) at a moment when every interrupt it signalled has been handled (those
 * pending taken first, and again if one came while the kernel was asked), so that they and
 * the driver's own counts describe the same moment. 0 or the kernel's error. */
struct tacet_irq_info;
long tacet_service_irq_info(struct tacet_service *s, struct tacet_irq_info *info);
/* In a call handler: keep the capability that came with the call. Returns the slot it is in now
 * (the loop receives the next into a fresh slot); -TACET_EINVAL if none came, or the slot
 * allocator's error. Free it with tacet_slot_free when done. */
long tacet_service_take_cap(struct tacet_service *s);
/* In a call handler: an empty lib slot for a capability made for this caller alone (a frame
 * derived for it), to go with the reply (TACET_TAG_CAP(label, words, slot) as its tag). The
 * loop frees the slot once the reply has gone, whether it carried the capability or not. One a
 * call: asked again in the same call, the same slot. The slot allocator's error if none. */
long tacet_service_reply_slot(struct tacet_service *s);

#endif
