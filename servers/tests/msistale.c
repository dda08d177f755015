/* msistale: the other process of the revocation case (msirevoke): it keeps the copy of a
 * message-signalled line's capability msirevoke sends it and calls through it when asked.
 * Publishes "msistale". Protocol (labels; each answered with the results, 0 or -TACET_E*):
 *   1, with a capability: keep it (the copy), bind it to a notification of ours; w[0] = bind's
 *   2: call through the copy: w[0] = IRQ_BIND, w[1] = IRQ_ACK, w[2] = IRQ_SET_AFFINITY (hart 0)
 *   3: done: answered, then it ends. */
#include <stdbool.h>
#include <stddef.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define SLOT_EP   TACET_CHILD_FIRST_FREE
#define SLOT_NTFN (TACET_CHILD_FIRST_FREE + 1)
#define SLOT_COPY (TACET_CHILD_FIRST_FREE + 2)

enum { STALE_KEEP = 1, STALE_TRY = 2, STALE_DONE = 3 };

int main(void)
{
	struct tacet_msg msg;
	long err = tacet_endpoint_new(SLOT_EP);

	if (!err)
		err = tacet_ntfn_new(SLOT_NTFN);
	if (!err)
		err = tacet_publish("msistale", SLOT_EP, TACET_RIGHT_WRITE | TACET_RIGHT_GRANT);
	if (err)
		return 1;
	for (bool held = false;;) {
		unsigned long label;

		if (tacet_recv(SLOT_EP, held ? 0 : SLOT_COPY, &msg, NULL) < 0)
			continue;
		held |= TACET_TAG_HAS_CAP(msg.tag);
		label = TACET_TAG_LABEL(msg.tag);
		msg = (struct tacet_msg){ .tag = TACET_TAG(0, 3) };
		if (label == STALE_KEEP) {
			msg.w[0] = (unsigned long)tacet_irq_bind(SLOT_COPY, SLOT_NTFN, 1, 0);
		} else if (label == STALE_TRY) {
			msg.w[0] = (unsigned long)tacet_irq_bind(SLOT_COPY, SLOT_NTFN, 1, 0);
			msg.w[1] = (unsigned long)tacet_irq_ack(SLOT_COPY, 1);
			msg.w[2] = (unsigned long)tacet_irq_set_affinity(SLOT_COPY, 0);
		}
		tacet_reply(&msg);
		if (label == STALE_DONE)
			return 0;
	}
}
