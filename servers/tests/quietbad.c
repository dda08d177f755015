/* quietbad.c: quietbad's description of the 16550 (quietscr.c), malformed as a hostile module's
 * could be: its scratch mark first, then a write one page past the device's registers (outside
 * the 0x100 bytes the device tree gives, and outside the page init maps). init must refuse it
 * whole: not even the first write is made. */
#include "quietscr.h"

const char quiet_who[] = "quietbad";

TACET_QUIESCE(quietbad_quiesce, "ns16550a", TACET_QUIESCE_W8(UART_SCR, QUIET_SCRATCH),
	      TACET_QUIESCE_W32(0x1000, 1));
