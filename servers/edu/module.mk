# edu: the driver and interrupt test for QEMU's edu PCI device (claims it from "pci");
# edu_flood: the same with 25,000 interrupts and the line moving between harts.
EDU_COMMON := servers/edu/edu.c servers/edu/edu_dev.c

SERVERS += edu edu_flood
SERVER_SRCS_edu := servers/edu/edu_main.c $(EDU_COMMON)
SERVER_SRCS_edu_flood := servers/edu/edu_flood.c $(EDU_COMMON)
