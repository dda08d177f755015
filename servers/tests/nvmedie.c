/* nvmedie: a PCI driver that dies with its device enabled (device reset on death):
 * the function-level reset of the PCI server (servers/pci/pci.c, func_reset) on QEMU's nvme
 * controller, the one QEMU 7.2 device on virt's root bus that has one (`-device
 * nvme,serial=...`; no namespace is needed: only the controller's registers and its admin
 * queues are used).
 *
 * It claims the controller from "pci", maps BAR0 and pins its DMA frame to it (tacet_dma_device:
 * the frame waits in the window's quarantine if the driver dies). Instance 0 reads CAP and VS,
 * gives the controller an admin submission and completion queue (one page each, in one DMA
 * frame), enables it (CC.EN=1), waits for CSTS.RDY=1, says so and faults with the controller
 * enabled. Bus mastering off does not reset a controller: only pci's function-level reset
 * does. Its restart (`nvmedie*1`) reads CC.EN and CSTS.RDY before touching anything: 0 and 0
 * once pci has reset the function (1 and 1 without the reset: then FAIL), enables the
 * controller again with queues of its own (it works: RDY=1, PASS), disables it and waits for
 * RDY=0, frees its frame and exits 0.
 *
 * The controller's registers (NVM Express Base Specification, 3.1): CAP (64 bits; MQES 15:0,
 * TO 31:24 in 500 ms units, MPSMIN 51:48), VS, CC (EN 0, CSS 6:4, MPS 10:7, IOSQES 19:16,
 * IOCQES 23:20), CSTS (RDY 0, CFS 1), AQA (ASQS 11:0, ACQS 27:16, 0's based), ASQ and ACQ (64
 * bits, page aligned). QEMU 7.2 refuses to start a controller whose IOSQES is not 6 (64-byte
 * entries) or IOCQES not 4 (16 bytes), whose MPS is outside CAP's, or whose queues are not
 * page aligned (CSTS.CFS then). Its function-level reset resets the controller (CC and CSTS
 * 0) and the function's configuration space (pci writes the BARs again). */
#include <stdio.h>
#include <tacet.h>
#include <tacet/driver.h>
#include <tacet/init_proto.h>
#include <tacet/pci_proto.h>
#include "nvme_regs.h"

#define SLOT_PCI (TACET_CHILD_FIRST_FREE)
#define SLOT_BAR (TACET_CHILD_FIRST_FREE + 1)

#define QUEUE_ENTRIES 16 /* each queue: 16 x 64 bytes (submission), x 16 (completion) */
#define QUEUE_PAGES   2  /* the submission queue's page, then the completion queue's */
#define CLAIM_TRIES   1000
#define CLAIM_PAUSE_NS 10000000ull /* 10 ms: pci is still resetting the previous instance's */

/* Claims the controller (waiting while pci still holds it for the previous instance) and maps
 * its BAR0: 0 or a negative TACET_E* code. */
static long open_controller(void)
{
	struct tacet_pci_device dev;
	unsigned long pa, pages, va;
	long err = tacet_lookup("pci", SLOT_PCI, 10000);

	for (unsigned int i = 0; !err; i++) {
		err = tacet_pci_claim(SLOT_PCI, NVME_VENDOR, NVME_DEVICE, 0, SLOT_BAR, &dev);
		if (err != -TACET_EBUSY || i == CLAIM_TRIES)
			break;
		err = tacet_sleep_ns(CLAIM_PAUSE_NS);
	}
	if (!err)
		err = tacet_frame_info(SLOT_BAR, &pa, &pages);
	if (err)
		return err;
	va = tacet_va_alloc(pages);
	err = va ? tacet_map(TACET_CHILD_SELF, SLOT_BAR, va, TACET_RIGHT_READ | TACET_RIGHT_WRITE)
		 : -TACET_ENOMEM;
	if (!err) {
		regs = (volatile uint8_t *)va;
		tacet_dma_device(SLOT_BAR); /* its DMA frames are pinned to its part of the window */
	}
	return err;
}

/* The controller (disabled) given admin queues in q and enabled: CSTS once RDY=1, or as it
 * read when the wait ended. */
static uint32_t enable(const struct tacet_dma *q)
{
	reg_set(NVME_AQA, (QUEUE_ENTRIES - 1) << 16 | (QUEUE_ENTRIES - 1));
	reg_set64(NVME_ASQ, q->pa);
	reg_set64(NVME_ACQ, q->pa + TACET_PAGE_SIZE);
	/* NVM command set (CSS 0), 4 KiB pages (MPS 0), 64- and 16-byte queue entries */
	reg_set(NVME_CC, CC_IOSQES(6) | CC_IOCQES(4) | CC_EN);
	return wait_ready(CSTS_RDY);
}

int main(void)
{
	unsigned long instance = tacet_instance(), addr = 8;
	struct tacet_dma q = { 0 };
	uint32_t cc, csts;
	long err = open_controller();

	if (err) {
		printf("nvmedie: instance %lu: cannot open the controller: %s: FAIL\n", instance,
		       tacet_strerror(err));
		return 1;
	}
	cc = reg(NVME_CC);
	csts = reg(NVME_CSTS);
	printf("nvmedie: instance %lu: CAP %#x%08x, version %#x; found CC.EN=%u, CSTS.RDY=%u\n",
	       instance, reg(NVME_CAP + 4), reg(NVME_CAP), reg(NVME_VS), cc & CC_EN,
	       csts & CSTS_RDY);
	if ((cc & CC_EN) || (csts & CSTS_RDY)) {
		printf("nvmedie: instance %lu: the controller is still enabled (not reset): FAIL\n",
		       instance);
		return 1;
	}
	if (CAP_MPSMIN(reg(NVME_CAP + 4)) != 0) {
		printf("nvmedie: the controller takes no 4 KiB pages: FAIL\n");
		return 1;
	}
	/* the controller is quiet (disabled): now it may do DMA */
	err = tacet_pci_master(SLOT_PCI, NVME_VENDOR, NVME_DEVICE, 0);
	if (!err)
		err = tacet_dma_alloc(QUEUE_PAGES * TACET_PAGE_SIZE, &q);
	if (err) {
		printf("nvmedie: no DMA for the admin queues: %s: FAIL\n", tacet_strerror(err));
		return 1;
	}
	csts = enable(&q);
	printf("nvmedie: instance %lu: admin queues at %#lx (%d pages), CC %#x: CSTS.RDY=%u, "
	       "CSTS.CFS=%u%s\n", instance, q.pa, QUEUE_PAGES, reg(NVME_CC), csts & CSTS_RDY,
	       (csts & CSTS_CFS) >> 1, csts == CSTS_RDY ? "" : ": FAIL");
	if (csts != CSTS_RDY)
		return 1;
	if (instance == 0) {
		printf("nvmedie: instance 0: faulting with the controller enabled\n");
		__asm__("" : "+r"(addr)); /* hidden from gcc, which would make a trap of its own */
		*(volatile unsigned long *)addr = 1;
		return 1;
	}
	reg_set(NVME_CC, reg(NVME_CC) & ~CC_EN); /* a clean end: disabled, then its frame freed */
	csts = wait_ready(0);
	if (csts & CSTS_RDY) {
		printf("nvmedie: instance %lu: the controller does not disable: FAIL\n", instance);
		return 1;
	}
	tacet_dma_free(&q);
	printf("nvmedie: instance %lu: enabled again after the reset, then disabled: PASS\n",
	       instance);
	return 0;
}
