# virtio_pci.mk: host tests of the virtio-pci capability walk (lib/virtio_pci_caps.c) against
# fake configuration spaces, well formed and hostile, and of the transport (lib/virtio_pci.c
# under lib/virtio.c) against a fake BAR.
HOST_TESTS += virtio_pci
HOST_SRCS_virtio_pci := lib/virtio_pci_caps.c lib/virtio_pci.c lib/virtio.c lib/virtio_queue.c
HOST_CFLAGS_virtio_pci := -Ilib/include
HOST_DEPS_virtio_pci := lib/include/tacet/virtio.h lib/include/tacet/virtio_queue.h \
	lib/include/tacet/driver.h
