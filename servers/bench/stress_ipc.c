/* stress_ipc.c: the stress_ipc stressor (stress.h): an IPC call storm between two threads of
 * this process on its hart, a client (the stressor's own thread) calling STORM_CALLS times a
 * round and a server thread answering each call with its word plus one (the client checks
 * it). At the end the client calls with STORM_QUIT and the server thread ends. */
#include <stddef.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "bench.h"
#include "stress.h"

#define STORM_CALLS 100
#define STORM_PING  1
#define STORM_QUIT  2
#define SLOT_EP     TACET_CHILD_FIRST_FREE
#define SLOT_STACK  (TACET_CHILD_FIRST_FREE + 1)
#define STACK_VA    0x0000002000000000ul
#define SERVER_PRIO 100 /* the stressor's own (init's default): the calls switch directly */

static unsigned long sent;

/* The server thread (raw: system calls only). */
static void storm_server(unsigned long arg)
{
	struct tacet_msg msg = { 0 };
	long err;

	(void)arg;
	for (err = tacet_recv(SLOT_EP, 0, &msg, NULL);
	     !err && TACET_TAG_LABEL(msg.tag) == STORM_PING;
	     err = tacet_reply_recv(SLOT_EP, &msg, 0, &msg, NULL))
		msg.w[0]++;
	tacet_reply(&msg);
}

static long storm_start(void)
{
	struct tacet_self self;
	long err = tacet_endpoint_new(SLOT_EP);

	tacet_self(&self);
	if (!err)
		err = bench_thread_start(storm_server, 0, SERVER_PRIO, (unsigned int)self.hart,
					 SLOT_STACK, STACK_VA);
	return err;
}

static long storm_round(void)
{
	for (int i = 0; i < STORM_CALLS; i++) {
		struct tacet_msg msg = { .tag = TACET_TAG(STORM_PING, 1), .w = { sent } };
		long err = tacet_call(SLOT_EP, &msg);

		if (err)
			return err;
		if (msg.w[0] != ++sent)
			return -TACET_EINVAL;
	}
	return STORM_CALLS;
}

static long storm_finish(void)
{
	struct tacet_msg msg = { .tag = TACET_TAG(STORM_QUIT, 0) };

	return tacet_call(SLOT_EP, &msg);
}

int main(void)
{
	static const struct stressor ipc = {
		.what = "ipc", .unit = "calls", .start = storm_start, .round = storm_round,
		.finish = storm_finish,
	};

	return stress_run(&ipc);
}
