# blk: lib/blk.c, the block service's client, against a fake kernel and a fake blk service
# whose instances end and refuse on the test's word: what lib holds across a restart of the
# service (no id free while an instance holds its request; each request's refusal its own).
HOST_TESTS += blk
HOST_SRCS_blk := tests/host/fake_lib/caps.c tests/host/fake_lib/dma.c lib/blk.c lib/blk_seal.c
HOST_DEPS_blk := tests/host/fake_blk/tacet.h tests/host/fake_net/tacet.h \
	tests/host/fake_lib/tacet.h lib/include/tacet/blk.h lib/include/tacet/blk_proto.h \
	$(BUILD)/gen/include/tacet/blk_client.h
HOST_CFLAGS_blk := -Itests/host/fake_blk -Itests/host/fake_lib -I$(BUILD)/gen/include \
	-Ilib/include
