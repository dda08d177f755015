# sock: servers/ip/sock.c (the sessions ip serves its socket clients) as it is, over lwIP built
# for the host, against a fake kernel and a fake netif; the test plays the client's rings, and
# acts inside ip's ring_publish (-Wl,--wrap) as a client on another hart would: every buffer
# ip hands back can be put in again at once.
HOST_TESTS += sock
HOST_SRCS_sock := tests/host/fake_lib/caps.c servers/ip/sock.c lib/ring.c lib/session.c \
	lwip/port/chksum.c
HOST_DEPS_sock := $(LWIP_STAMP) lwip/port/lwipopts.h lwip/port/arch/cc.h servers/ip/sock.h \
	servers/ip/netif.h tests/host/fake_sock/tacet.h tests/host/fake_net/tacet.h \
	tests/host/fake_lib/tacet.h lib/include/tacet/ring.h $(BUILD)/gen/include/tacet/ip_server.h
HOST_CFLAGS_sock := -Itests/host/fake_sock -Itests/host/fake_lib -I$(BUILD)/gen/include \
	-Ilib/include -Ilwip/port -I$(LWIP_DIR)/src/include -Iservers/ip \
	-Wl,--wrap=ring_publish
HOST_LIBS_sock := $(LWIP_SRCS)
