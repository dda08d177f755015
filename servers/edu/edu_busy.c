/* edu_busy.c: the edu_busy server: 100 interrupts one at a time, then 100,000 back to back,
 * each raised as the last is handled, which the kernel must never take for a storm (edu.c).
 * The PCI server never ends, so when done it asks init to power off, with its status. */
#include <tacet.h>
#include <tacet/init_proto.h>
#include "edu.h"

int main(void)
{
	int status = edu_test(100, 0, EDU_TEST_BUSY);
	struct tacet_msg msg = { .tag = TACET_TAG(INIT_POWEROFF, 1), .w = { (unsigned long)status } };

	tacet_call(TACET_CHILD_INIT, &msg);
	return status;
}
