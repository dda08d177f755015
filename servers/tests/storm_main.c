/* storm_main.c: the storm server (`storm:goldfish-rtc`): the RTC's interrupt stays asserted and
 * nobody handles it; the kernel must disable the line and tell the driver (storm.c).
 *
 * With a console server in the boot (the shell must answer throughout), the storm starts once
 * the console's first lines and prompt are out (CONSOLE_SYNC, <tacet/console_proto.h>): the
 * storm's lines and the kernel's go to the kernel's debug output, the console's text straight
 * to the UART, each printer on its own, so text of both at once comes mixed byte by byte. */
#include <tacet.h>
#include <tacet/console_proto.h>
#include "storm.h"

#define CONSOLE_TRIES 10000 /* 1 ms apart: how long the console may take to come up */

/* Until the console has sent its text to the UART; nothing if the boot has no console. */
static void console_out(void)
{
	struct tacet_msg m = { .tag = TACET_TAG(CONSOLE_SYNC, 0) };
	long slot = tacet_slot_alloc();

	if (slot < 0 || tacet_lookup("console", (unsigned long)slot, CONSOLE_TRIES))
		return;
	tacet_call((unsigned long)slot, &m);
	tacet_cap_delete((unsigned long)slot);
	tacet_slot_free((unsigned long)slot);
}

int main(void)
{
	console_out();
	return storm_run(STORM_UNHANDLED);
}
