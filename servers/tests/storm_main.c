/* storm_main.c: the storm server (`storm:goldfish-rtc`): the RTC's interrupt stays asserted and
 * nobody handles it; the kernel must disable the line and tell the driver (storm.c). */
#include <tacet.h>
#include "storm.h"

int main(void)
{
	return storm_run(STORM_UNHANDLED);
}
