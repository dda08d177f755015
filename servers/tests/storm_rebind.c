/* storm_rebind.c: the storm_rebind server (`storm_rebind:goldfish-rtc`): nobody handles the
 * RTC's stuck interrupt, and the driver unbinds and binds its line on the way; the kernel must
 * disable the line at the same count as if it had not (storm.c). */
#include "storm.h"

int main(void)
{
	return storm_run(STORM_REBIND);
}
