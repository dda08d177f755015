/* storm_main.c: the storm server: started as `storm:goldfish-rtc`, a0 (its server number) picks
 * the scenario: even, a storm; odd, nobody handles it (storm.c). */
#include <tacet.h>
#include "storm.h"

int main(void)
{
	return storm_run(tacet_start_arg & 1 ? STORM_UNHANDLED : STORM_HANDLED);
}
