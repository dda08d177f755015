# ip: the IP stack, lwIP over the network device service "net0" (init.run=ip), publishing "ip"
# (ping, and its clients' sockets). Links lwIP (lwip/lwip.mk: fetched, built with lwip/port).
SERVERS += ip
SERVER_SRCS_ip := servers/ip/ip.c servers/ip/netif.c servers/ip/ping.c servers/ip/sock.c
SERVER_LIBS_ip := $(LWIP)
$(call user_objs,$(SERVER_SRCS_ip)): USER_CFLAGS += $(LWIP_INCLUDES)
$(call user_objs,$(SERVER_SRCS_ip)): | $(LWIP_STAMP)

# ip_static: the same stack at the fixed address of the UDP echo benchmark (bench_udp,
# servers/bench/ipstatic.c), for two NICs on a QEMU hub where no DHCP server answers.
SERVERS += ip_static
SERVER_SRCS_ip_static := $(SERVER_SRCS_ip) servers/bench/ipstatic.c
SERVER_LIBS_ip_static := $(LWIP)
$(call user_objs,$(SERVER_SRCS_ip_static)): USER_CFLAGS += $(LWIP_INCLUDES)
$(call user_objs,$(SERVER_SRCS_ip_static)): | $(LWIP_STAMP)
