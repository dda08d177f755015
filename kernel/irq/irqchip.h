/* irqchip.h: the interrupt controller as the generic layer sees it: a table of operations,
 * registered once by the controller's driver (the PLIC in kernel/arch/riscv/plic.c; a fake in
 * tests/host). Lines are numbered 1..nr_irqs; harts by logical id. Every operation may be
 * called from the top half with interrupts masked, on any hart. */
#ifndef KERNEL_IRQ_IRQCHIP_H
#define KERNEL_IRQ_IRQCHIP_H

struct irqchip {
	const char *name;
	unsigned int nr_irqs;
	/* Keep the line from interrupting / let it, without changing its routing. */
	void (*mask)(unsigned int irq);
	void (*unmask)(unsigned int irq);
	/* Route the line to exactly one hart (its context is the only one enabled for it). */
	void (*set_affinity)(unsigned int irq, unsigned int hart);
	void (*set_priority)(unsigned int irq, unsigned int prio);
	/* This hart's next pending line (0: none; another hart took it); and its completion. */
	unsigned int (*claim)(unsigned int hart);
	void (*complete)(unsigned int hart, unsigned int irq);
};

void irqchip_register(const struct irqchip *chip);

#endif
