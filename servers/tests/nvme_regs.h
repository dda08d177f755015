/* nvme_regs.h: the NVMe controller as the test drivers that claim QEMU's nvme see it
 * (nvmedie.c, nvmemsix.c): its IDs, the registers they use (byte offsets in BAR0) and their
 * bits, 32-bit reads and writes at an offset of the mapped BAR0 (`regs`, set by the driver
 * once mapped; a 64-bit register as two halves, low first), and the wait for CSTS.RDY. */
#ifndef SERVERS_TESTS_NVME_REGS_H
#define SERVERS_TESTS_NVME_REGS_H

#include <stdint.h>
#include <tacet.h>
#include <tacet/driver.h>

#define NVME_VENDOR 0x1b36 /* QEMU's (Red Hat's) */
#define NVME_DEVICE 0x0010

#define NVME_CAP  0x00
#define NVME_VS   0x08
#define NVME_CC   0x14
#define NVME_CSTS 0x1c
#define NVME_AQA  0x24
#define NVME_ASQ  0x28
#define NVME_ACQ  0x30
#define NVME_DOORBELLS 0x1000
#define CC_EN          (1u << 0)
#define CC_IOSQES(n)   ((uint32_t)(n) << 16)
#define CC_IOCQES(n)   ((uint32_t)(n) << 20)
#define CSTS_RDY       (1u << 0)
#define CSTS_CFS       (1u << 1)
#define CAP_TO(lo)     (((lo) >> 24) & 0xff) /* 500 ms units */
#define CAP_MPSMIN(hi) (((hi) >> 16) & 0xf)   /* bits 51:48 */
#define CAP_DSTRD(hi)  ((hi) & 0xf)           /* bits 35:32 */
#define NVME_NS_PER_MS 1000000ull

static volatile uint8_t *regs;

static inline uint32_t reg(unsigned int off)
{
	return mmio_read32(regs + off);
}

static inline void reg_set(unsigned int off, uint32_t v)
{
	mmio_write32(regs + off, v);
}

static inline void reg_set64(unsigned int off, uint64_t v)
{
	mmio_write32(regs + off, (uint32_t)v);
	mmio_write32(regs + off + 4, (uint32_t)(v >> 32));
}

/* Polls CSTS (1 ms apart, up to CAP.TO) until RDY is `ready`, or CFS: CSTS as last read. */
static inline uint32_t wait_ready(uint32_t ready)
{
	unsigned long ms = 0, limit = CAP_TO(reg(NVME_CAP)) * 500ul;
	uint32_t csts = reg(NVME_CSTS);

	while ((csts & CSTS_RDY) != ready && !(csts & CSTS_CFS) && ms++ < limit) {
		tacet_sleep_ns(NVME_NS_PER_MS);
		csts = reg(NVME_CSTS);
	}
	return csts;
}

#endif
