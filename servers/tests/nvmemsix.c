/* nvmemsix: a PCI driver whose interrupt is an MSI-X vector: QEMU's nvme controller (`-device
 * nvme,serial=...`, MSI-X table in BAR0), on the AIA's machine. It claims the controller from
 * "pci", asks for bus mastering and for MSI-X vector 0 on its own hart (PCI_MSI: pci masks the
 * table entry, writes the kernel's address and data, unmasks it and turns MSI-X on), binds the
 * line, gives the controller an admin submission and completion queue (the admin completion
 * queue interrupts through vector 0), enables it, then sends IDENTIFY_ROUNDS Identify
 * Controller commands one at a time, each completion taken by its interrupt: the completion
 * entry's command id and phase checked, the completion queue's head doorbell written, the line
 * acknowledged. Prints the controller's model, then `nvmemsix: N commands, each completion by
 * its MSI-X interrupt (line L, count +N): PASS`, disables the controller and exits 0 (pci then
 * masks the vector and frees the line). No IPC protocol.
 *
 * The controller's registers and the admin queues as in nvmedie.c; the doorbells (NVM Express
 * Base Specification, 3.1.24): the admin submission queue's tail at 0x1000, the admin
 * completion queue's head at 0x1000 + (4 << CAP.DSTRD). An Identify command (opcode 0x06,
 * CDW10 CNS 1: the controller) writes 4 KiB to PRP1; its completion entry's dword 3 holds the
 * command id (15:0), the phase (16) and the status (31:17). */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/driver.h>
#include <tacet/init_proto.h>
#include <tacet/pci_proto.h>
#include "nvme_regs.h"

#define SLOT_PCI  (TACET_CHILD_FIRST_FREE)
#define SLOT_BAR  (TACET_CHILD_FIRST_FREE + 1)
#define SLOT_IRQ  (TACET_CHILD_FIRST_FREE + 2)
#define SLOT_NTFN (TACET_CHILD_FIRST_FREE + 3)
#define IRQ_BADGE   1
#define TIMER_BADGE 2
#define LOST_NS     1000000000ull /* 1 s */

#define QUEUE_ENTRIES   16
#define SQ_ENTRY        64
#define CQ_ENTRY        16
#define QUEUE_PAGES     3 /* submission queue, completion queue, the Identify data */
#define IDENTIFY_ROUNDS 100
#define OPC_IDENTIFY    0x06
#define CNS_CONTROLLER  1
#define CQE_PHASE       (1u << 16)

/* Claims the controller, maps BAR0, bus mastering on, vector 0 as a line on this hart, bound.
 * 0 or a negative TACET_E* code; *line the line's number. */
static long open_controller(unsigned long *line)
{
	struct tacet_pci_device dev;
	struct tacet_self self;
	unsigned long pa, pages, va = 0;
	long err = tacet_lookup("pci", SLOT_PCI, 10000);

	tacet_self(&self);
	if (!err)
		err = tacet_pci_claim(SLOT_PCI, NVME_VENDOR, NVME_DEVICE, 0, SLOT_BAR, &dev);
	if (!err)
		err = tacet_frame_info(SLOT_BAR, &pa, &pages);
	if (!err)
		err = (va = tacet_va_alloc(pages)) ? tacet_map(TACET_CHILD_SELF, SLOT_BAR, va,
							       TACET_RIGHT_READ | TACET_RIGHT_WRITE)
						   : -TACET_ENOMEM;
	if (!err) {
		regs = (volatile uint8_t *)va;
		tacet_dma_device(SLOT_BAR);
		err = tacet_pci_master(SLOT_PCI, NVME_VENDOR, NVME_DEVICE, 0);
	}
	if (!err)
		err = tacet_ntfn_new(SLOT_NTFN);
	if (!err)
		err = tacet_pci_msi(SLOT_PCI, NVME_VENDOR, NVME_DEVICE, 0, 0, self.hart, SLOT_IRQ, line);
	if (!err)
		err = tacet_irq_bind(SLOT_IRQ, SLOT_NTFN, IRQ_BADGE, 0);
	return err;
}

/* Identify command i into the submission queue's slot i % QUEUE_ENTRIES, the tail rung: the
 * completion's interrupt waited for (with a timer), its entry checked, the head rung and the
 * line acknowledged. 0, or a description of what went wrong. */
