/* keeper: colludes with giver (the laundering attack): publishes "keeper" and keeps
 * every frame sent to it, each in a slot of its own, until giver's sixth instance (the first
 * and five restarts) has said it is done (label 2); then it ends, and its frames with it, so
 * that init's leak check sees everything back. No checks of its own: the case reads giver's
 * and init's lines. */
#define INSTANCES 6
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define SLOT_EP    TACET_CHILD_FIRST_FREE
#define SLOT_FIRST (TACET_CHILD_FIRST_FREE + 1) /* the frames kept, one a slot from here */
#define KEEP_MAX   64

int main(void)
{
	struct tacet_msg msg;
	unsigned long kept = 0, done = 0;
	long err = tacet_endpoint_new(SLOT_EP);

	if (!err)
		err = tacet_publish("keeper", SLOT_EP, TACET_RIGHT_WRITE | TACET_RIGHT_GRANT);
	if (err) {
		printf("keeper: FAIL: %s\n", tacet_strerror(err));
		return 1;
	}
	for (;;) {
		if (tacet_recv(SLOT_EP, SLOT_FIRST + kept, &msg, NULL) < 0)
			continue;
		kept += TACET_TAG_HAS_CAP(msg.tag) && kept < KEEP_MAX - 1;
		done += TACET_TAG_LABEL(msg.tag) == 2;
		msg = (struct tacet_msg){ .tag = TACET_TAG(0, 1), .w = { kept } };
		tacet_reply(&msg);
		if (done == INSTANCES) {
			printf("keeper: kept %lu frames; giver's %d instances done\n", kept, INSTANCES);
			return 0;
		}
	}
}
