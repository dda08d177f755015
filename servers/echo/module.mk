# echo: the echo service, UDP and TCP port 7, over lib's sockets (init.run=echo, after ip).
SERVERS += echo
SERVER_SRCS_echo := servers/echo/echo.c
