/* gensvc: a service that dies after its first answer (a service's generations, with gencli). Each
 * instance publishes "gensvc", answers one call with its instance number (tacet_instance()),
 * then the first instance faults and init restarts it; the second ends after its answer. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define SLOT_EP TACET_CHILD_FIRST_FREE

int main(void)
{
	struct tacet_msg msg;
	unsigned long addr = 8;
	long err = tacet_endpoint_new(SLOT_EP);

	if (!err)
		err = tacet_publish("gensvc", SLOT_EP, TACET_RIGHT_WRITE);
	if (!err)
		err = tacet_recv(SLOT_EP, 0, &msg, NULL);
	if (err) {
		printf("gensvc: FAIL: %s\n", tacet_strerror(err));
		return 1;
	}
	msg = (struct tacet_msg){ .tag = TACET_TAG(0, 1), .w = { tacet_instance() } };
	tacet_reply(&msg);
	if (tacet_instance())
		return 0;
	__asm__("" : "+r"(addr)); /* the first instance dies (hidden from gcc) */
	*(volatile unsigned long *)addr = 1;
	return 1;
}
