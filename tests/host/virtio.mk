# virtio.mk: host tests of the split virtqueues (lib/virtio_queue.c) against a fake device.
HOST_TESTS += virtio
HOST_SRCS_virtio := lib/virtio_queue.c
HOST_CFLAGS_virtio := -Ilib/include
HOST_DEPS_virtio := lib/include/tacet/virtio_queue.h
