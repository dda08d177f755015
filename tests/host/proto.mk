# proto.mk: host tests of tools/genproto.py's output: the dispatch generated from a test
# description (tests/host/proto/demo.proto), from rng's (error replies by label) and from init's
# (an optional word; the name service's hostile requests) against hostile messages, and each
# stub through its dispatch and back.
HOST_TESTS += proto
HOST_DEPS_proto := $(BUILD)/gen/host/tacet/demo_server.h $(BUILD)/gen/host/tacet/demo_client.h \
	$(BUILD)/gen/include/tacet/rng_server.h $(BUILD)/gen/include/tacet/rng_client.h \
	$(BUILD)/gen/include/tacet/init_server.h $(BUILD)/gen/include/tacet/init_client.h \
	tests/host/fake_lib/tacet.h lib/include/tacet/service.h lib/include/tacet/session.h
HOST_CFLAGS_proto := -Itests/host/fake_lib -I$(BUILD)/gen/host -I$(BUILD)/gen/include \
	-Ilib/include -Itests/host/proto

$(BUILD)/gen/host/tacet/demo_client.h $(BUILD)/gen/host/tacet/demo_server.h: \
		tests/host/proto/demo.proto tools/genproto.py
	@mkdir -p $(@D)
	python3 tools/genproto.py $< $(BUILD)/gen/host

# session: lib/session.c's table against a fake kernel (capabilities, process watches).
HOST_TESTS += session
HOST_SRCS_session := lib/session.c
HOST_DEPS_session := tests/host/fake_lib/tacet.h lib/include/tacet/session.h
HOST_CFLAGS_session := -Itests/host/fake_lib -Ilib/include
