/* edu_dev.h: QEMU's edu PCI device (1234:11e8, hw/misc/edu.c) as the edu servers and the
 * interrupt benchmarks use it: claimed from the PCI server, its BAR0 mapped, its INTx line bound
 * to a new notification (or, edu_open_msi, a message-signalled line: QEMU's edu has an MSI
 * capability, one message, sent at each raise while MSI is on, instead of asserting INTx).
 *
 * Registers (32-bit, BAR0): 0x00 identification (low byte 0xed), 0x04 liveness (reads back what
 * was written, inverted), 0x24 interrupt status, 0x60 raise (the written bits are or-ed into the
 * status and the interrupt asserted), 0x64 acknowledge (the written bits are cleared; the
 * interrupt is deasserted when none are left), 0x98 the DMA command (bit 0 set while a
 * transfer runs: 100 ms of virtual time, during which the DMA registers ignore writes).
 */
#ifndef EDU_DEV_H
#define EDU_DEV_H

#include <stdint.h>
#include <tacet/init_proto.h>

#define EDU_ID         (0x00 / 4)
#define EDU_LIVENESS   (0x04 / 4)
#define EDU_IRQ_STATUS (0x24 / 4)
#define EDU_IRQ_RAISE  (0x60 / 4)
#define EDU_IRQ_ACK    (0x64 / 4)
#define EDU_IRQ_BIT    0x1u
#define EDU_DMA_CMD32  (0x98 / 4) /* the DMA command, bit 0 while a transfer runs */
#define EDU_DMA_RUN    0x1u

/* The capability slots edu_open() fills; a server's own slots start at EDU_SLOT_FREE. */
enum edu_slot {
	EDU_SLOT_PCI = TACET_CHILD_FIRST_FREE, /* the PCI server's endpoint */
	EDU_SLOT_BAR,                          /* BAR0's frame */
	EDU_SLOT_IRQ,                          /* the line's IRQ handler capability */
	EDU_SLOT_NTFN,                         /* the notification the line signals */
	EDU_SLOT_FREE,
};

struct edu {
	volatile uint32_t *regs; /* BAR0, mapped */
	unsigned long irq;       /* the line's number */
	int msi;                 /* the line is message-signalled (edu_open_msi), not INTx */
	long index;              /* the device's index among the edu devices */
	unsigned long slot;      /* where its slots start (EDU_SLOT_PCI for edu_open's) */
};

/* Claims the first edu device no other server has claimed (waiting up to 10 s for one to be
 * released if all are claimed), maps its BAR0 (the whole frame) at an address from tacet_va_alloc,
 * waits for a DMA transfer a previous driver left running to end and clears any interrupt
 * status that driver left, binds the line to the notification (shared, with badge), then
 * checks the device answers.
 * Returns 0, or prints `edu: cannot STEP: ERROR` and returns a negative TACET_E* code. */
long edu_open(struct edu *e, unsigned long badge);
/* The same with the INTx line bound alone (not TACET_IRQ_SHARED): no other driver may bind it. */
long edu_open_alone(struct edu *e, unsigned long badge);
/* The same with a message-signalled interrupt (PCI_MSI, on this driver's hart) where the
 * machine has them (the AIA's), bound alone; on the PLIC's machine the INTx line. */
long edu_open_msi(struct edu *e, unsigned long badge);
/* The device's interrupt to hart: its INTx line's affinity, or its message-signalled line
 * moved and the device reprogrammed by pci (PCI_MSI_MOVE). 0 or a negative TACET_E* code. */
long edu_move(struct edu *e, unsigned long hart);
/* The same with the device's slots from first_slot on, in enum edu_slot's order (first_slot +
 * EDU_SLOT_IRQ - EDU_SLOT_PCI is its line, and so on), for a server driving more than one. */
long edu_open_at(struct edu *e, unsigned long badge, unsigned long first_slot);

#endif
