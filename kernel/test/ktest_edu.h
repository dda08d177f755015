/* ktest_edu.h: QEMU's edu PCI devices as the in-kernel tests use them (ktest_edu.c sets them
 * up; ktest_masked.c uses them too): no PCI server, the kernel's own fast handlers. */
#ifndef KERNEL_TEST_KTEST_EDU_H
#define KERNEL_TEST_KTEST_EDU_H

#include <stdint.h>

#define EDU_IRQ_STATUS (0x24 / 4)
#define EDU_IRQ_RAISE  (0x60 / 4)
#define EDU_IRQ_ACK    (0x64 / 4)

struct edu_dev {
	volatile uint32_t *regs;
	unsigned int irq;
};

/* Finds up to n edus on bus 0 (the host bridge's ECAM registers), enables their BAR0s one after
 * the other from the 32-bit window's start and looks each INTA line up in the interrupt-map;
 * returns how many it found. */
unsigned int edu_setup(struct edu_dev *edus, unsigned int n);
/* Clears the device's interrupt status: its line goes down. */
void edu_ack(const struct edu_dev *e);

#endif
