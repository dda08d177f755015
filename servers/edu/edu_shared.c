/* edu_shared.c: the edu_shared server: the edu server's test (1000 interrupts, then the
 * factorial), begun only once SHARED_DRIVERS drivers have bound the line (edu.c,
 * EDU_TEST_TOGETHER): three of them on one shared line make the shared-line test. */
#include "edu.h"

#define SHARED_DRIVERS 3

int main(void)
{
	return edu_test(1000, 0, EDU_TEST_FACTORIAL | EDU_TEST_TOGETHER(SHARED_DRIVERS));
}
