# edu: the driver and interrupt test for QEMU's edu PCI device (claims it from "pci");
# edu_flood: 25,000 interrupts with the line moving between harts (edu_trace: 1,000, for
# make trace); edu_dma: edu plus DMA;
# edu_busy: 100,000 interrupts back to back, never taken for a storm; edu_abandon: ends with
# an interrupt pending; edu_shared: edu, begun once three drivers share the line; edu_dmadie:
# dies with DMA in flight, twice, then makes a DMA round trip.
EDU_COMMON := servers/edu/edu.c servers/edu/edu_dev.c

SERVERS += edu edu_flood edu_trace edu_dma edu_busy edu_abandon edu_shared edu_dmadie
SERVER_SRCS_edu := servers/edu/edu_main.c $(EDU_COMMON)
SERVER_SRCS_edu_flood := servers/edu/edu_flood.c $(EDU_COMMON)
SERVER_SRCS_edu_trace := servers/edu/edu_trace.c $(EDU_COMMON)
SERVER_SRCS_edu_dma := servers/edu/edu_dma.c $(EDU_COMMON)
SERVER_SRCS_edu_busy := servers/edu/edu_busy.c $(EDU_COMMON)
SERVER_SRCS_edu_abandon := servers/edu/edu_abandon.c $(EDU_COMMON)
SERVER_SRCS_edu_shared := servers/edu/edu_shared.c $(EDU_COMMON)
SERVER_SRCS_edu_dmadie := servers/edu/edu_dmadie.c $(EDU_COMMON)

# edu_flood_msi: edu_flood by MSI, each move reprogramming the device's address.
SERVERS += edu_flood_msi
SERVER_SRCS_edu_flood_msi := servers/edu/edu_flood_msi.c $(EDU_COMMON)

# edu_msidie: dies with a message-signalled interrupt in flight, twice, then runs to the end.
SERVERS += edu_msidie
SERVER_SRCS_edu_msidie := servers/edu/edu_msidie.c servers/edu/edu_dev.c

# edu_crash: faults on every 100th interrupt, for init to restart it (the restart test).
SERVERS += edu_crash
SERVER_SRCS_edu_crash := servers/edu/edu_crash.c servers/edu/edu_dev.c

# edu_hold: binds its edu's INTx line shared and answers its calls, but never acknowledges an
# interrupt (the liveness test of a shared line's holder).
SERVERS += edu_hold
SERVER_SRCS_edu_hold := servers/edu/edu_hold.c servers/edu/edu_dev.c
