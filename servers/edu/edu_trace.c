/* edu_trace.c: the edu_trace server: the edu flood (edu_flood.c) at a twenty-fifth, for
 * `make trace`: 1,000 interrupts, the line moving to another hart for 1 in every 100. Four of
 * them on four harts fill about half of each hart's trace ring (docs/tracing.md). */
#include "edu.h"

int main(void)
{
	return edu_test(1000, 100, 0);
}
