# virtio.mk: host tests of the split virtqueues (lib/virtio_queue.c) against a fake device, and
# of the virtio-mmio transport (lib/virtio.c over lib/virtio_mmio.c, whose reset is a quiesce
# description: lib/quiesce.c) against a fake register page.
HOST_TESTS += virtio
HOST_SRCS_virtio := lib/virtio_queue.c lib/virtio.c lib/virtio_mmio.c lib/quiesce.c \
	lib/quiesce_mmio.c lib/compatible.c
HOST_CFLAGS_virtio := -Ilib/include
HOST_DEPS_virtio := lib/include/tacet/virtio_queue.h lib/include/tacet/virtio.h \
	lib/include/tacet/driver.h
