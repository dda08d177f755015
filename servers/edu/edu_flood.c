/* edu_flood.c: the edu_flood server: 25,000 interrupts; in every 2,500 the line moves to another
 * hart for 25 and back, each move while an interrupt is in flight (edu.c). Four of them on four
 * harts make the 100,000-interrupt test. */
#include "edu.h"

int main(void)
{
	return edu_test(25000, 2500, 0);
}
