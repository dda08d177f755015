/* ping.h: the shell's `ping ADDR [COUNT]` (ping.c), run from uart.c's command loop. */
#ifndef UART_PING_H
#define UART_PING_H

void cmd_ping(const char *arg);

#endif
