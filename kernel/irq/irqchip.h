/* irqchip.h: the interrupt controller as the generic layer sees it: a table of the operations
 * for binding a line, registered once by the controller's driver (the PLIC in
 * kernel/arch/riscv/plic.c; a fake in tests/host). The four of every interrupt (claim,
 * complete, mask, unmask) are the port's inline arch_irq_*() instead (arch.h). Lines are
 * numbered 1..nr_irqs; harts by logical id. Every operation may be called from the top half
 * with interrupts masked, on any hart. A controller that takes message-signalled interrupts
 * (the AIA's IMSIC) has nr_msi more lines after the wired ones, nr_irqs + 1 .. nr_irqs +
 * nr_msi, which it lends to devices with msi_alloc; the others leave nr_msi 0 and the three
 * msi_ operations NULL. The BKL is held around every msi_ operation. */
#ifndef KERNEL_IRQ_IRQCHIP_H
#define KERNEL_IRQ_IRQCHIP_H

#include <stdint.h>

struct irqchip {
	const char *name;
	unsigned int nr_irqs;
	/* Route the line to exactly one hart (its context is the only one enabled for it). */
	void (*set_affinity)(unsigned int irq, unsigned int hart);
	/* The priority unmask gives the line (0 means the lowest, 1). */
	void (*set_priority)(unsigned int irq, unsigned int prio);
	unsigned int nr_msi;
	/* A free message-signalled line aimed at hart's file, masked, nothing pending: its
	 * number, and in *addr and *data the write that raises it; -TACET_ENOMEM if none is
	 * free. */
	long (*msi_alloc)(unsigned int hart, uint64_t *addr, uint32_t *data);
	/* The address that raises line irq on hart's file (its data stays). */
	uint64_t (*msi_address)(unsigned int irq, unsigned int hart);
	/* Line irq is free again: disabled in every file, what is pending there dropped (each
	 * counted spurious, irq_spurious_add, by the hart that holds it). */
	void (*msi_free)(unsigned int irq);
};

void irqchip_register(const struct irqchip *chip);
/* The registered controller (irq.c), NULL before one registers: for the layer's own files. */
extern const struct irqchip *irq_chip;
/* For the controller: n interrupts it took that nobody will be given (irq_spurious()'s count).
 * Any hart, any context. */
void irq_spurious_add(unsigned int n);

#endif
