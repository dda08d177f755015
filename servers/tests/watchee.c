/* watchee: watchmany's server (qemu/endpoint-watchers-in-steps): publishes "watchee", answers
 * one call, and ends: its endpoint ends with it, telling every notification that watches it. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define SLOT_EP TACET_CHILD_FIRST_FREE

int main(void)
{
	struct tacet_msg msg;
	long err = tacet_endpoint_new(SLOT_EP);

	if (!err)
		err = tacet_publish("watchee", SLOT_EP, TACET_RIGHT_WRITE);
	if (!err)
		err = tacet_recv(SLOT_EP, 0, &msg, NULL);
	if (err) {
		printf("watchee: FAIL: %s\n", tacet_strerror(err));
		return 1;
	}
	msg = (struct tacet_msg){ .tag = TACET_TAG(0, 0) };
	tacet_reply(&msg);
	return 0;
}
