/* edu_storm.c: the edu_storm server: 100 interrupts, then a storm the kernel must stop by its
 * rate limit (edu.c). Start it on the hart of its device's index (edu_storm@0 for the first).
 * The PCI server never ends, so when done it asks init to power off, with its status. */
#include <tacet.h>
#include <tacet/init_proto.h>
#include "edu.h"

int main(void)
{
	int status = edu_test(100, 0, EDU_TEST_STORM);
	struct tacet_msg msg = { .tag = TACET_TAG(INIT_POWEROFF, 1), .w = { (unsigned long)status } };

	tacet_call(TACET_CHILD_INIT, &msg);
	return status;
}
