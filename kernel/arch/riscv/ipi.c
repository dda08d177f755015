/* ipi.c: inter-hart interrupts: the ACLINT SSWI device ("riscv,aclint-sswi": one 32-bit
 * SETSSIP register per hart, a store raises that hart's supervisor software interrupt) when the
 * tree has one, else the AIA's IMSIC files when every hart has one (an identity stored into the
 * target's file: aia.c), else SBI send_ipi. sswi_reg[] is filled at probe time, read-only
 * after. */
#include "arch.h"
#include "core/console.h"
#include "lib/fdt.h"
#include "core/hart.h"
#include "riscv.h"
#include "riscv_platform.h"
#include "sbi.h"

#define SSWI_REG_SIZE 4
#define INTC_SOFT_IRQ 1  /* a cpu-intc's supervisor software interrupt */

static volatile uint32_t *sswi_reg[MAX_HARTS]; /* by logical hart id */
static bool use_sswi;

static struct hart *hart_by_hwid(long hwid)
{
	for (unsigned int i = 0; i < nharts; i++)
		if ((long)harts[i].hwid == hwid)
			return &harts[i];
	return 0;
}

/* The SSWI's interrupts-extended lists (cpu-intc phandle, 1) per hart in register order. */
int ipi_probe(const struct fdt *fdt)
{
	int n = fdt_find_compatible(fdt, -1, "riscv,aclint-sswi");
	const uint8_t *ext;
	uint32_t len;
	uint64_t pa, size;
	volatile uint8_t *base;
	unsigned int found = 0;

	if (n < 0 || !fdt_node_is_enabled(fdt, n) || fdt_reg(fdt, n, 0, &pa, &size) < 0)
		return 0;
	ext = fdt_getprop(fdt, n, "interrupts-extended", &len);
	if (!ext || len % 8)
		return 0;
	base = arch_map_device(pa, size);
	for (uint32_t i = 0; i < len / 8; i++) {
		struct hart *h = hart_by_hwid(riscv_intc_hartid(fdt, fdt_be32(ext + 8 * i)));

		if (h && fdt_be32(ext + 8 * i + 4) == INTC_SOFT_IRQ && (i + 1) * SSWI_REG_SIZE <= size) {
			sswi_reg[h->id] = (volatile uint32_t *)(base + i * SSWI_REG_SIZE);
			found++;
		}
	}
	/* All or nothing: a hart the SSWI cannot reach would never be woken. */
	use_sswi = found == nharts;
	return 0;
}

const char *arch_ipi_name(void)
{
	return use_sswi ? "aclint sswi" : aia_ipi ? "imsic" : "sbi send_ipi";
}

void arch_ipi_send(const struct hart *target)
{
	if (use_sswi) {
		/* the request words written before must be visible before the device store */
		__asm__ volatile("fence w, o" : : : "memory");
		*sswi_reg[target->id] = 1;
	} else if (aia_ipi) {
		aia_ipi_send(target);
	} else {
		sbi_send_ipi(1, target->hwid);
	}
}

void arch_ipi_wait(void)
{
	unsigned long enabled;

	if (!use_sswi && aia_ipi) {
		aia_ipi_wait();
		return;
	}
	enabled = csr_read(sie);
	/* only an IPI ends this wait: the timer or a device line pending here would end every
	 * wfi at once and turn the sleep into a spin (they are taken after the BKL, as before) */
	csr_write(sie, SIE_SSIE);
	__asm__ volatile("wfi" : : : "memory");
	csr_write(sie, enabled);
	csr_clear(sip, SIP_SSIP);
}

void arch_ipi_raise_self(void)
{
	csr_set(sip, SIP_SSIP);
}
