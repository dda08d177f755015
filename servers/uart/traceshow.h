/* traceshow.h: the shell's trace command (traceshow.c). */
#ifndef SERVERS_UART_TRACESHOW_H
#define SERVERS_UART_TRACESHOW_H

/* `trace on`, `trace off`, `trace dump` (arg: what follows "trace", or NULL). */
void cmd_trace(const char *arg);

#endif
