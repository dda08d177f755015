# lwip.mk: lwIP, a dependency fetched at build time (tools/fetch-lwip.sh: Debian's source package,
# its digests in lwip/lwip.sha256), built with Tacet's port (lwip/port/) into
# $(BUILD)/lwip/liblwip.a for the servers that link it (servers/ip). Included by the Makefile
# after lib/lib.mk, whose user-space flags it uses.
#
# What is built: lwIP's core, IPv4 (ARP, ICMP, DHCP, fragments), Ethernet, and the apps the
# servers will serve (lwiperf, an iperf 2 server; httpd): LWIP_FILES, relative to the package's
# src/. lwIP's own files are compiled with the servers' flags (-Wall -Wextra -Werror) less the
# warnings LWIP_NOWARN names; the port's files with the servers' flags unchanged.

LWIP_DIR := $(BUILD)/lwip/src
LWIP_STAMP := $(LWIP_DIR)/.unpacked
LWIP_FILES := core/init.c core/def.c core/inet_chksum.c core/ip.c core/mem.c core/memp.c \
	core/netif.c core/pbuf.c core/raw.c core/stats.c core/sys.c core/tcp.c core/tcp_in.c \
	core/tcp_out.c core/timeouts.c core/udp.c \
	core/ipv4/dhcp.c core/ipv4/etharp.c core/ipv4/icmp.c core/ipv4/ip4.c \
	core/ipv4/ip4_addr.c core/ipv4/ip4_frag.c \
	netif/ethernet.c
LWIP_APP_FILES := apps/lwiperf/lwiperf.c apps/http/httpd.c apps/http/fs.c
LWIP_SRCS := $(patsubst %,$(LWIP_DIR)/src/%,$(LWIP_FILES))
LWIP_INCLUDES := -Ilwip/port -I$(LWIP_DIR)/src/include
LWIP_NOWARN :=
LWIP_PORT_SRCS := lwip/port/sys_tacet.c lwip/port/chksum.c lwip/port/layout.c

LWIP := $(BUILD)/lwip/liblwip.a
LWIP_OBJS := $(patsubst %.c,$(BUILD)/lwip/obj/%.o,$(LWIP_FILES) $(LWIP_APP_FILES))
LWIP_PORT_OBJS := $(patsubst lwip/port/%.c,$(BUILD)/lwip/port/%.o,$(LWIP_PORT_SRCS))

$(LWIP_STAMP): tools/fetch-lwip.sh lwip/lwip.sha256
	tools/fetch-lwip.sh $(LWIP_DIR)
	touch $@

# Sources change only with a new fetch: every object waits for (and follows) the stamp.
$(LWIP_OBJS): $(BUILD)/lwip/obj/%.o: $(LWIP_STAMP)
	@mkdir -p $(@D)
	$(USER_CC) $(USER_CFLAGS) $(LWIP_INCLUDES) $(LWIP_NOWARN) -c -o $@ $(LWIP_DIR)/src/$*.c

$(LWIP_PORT_OBJS): $(BUILD)/lwip/port/%.o: lwip/port/%.c $(LWIP_STAMP)
	@mkdir -p $(@D)
	$(USER_CC) $(USER_CFLAGS) $(LWIP_INCLUDES) -c -o $@ $<

$(LWIP): $(LWIP_OBJS) $(LWIP_PORT_OBJS)
	@rm -f $@
	$(USER_AR) rcs $@ $^

lwip: $(LWIP)
.PHONY: lwip

-include $(LWIP_OBJS:.o=.d) $(LWIP_PORT_OBJS:.o=.d)
