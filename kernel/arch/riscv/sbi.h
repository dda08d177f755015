/* sbi.h: calls into the SBI firmware (OpenSBI) that the RISC-V port uses. */
#ifndef ARCH_RISCV_SBI_H
#define ARCH_RISCV_SBI_H

#include <stdint.h>

enum sbi_ext {
	SBI_EXT_LEGACY_PUTCHAR = 0x01,
	SBI_EXT_TIME = 0x54494d45, /* "TIME" */
	SBI_EXT_IPI = 0x735049,    /* "sPI" */
	SBI_EXT_HSM = 0x48534d,    /* "HSM" */
	SBI_EXT_SRST = 0x53525354, /* "SRST" */
};

struct sbiret {
	long error;
	long value;
};

void sbi_console_putchar(char c);
void sbi_set_timer(uint64_t deadline);
struct sbiret sbi_send_ipi(unsigned long hart_mask, unsigned long hart_mask_base);
struct sbiret sbi_hart_start(unsigned long hartid, unsigned long start_pa, unsigned long opaque);
_Noreturn void sbi_shutdown(void);

#endif
