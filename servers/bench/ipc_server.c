/* ipc_server.c: the bench_ipc_srv server: the far end of the IPC round-trip benchmarks (the
 * protocol is in ipc.h). */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "ipc.h"

#define SLOT_EP TACET_CHILD_FIRST_FREE

int main(void)
{
	struct tacet_msg msg;
	long err = tacet_endpoint_new(SLOT_EP);

	if (!err)
		err = tacet_publish(BENCH_IPC_NAME, SLOT_EP, TACET_RIGHT_WRITE);
	if (!err)
		err = tacet_recv(SLOT_EP, 0, &msg, NULL);
	while (!err && TACET_TAG_LABEL(msg.tag) != BENCH_IPC_QUIT) {
		msg.tag = TACET_TAG(0, 0);
		err = tacet_reply_recv(SLOT_EP, &msg, 0, &msg, NULL);
	}
	if (err) {
		printf("bench_ipc_srv: %s\n", tacet_strerror(err));
		return 1;
	}
	msg.tag = TACET_TAG(0, 0);
	tacet_reply(&msg);
	return 0;
}
