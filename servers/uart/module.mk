# uart: the ns16550a console server and shell (init.run=uart=console:ns16550a: it publishes
# "console").
SERVERS += uart
SERVER_SRCS_uart := servers/uart/uart.c
