# lwip: lwIP as Tacet builds it (the fetched sources of lwip/lwip.mk, lwip/port's lwipopts.h and
# cc.h) compiled for the host, with ip's ping (servers/ip, portable over lwIP) and a raw-API
# echo (lwip_echo.c) as the peer: two
# netifs joined by a link of lib/ring.c rings; ARP, ICMP echo, UDP echo (fragmented too), a TCP
# stream, malformed frames dropped and counted. lwIP's sources are passed through HOST_LIBS (they
# exist only once fetched: the test waits for the stamp, which follows a new fetch).
HOST_TESTS += lwip
HOST_SRCS_lwip := lib/ring.c tests/host/lwip_echo.c servers/ip/ping.c lwip/port/chksum.c \
	lwip/port/layout.c
HOST_DEPS_lwip := $(LWIP_STAMP) lwip/port/lwipopts.h lwip/port/arch/cc.h tests/host/lwip_hooks.h \
	tests/host/lwip_echo.h servers/ip/ping.h lib/include/tacet/ring.h
HOST_CFLAGS_lwip := -Ilib/include -Ilwip/port -I$(LWIP_DIR)/src/include -Iservers/ip \
	-DLWIP_HOOK_FILENAME='"lwip_hooks.h"' \
	'-DLWIP_HOOK_IP4_ROUTE_SRC(src,dest)=test_lwip_route_src(src,dest)'
HOST_LIBS_lwip := $(LWIP_SRCS)
