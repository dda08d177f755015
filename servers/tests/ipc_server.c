/* ipc_server.c: the server side of the IPC tests: publishes an endpoint as "ipc" and answers
 * calls on it with the protocol of ipc_test.h (ECHO, BADGE, TAKE_CAP, NTFN_WAIT, STATS, QUIT),
 * one at a time, in a tacet_reply_recv loop. Exits 0 on IPC_QUIT, or 1 if a check of its own
 * (a received capability it could not use, a failed wait) went wrong. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "ipc_test.h"

enum ipc_server_slot {
	SLOT_EP = TACET_CHILD_FIRST_FREE,
	SLOT_NTFN, /* the notification IPC_NTFN_WAIT blocks on, once created */
	SLOT_RECV, /* where a capability sent with a message lands; emptied after each message */
};

/* What the loop does once the reply is ready. */
enum ipc_server_next {
	NEXT_SERVE, /* reply and receive the next message in one call */
	NEXT_WAIT,  /* reply, block on the notification, then receive */
	NEXT_QUIT,  /* reply and exit */
};

static struct {
	unsigned long received;  /* messages, IPC_STATS's w0 */
	unsigned long caps;      /* capabilities that arrived with them */
	unsigned long last_bits; /* what the last IPC_NTFN_WAIT woke with */
	int ntfn_published;
	int failures;
} server;

static void server_fail(const char *what, long err)
{
	printf("ipc_server: %s: FAIL %s\n", what, tacet_strerror(err));
	server.failures++;
}

/* IPC_TAKE_CAP: report what arrived; a notification also gets signalled through it, so that
 * the sender can tell the capability reached the object it sent. */
static long take_cap(const struct tacet_msg *msg)
{
	long type;

	if (!TACET_TAG_HAS_CAP(msg->tag))
		return -TACET_EEMPTY;
	type = tacet_cap_info(SLOT_RECV, NULL, NULL);
	if (type == TACET_CAP_NOTIFICATION) {
		long err = tacet_signal(SLOT_RECV, IPC_TAKE_CAP_BITS);

		if (err) {
			server_fail("signal through a received notification", err);
			return err;
		}
	}
	return type;
}

/* IPC_NTFN_WAIT: the notification is created and published on the first one. */
static long ntfn_prepare(void)
{
	long err = 0;

	if (server.ntfn_published)
		return 0;
	if (tacet_cap_info(SLOT_NTFN, NULL, NULL) == -TACET_EEMPTY)
		err = tacet_ntfn_new(SLOT_NTFN);
	if (!err)
		err = tacet_publish(IPC_NTFN_NAME, SLOT_NTFN, TACET_RIGHT_WRITE);
	if (err)
		server_fail("publish " IPC_NTFN_NAME, err);
	else
		server.ntfn_published = 1;
	return err;
}

/* Fills *reply for msg, which came with badge; says what the loop does next. */
static enum ipc_server_next handle(const struct tacet_msg *msg, unsigned long badge,
				   struct tacet_msg *reply)
{
	unsigned long label = TACET_TAG_LABEL(msg->tag);
	enum ipc_server_next next = NEXT_SERVE;

	reply->tag = TACET_TAG(label, 1);
	reply->w[0] = 0;
	switch (label) {
	case IPC_ECHO:
		reply->tag = TACET_TAG(label, TACET_TAG_WORDS(msg->tag));
		for (int i = 0; i < TACET_MSG_WORDS; i++)
			reply->w[i] = msg->w[i] + 1;
		break;
	case IPC_BADGE:
		reply->w[0] = badge;
		break;
	case IPC_TAKE_CAP:
		reply->w[0] = (unsigned long)take_cap(msg);
		break;
	case IPC_NTFN_WAIT:
		reply->w[0] = (unsigned long)ntfn_prepare();
		if (!reply->w[0])
			next = NEXT_WAIT;
		break;
	case IPC_STATS:
		reply->tag = TACET_TAG(label, 3);
		reply->w[0] = server.received;
		reply->w[1] = server.caps;
		reply->w[2] = server.last_bits;
		break;
	case IPC_QUIT:
		if (msg->w[0] == IPC_QUIT_MAGIC)
			next = NEXT_QUIT;
		else
			reply->w[0] = (unsigned long)-TACET_EINVAL;
		break;
	default:
		reply->w[0] = (unsigned long)-TACET_EINVAL;
	}
	server.received++;
	if (TACET_TAG_HAS_CAP(msg->tag)) {
		server.caps++;
		tacet_cap_delete(SLOT_RECV); /* the next message may bring one too */
	}
	return next;
}

int main(void)
{
	struct tacet_msg msg, reply;
	unsigned long badge;
	long err;

	err = tacet_endpoint_new(SLOT_EP);
	if (!err)
		err = tacet_publish(IPC_NAME, SLOT_EP, TACET_RIGHT_WRITE | TACET_RIGHT_GRANT);
	if (err) {
		server_fail("publish " IPC_NAME, err);
		return 1;
	}
	err = tacet_recv(SLOT_EP, SLOT_RECV, &msg, &badge);
	while (!err) {
		enum ipc_server_next next = handle(&msg, badge, &reply);
		long bits;

		if (next == NEXT_SERVE) {
			err = tacet_reply_recv(SLOT_EP, &reply, SLOT_RECV, &msg, &badge);
			continue;
		}
		err = tacet_reply(&reply);
		if (err || next == NEXT_QUIT)
			break;
		bits = tacet_wait(SLOT_NTFN);
		if (bits < 0) {
			server_fail("wait on " IPC_NTFN_NAME, bits);
			bits = 0;
		}
		printf("ipc_server: notification bits %#lx\n", (unsigned long)bits);
		server.last_bits = (unsigned long)bits;
		err = tacet_recv(SLOT_EP, SLOT_RECV, &msg, &badge);
	}
	if (err)
		server_fail("serve", err);
	printf("ipc_server: quit after %lu messages\n", server.received);
	return server.failures || err ? 1 : 0;
}
