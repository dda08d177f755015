# uart: the ns16550a console server and shell (init.run=^uart=console:ns16550a: it publishes
# "console", and `^` lets the shell's `poweroff` power the machine off).
SERVERS += uart
SERVER_SRCS_uart := servers/uart/uart.c servers/uart/irqshow.c servers/uart/traceshow.c \
	servers/uart/ping.c
