/* edu_main.c: the edu server: 1000 interrupts, one at a time, then a factorial with its
 * completion interrupt (edu.c), by message-signalled interrupt where the machine has them
 * (the AIA's), else on the INTx line. */
#include "edu.h"

int main(void)
{
	return edu_test(1000, 0, EDU_TEST_FACTORIAL | EDU_TEST_MSI);
}
