# virtio_pci.mk: host tests of the virtio-pci capability walk (lib/virtio_pci_caps.c) against
# fake configuration spaces, well formed and hostile.
HOST_TESTS += virtio_pci
HOST_SRCS_virtio_pci := lib/virtio_pci_caps.c
HOST_CFLAGS_virtio_pci := -Ilib/include
HOST_DEPS_virtio_pci := lib/include/tacet/virtio.h
