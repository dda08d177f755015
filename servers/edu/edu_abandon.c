/* edu_abandon.c: the edu_abandon server: 100 interrupts, then one more it leaves pending as it
 * ends (edu.c). Two of them on one device take turns: the second must find the device and its
 * line clean, and lose none of its interrupts. */
#include "edu.h"

int main(void)
{
	return edu_test(100, 0, EDU_TEST_ABANDON);
}
