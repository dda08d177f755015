# names: lib/names.c, the client side of init's name service, against a fake kernel (a
# capability table) and a fake init whose service ends and comes back on the test's word: what a
# reconnect leaves in the client's slot when it finds the next instance, and when it finds none.
HOST_TESTS += names
HOST_SRCS_names := lib/names.c
HOST_DEPS_names := tests/host/fake_names/tacet.h tests/host/fake_blk/tacet.h \
	tests/host/fake_net/tacet.h tests/host/fake_lib/tacet.h lib/include/tacet/init_proto.h \
	$(BUILD)/gen/include/tacet/init_client.h
HOST_CFLAGS_names := -Itests/host/fake_names -Itests/host/fake_lib -I$(BUILD)/gen/include \
	-Ilib/include
