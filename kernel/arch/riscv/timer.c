/* timer.c: the RISC-V supervisor timer: the Sstc stimecmp CSR when every hart has Sstc (a CSR
 * write, no firmware call), SBI set_timer otherwise. Per-hart, no shared state after probing. */
#include "arch.h"
#include "lib/fdt.h"
#include "riscv.h"
#include "riscv_platform.h"
#include "sbi.h"

int timer_probe(const struct fdt *fdt)
{
	(void)fdt; /* the timebase frequency is generic (kernel/core/platform.c) */
	return 0;
}

const char *arch_timer_name(void)
{
	return riscv_has_sstc ? "sstc stimecmp" : "sbi set_timer";
}

/* arch_timer_set() without Sstc (the inline part is in arch_types.h). */
void arch_timer_set_sbi(uint64_t deadline)
{
	sbi_set_timer(deadline);
}