static const char *identify(const struct tacet_dma *q, unsigned int i, unsigned int dstrd)
{
	volatile uint32_t *sqe = (volatile uint32_t *)(q->va + SQ_ENTRY * (i % QUEUE_ENTRIES));
	volatile uint32_t *cqe = (volatile uint32_t *)(q->va + TACET_PAGE_SIZE +
						       CQ_ENTRY * (i % QUEUE_ENTRIES));
	uint32_t phase = (i / QUEUE_ENTRIES) % 2 ? 0 : CQE_PHASE; /* the controller's, this lap */
	long bits;

	for (unsigned int w = 0; w < SQ_ENTRY / 4; w++)
		sqe[w] = 0;
	sqe[0] = OPC_IDENTIFY | (i & 0xffff) << 16; /* the command id: i */
	sqe[6] = (uint32_t)(q->pa + 2 * TACET_PAGE_SIZE); /* PRP1 */
	sqe[7] = (uint32_t)((q->pa + 2 * TACET_PAGE_SIZE) >> 32);
	sqe[10] = CNS_CONTROLLER;
	__asm__ volatile("fence w, o" : : : "memory");
	reg_set(NVME_DOORBELLS, (i + 1) % QUEUE_ENTRIES);
	tacet_timer_set(SLOT_NTFN, TIMER_BADGE, tacet_time() + tacet_ns_to_ticks(LOST_NS));
	bits = tacet_wait(SLOT_NTFN);
	tacet_timer_set(SLOT_NTFN, TIMER_BADGE, 0);
	if (bits != IRQ_BADGE)
		return "no interrupt (the timer)";
	if ((cqe[3] & CQE_PHASE) != phase || (cqe[3] & 0xffff) != (i & 0xffff) || cqe[3] >> 17)
		return "a completion not this command's, or failed";
	reg_set(NVME_DOORBELLS + (4u << dstrd), (i + 1) % QUEUE_ENTRIES);
	return tacet_irq_ack(SLOT_IRQ, 1) ? "the ack refused" : NULL;
}

int main(void)
{
	struct tacet_dma q = { 0 };
	struct tacet_irq_info before = { 0 }, after = { 0 };
	unsigned long line = 0;
	const char *why = NULL;
	char model[41];
	unsigned int i = 0, dstrd;
	long err = open_controller(&line);
	uint32_t csts;

	if (!err)
		err = tacet_dma_alloc(QUEUE_PAGES * TACET_PAGE_SIZE, &q);
	if (err) {
		printf("nvmemsix: cannot open the controller: %s: FAIL\n", tacet_strerror(err));
		return 1;
	}
	dstrd = CAP_DSTRD(reg(NVME_CAP + 4));
	reg_set(NVME_AQA, (QUEUE_ENTRIES - 1) << 16 | (QUEUE_ENTRIES - 1));
	reg_set64(NVME_ASQ, q.pa);
	reg_set64(NVME_ACQ, q.pa + TACET_PAGE_SIZE);
	reg_set(NVME_CC, CC_IOSQES(6) | CC_IOCQES(4) | CC_EN);
	csts = wait_ready(CSTS_RDY);
	if (csts != CSTS_RDY) {
		printf("nvmemsix: the controller does not start (CSTS %#x): FAIL\n", csts);
		return 1;
	}
	tacet_info(TACET_INFO_IRQ, line, &before, sizeof(before));
	for (; i < IDENTIFY_ROUNDS && !why; i++)
		why = identify(&q, i, dstrd);
	tacet_info(TACET_INFO_IRQ, line, &after, sizeof(after));
	memcpy(model, (const void *)(q.va + 2 * TACET_PAGE_SIZE + 24), 40);
	model[40] = 0;
	printf("nvmemsix: the controller's model: %s\n", model);
	reg_set(NVME_CC, reg(NVME_CC) & ~CC_EN);
	wait_ready(0);
	if (why || after.count - before.count != IDENTIFY_ROUNDS) {
		printf("nvmemsix: command %u: %s (line %lu, count +%lu): FAIL\n", i - 1,
		       why ? why : "miscounted", line, (unsigned long)(after.count - before.count));
		return 1;
	}
	printf("nvmemsix: %d commands, each completion by its MSI-X interrupt (line %lu, count "
	       "+%lu): PASS\n", IDENTIFY_ROUNDS, line, (unsigned long)(after.count - before.count));
	return 0;
}
