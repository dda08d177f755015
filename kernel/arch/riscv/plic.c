/* plic.c: the platform-level interrupt controller (RISC-V PLIC spec 1.0), S-mode contexts only.
 * It implements struct irqchip for kernel/irq/ (which owns the line protocol) and gives the
 * inline operations of every interrupt (arch_irq_*, arch_types.h) their registers. ctx_of[],
 * the base and the registers are set at probe time and read-only after; enable words are
 * changed with atomics, since two harts may route different lines of one word at once. */
#include "arch.h"
#include "core/console.h"
#include "lib/fdt.h"
#include "core/hart.h"
#include "irq/irqchip.h"
#include "riscv_platform.h"

#define PLIC_PRIORITY(irq)   (4 * (irq))
#define PLIC_PRIORITY_MIN    1  /* 0 would mean never interrupt */
#define PLIC_ENABLE(ctx)     (0x2000 + 0x80 * (ctx))
#define PLIC_THRESHOLD(ctx)  (0x200000 + 0x1000 * (ctx))
#define PLIC_CLAIM(ctx)      (0x200004 + 0x1000 * (ctx))
#define PLIC_MAX_SOURCES     1024
#define INTC_S_EXTERNAL      9  /* a cpu-intc's supervisor external interrupt */

static volatile uint8_t *plic_base;
static uint32_t plic_ndev;
static int ctx_of[MAX_HARTS] = { [0 ... MAX_HARTS - 1] = -1 }; /* by logical hart id */
/* read by the inline operations of every interrupt (arch_types.h) */
volatile uint32_t *plic_priority_reg;
uint32_t plic_line_priority[PLIC_MAX_SOURCES];

static struct irqchip plic_chip; /* the operations, defined below */

static volatile uint32_t *reg(uint32_t off)
{
	return (volatile uint32_t *)(plic_base + off);
}

int plic_probe(const struct fdt *fdt)
{
	int n = fdt_find_compatible(fdt, -1, "riscv,plic0");
	const uint8_t *ext;
	uint32_t len;
	uint64_t pa, size;

	if (n < 0)
		n = fdt_find_compatible(fdt, -1, "sifive,plic-1.0.0");
	if (n < 0)
		return 0;
	ext = fdt_getprop(fdt, n, "interrupts-extended", &len);
	if (fdt_reg(fdt, n, 0, &pa, &size) < 0 || !fdt_prop_u32(fdt, n, "riscv,ndev", &plic_ndev) ||
	    !ext || len % 8 || plic_ndev >= PLIC_MAX_SOURCES) {
		kprintf("tacet: bad device tree: malformed PLIC node\n");
		return -1;
	}
	/* Context i is the i-th (cpu-intc, interrupt) pair; keep each hart's S-mode one. */
	for (uint32_t i = 0; i < len / 8; i++) {
		long hwid = riscv_intc_hartid(fdt, fdt_be32(ext + 8 * i));

		if (fdt_be32(ext + 8 * i + 4) != INTC_S_EXTERNAL)
			continue;
		for (unsigned int h = 0; h < nharts; h++)
			if ((long)harts[h].hwid == hwid)
				ctx_of[h] = (int)i;
	}
	plic_base = arch_map_device(pa, size);
	plic_priority_reg = reg(PLIC_PRIORITY(0));
	for (uint32_t irq = 0; irq <= plic_ndev; irq++)
		plic_line_priority[irq] = PLIC_PRIORITY_MIN; /* never 0: unmask writes it as it is */
	plic_chip.nr_irqs = plic_ndev;
	irqchip_register(&plic_chip);
	return 1;
}

/* Each hart starts with every source disabled in its context and threshold 0. */
void plic_init_hart(const struct hart *h)
{
	int ctx = ctx_of[h->id];

	if (!plic_base || ctx < 0)
		return;
	for (uint32_t word = 0; word <= plic_ndev / 32; word++)
		*reg(PLIC_ENABLE(ctx) + 4 * word) = 0;
	*reg(PLIC_THRESHOLD(ctx)) = 0;
	harts[h->id].arch.irq_claim = reg(PLIC_CLAIM(ctx));
}

static void plic_set_priority(unsigned int irq, unsigned int prio)
{
	plic_line_priority[irq] = prio ? prio : PLIC_PRIORITY_MIN;
}

/* Exactly one context enabled for the line: the hart's. Enable the new one before disabling the
 * others, so a pending line always has a context to be claimed from. */
static void plic_set_affinity(unsigned int irq, unsigned int hart)
{
	uint32_t bit = 1u << (irq % 32);

	if (ctx_of[hart] >= 0)
		__atomic_fetch_or(reg(PLIC_ENABLE(ctx_of[hart]) + 4 * (irq / 32)), bit,
				  __ATOMIC_RELAXED);
	for (unsigned int h = 0; h < nharts; h++)
		if (h != hart && ctx_of[h] >= 0)
			__atomic_fetch_and(reg(PLIC_ENABLE(ctx_of[h]) + 4 * (irq / 32)), ~bit,
					   __ATOMIC_RELAXED);
}

static struct irqchip plic_chip = {
	.name = "plic",
	.set_affinity = plic_set_affinity,
	.set_priority = plic_set_priority,
};
