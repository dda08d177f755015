/* plic.c: the platform-level interrupt controller (RISC-V PLIC spec 1.0), S-mode contexts only.
 * This first version claims, hands the line to irq_handle() and completes; the masking protocol,
 * affinity changes and priorities come with the interrupt layer. ctx_of[] and the base are set
 * at probe time and read-only after. */
#include "arch.h"
#include "console.h"
#include "fdt.h"
#include "hart.h"
#include "irq/irq.h"
#include "riscv_platform.h"
#include "trap.h"

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
	if (n < 0) {
		kprintf("tacet: no PLIC in the device tree; external interrupts are off\n");
		return 0;
	}
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
	return 0;
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
}

void plic_handle(void)
{
	struct hart *me = this_hart();
	int ctx = ctx_of[me->id];
	uint32_t irq;

	if (ctx < 0)
		return;
	me->ext_irqs++;
	irq = *reg(PLIC_CLAIM(ctx));
	if (irq == 0)
		return; /* another hart claimed it first */
	irq_handle(irq);
	*reg(PLIC_CLAIM(ctx)) = irq;
}

void arch_irq_enable(unsigned int irq, const struct hart *h)
{
	int ctx = ctx_of[h->id];

	if (!plic_base || ctx < 0 || irq == 0 || irq > plic_ndev)
		return;
	*reg(PLIC_PRIORITY(irq)) = PLIC_PRIORITY_MIN;
	*reg(PLIC_ENABLE(ctx) + 4 * (irq / 32)) |= 1u << (irq % 32);
}

void arch_irq_mask(unsigned int irq)
{
	if (plic_base && irq && irq <= plic_ndev)
		*reg(PLIC_PRIORITY(irq)) = 0;
}

void arch_irq_unmask(unsigned int irq)
{
	if (plic_base && irq && irq <= plic_ndev)
		*reg(PLIC_PRIORITY(irq)) = PLIC_PRIORITY_MIN;
}
