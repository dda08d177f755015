/* irqchip.h: the interrupt controller as the generic layer sees it: a table of the operations
 * for binding a line, registered once by the controller's driver (the PLIC in
 * kernel/arch/riscv/plic.c; a fake in tests/host). The four of every interrupt (claim,
 * complete, mask, unmask) are the port's inline arch_irq_*() instead (arch.h). Lines are
 * numbered 1..nr_irqs; harts by logical id. Every operation may be called from the top half
 * with interrupts masked, on any hart. */
#ifndef KERNEL_IRQ_IRQCHIP_H
#define KERNEL_IRQ_IRQCHIP_H

struct irqchip {
	const char *name;
	unsigned int nr_irqs;
	/* Route the line to exactly one hart (its context is the only one enabled for it). */
	void (*set_affinity)(unsigned int irq, unsigned int hart);
	/* The priority unmask gives the line (0 means the lowest, 1). */
	void (*set_priority)(unsigned int irq, unsigned int prio);
};

void irqchip_register(const struct irqchip *chip);
/* The registered controller (irq.c), NULL before one registers: for the layer's own files. */
extern const struct irqchip *irq_chip;

#endif
