# ring: lib/ring.c, the shared-memory rings between two servers: random batches in one thread,
# two threads over a million descriptors with sleeps and wake-ups, a hostile peer.
HOST_TESTS += ring
HOST_SRCS_ring := lib/ring.c
HOST_CFLAGS_ring := -Ilib/include
HOST_DEPS_ring := lib/include/tacet/ring.h lib/include/tacet/virtio_queue.h
HOST_LIBS_ring := -lpthread
