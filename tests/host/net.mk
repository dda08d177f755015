# net: lib/net.c, the client sockets over ip's rings, against a fake kernel and a fake ip (the
# test's side of the four rings): what a send that finds no transmit buffer free waits for.
HOST_TESTS += net
HOST_SRCS_net := tests/host/fake_lib/caps.c tests/host/fake_lib/dma.c lib/net.c lib/ring.c
HOST_DEPS_net := tests/host/fake_net/tacet.h tests/host/fake_lib/tacet.h lib/include/tacet/net.h \
	lib/include/tacet/ring.h $(BUILD)/gen/include/tacet/ip_client.h
HOST_CFLAGS_net := -Itests/host/fake_net -Itests/host/fake_lib -I$(BUILD)/gen/include -Ilib/include
