# pci: the PCI bus server (init.run=pci:pci-host-ecam-generic+pci-mmio32+pci-intx).
SERVERS += pci
SERVER_SRCS_pci := servers/pci/pci.c
