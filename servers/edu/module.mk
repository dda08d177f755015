# edu: the driver and interrupt test for QEMU's edu PCI device (claims it from "pci").
SERVERS += edu
SERVER_SRCS_edu := servers/edu/edu.c
