/* timer.c: the RISC-V supervisor timer: the Sstc stimecmp CSR when every hart has Sstc (a CSR
 * write, no firmware call), SBI set_timer otherwise. Per-hart, no shared state after probing. */
#include "arch.h"
#include "fdt.h"
#include "riscv.h"
#include "riscv_platform.h"
#include "sbi.h"

int timer_probe(const struct fdt *fdt)
{
	(void)fdt; /* the timebase frequency is generic (kernel/platform.c) */
	return 0;
}

const char *arch_timer_name(void)
{
	return riscv_has_sstc ? "sstc stimecmp" : "sbi set_timer";
}

void arch_timer_set(uint64_t deadline)
{
	/* Writing a deadline in the future also clears a pending timer interrupt. */
	if (riscv_has_sstc)
		csr_write(0x14d, deadline);
	else
		sbi_set_timer(deadline);
}
