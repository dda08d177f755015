/* quietown.c: quietown's description of the 16550 (quietscr.c): IER 0, and its own mark in the
 * scratch register, which only init applying this image's description can put there. */
#include "quietscr.h"

const char quiet_who[] = "quietown";

TACET_QUIESCE(quietown_quiesce, "ns16550a", TACET_QUIESCE_W8(UART_IER, 0),
	      TACET_QUIESCE_W8(UART_SCR, QUIET_SCRATCH));
