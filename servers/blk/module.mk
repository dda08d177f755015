# blk: the virtio block device's driver, the "blk" service (init.run=blk:virtio-blk).
SERVERS += blk
SERVER_SRCS_blk := servers/blk/blk.c

# The disks the virtio-blk tests attach (tests/qemu/cases_virtio.py) and `make bench` reads
# (tests/bench/bench.py); byte i of sector n is (13 n + i) % 251 on each:
#   blk-test.img     128 sectors, opened with snapshot=on (writes never reach the file) or
#                    read-only;
#   blk-persist.img  a fresh copy of blk-test.img at every make, for the case whose writes
#                    must reach the file (its check reads the file after power-off);
#   blk-big.img      2048 sectors (1 MiB): the random-request tests (snapshot=on) and the
#                    IOPS benchmark.
blk_image = python3 -c 'import sys; sys.stdout.buffer.write(bytes((13 * n + i) % 251 \
	for n in range($(1)) for i in range(512)))' > $(2)

BLK_TEST_IMG := $(BUILD)/blk-test.img
$(BLK_TEST_IMG): servers/blk/module.mk
	@mkdir -p $(@D)
	$(call blk_image,128,$@)

BLK_PERSIST_IMG := $(BUILD)/blk-persist.img
.PHONY: $(BLK_PERSIST_IMG)
$(BLK_PERSIST_IMG): $(BLK_TEST_IMG)
	cp $(BLK_TEST_IMG) $@

BLK_BIG_IMG := $(BUILD)/blk-big.img
$(BLK_BIG_IMG): servers/blk/module.mk
	@mkdir -p $(@D)
	$(call blk_image,2048,$@)
