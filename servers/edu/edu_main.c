/* edu_main.c: the edu server: 1000 interrupts, one at a time (edu.c). */
#include "edu.h"

int main(void)
{
	return edu_test(1000, 0);
}
