/* edu_busy.c: the edu_busy server: 100 interrupts one at a time, then 100,000 back to back,
 * each raised as the last is handled, which the kernel must never take for a storm (edu.c).
 * The PCI server never ends, so when done it asks init to power off, with its status. */
#include <tacet.h>
#include "edu.h"

int main(void)
{
	int status = edu_test(100, 0, EDU_TEST_BUSY);

	tacet_poweroff(status); /* returns only if init.run= does not allow it (no `^`) */
	return status;
}
