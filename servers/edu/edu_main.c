/* edu_main.c: the edu server: 1000 interrupts, one at a time, then a factorial with its
 * completion interrupt (edu.c). */
#include "edu.h"

int main(void)
{
	return edu_test(1000, 0, EDU_TEST_FACTORIAL);
}
