# blk: the virtio block device's driver, the "blk" service (init.run=blk:virtio-blk).
SERVERS += blk
SERVER_SRCS_blk := servers/blk/blk.c

# The disk the virtio-blk tests attach (tests/qemu/cases_virtio.py, servers/tests/blktest.c):
# 128 sectors; byte i of sector n is (13 n + i) % 251. The tests open it with snapshot=on, so
# their writes never reach the file.
BLK_TEST_IMG := $(BUILD)/blk-test.img
$(BLK_TEST_IMG): servers/blk/module.mk
	@mkdir -p $(@D)
	python3 -c 'import sys; sys.stdout.buffer.write(bytes((13 * n + i) % 251 \
		for n in range(128) for i in range(512)))' > $@
