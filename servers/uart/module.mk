# uart: the ns16550a console server and shell (init.run=uart:ns16550a).
SERVERS += uart
SERVER_SRCS_uart := servers/uart/uart.c
