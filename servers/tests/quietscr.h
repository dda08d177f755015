/* quietscr.h: what quietscr.c and the two descriptions it is built with share (quietown.c,
 * quietbad.c): the 16550's registers they use and the scratch values that tell who wrote. */
#ifndef QUIETSCR_H
#define QUIETSCR_H

#include <tacet/quiesce.h>

#define UART_IER      1
#define UART_SCR      7    /* scratch: read/write, no effect on the device */
#define DEAD_SCRATCH  0x11 /* the dying instance's */
#define QUIET_SCRATCH 0x5a /* the description's */

extern const char quiet_who[]; /* the server's name, for its lines */

#endif
