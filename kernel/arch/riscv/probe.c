/* probe.c: the RISC-V port's device-tree probing (ISA extensions, then the timer, IPI and
 * interrupt controller probes: the PLIC or the AIA) and per-hart bring-up: stack switch,
 * interrupt enables, SBI HSM start. */
#include "arch.h"
#include "core/console.h"
#include "lib/fdt.h"
#include "core/hart.h"
#include "lib/kstring.h"
#include "layout.h"
#include "riscv.h"
#include "riscv_platform.h"
#include "sbi.h"

bool riscv_has_sstc;
bool riscv_has_zbb;
/* The claim register of a hart no controller gives one: reads 0, a claim finds nothing. */
static uint32_t no_claim;
extern const char secondary_entry[];
extern uint32_t secondaries_released;

/* Does an ISA string ("rv64imafdch_zicsr_sstc") name the multi-letter extension ext? */
static bool isa_has(const char *isa, const char *ext)
{
	size_t n = strlen(ext);

	for (const char *p = isa; *p; p++)
		if (*p == '_' && !strncmp(p + 1, ext, n) && (p[n + 1] == '_' || p[n + 1] == '\0'))
			return true;
	return false;
}

long riscv_intc_hartid(const struct fdt *fdt, uint32_t phandle)
{
	int intc = fdt_node_by_phandle(fdt, phandle);
	int cpu = intc >= 0 ? fdt_parent(fdt, intc) : -1;
	uint64_t hwid, unused;

	if (cpu < 0 || !fdt_node_is_compatible(fdt, intc, "riscv,cpu-intc") ||
	    fdt_reg(fdt, cpu, 0, &hwid, &unused) < 0)
		return -1;
	return (long)hwid;
}

/* Sstc and Zbb only if every hart has them: a hart without Sstc must not touch stimecmp, one
 * without Zbb takes clz for an illegal instruction. */
static void probe_isa(const struct fdt *fdt)
{
	int cpus = fdt_path(fdt, "/cpus");

	riscv_has_sstc = true;
	riscv_has_zbb = true;
	for (int n = fdt_first_child(fdt, cpus); n >= 0; n = fdt_next_sibling(fdt, n)) {
		const char *isa = fdt_prop_string(fdt, n, "riscv,isa");

		if (!fdt_node_is_enabled(fdt, n) || !isa)
			continue; /* not a hart (cpu-map) */
		if (!isa_has(isa, "sstc"))
			riscv_has_sstc = false;
		if (!isa_has(isa, "zbb"))
			riscv_has_zbb = false;
	}
}

int arch_platform_init(const struct fdt *fdt)
{
	int found;

	probe_isa(fdt);
	if (timer_probe(fdt) < 0 || ipi_probe(fdt) < 0)
		return -1;
	/* the controller the tree has: the PLIC, else the AIA's IMSIC and APLIC (each look walks
	 * the tree: the PLIC's first, the default machine's) */
	found = plic_probe(fdt);
	if (!found)
		found = aia_probe(fdt);
	if (!found)
		kprintf("tacet: no interrupt controller (PLIC or AIA) in the device tree; external "
			"interrupts are off\n");
	return found < 0 ? -1 : 0;
}

void arch_hart_init(struct hart *h)
{
	csr_write(sie, 0);
	arch_timer_set(UINT64_MAX);
	csr_clear(sip, SIP_SSIP);
	h->arch.irq_claim = &no_claim;
	plic_init_hart(h);
	aia_init_hart(h);
	/* user space may read cycle, time and instret itself (benchmarks, timestamps) */
	csr_write(scounteren, SCOUNTEREN_CY | SCOUNTEREN_TM | SCOUNTEREN_IR);
	csr_write(sie, SIE_SSIE | SIE_STIE | SIE_SEIE);
}

int arch_hart_start(struct hart *h)
{
	uintptr_t entry_pa = (uintptr_t)secondary_entry - KERNEL_LINK + arch_kernel_phys_start();
	struct sbiret ret;

	__atomic_store_n(&secondaries_released, 1, __ATOMIC_RELEASE);
	ret = sbi_hart_start(h->hwid, entry_pa, (unsigned long)h);

	return (int)ret.error;
}

void arch_switch_to_kernel_stack(struct hart *h, void (*fn)(void))
{
	/* zero ra and s0: the backtrace of the new stack ends at fn */
	__asm__ volatile("mv sp, %0\n"
			 "li s0, 0\n"
			 "li ra, 0\n"
			 "jr %1\n"
			 :
			 : "r"(h->kstack_top), "r"(fn)
			 : "memory");
	__builtin_unreachable();
}
