/* sbi.c: the SBI calling convention (a7 extension, a6 function, a0-a5 arguments; a0 error, a1
 * value). Stateless; any context. */
#include "sbi.h"

#define SBI_SRST_SHUTDOWN 0
#define SBI_SRST_NO_REASON 0

static struct sbiret sbi_call(unsigned long ext, unsigned long fid, unsigned long a0,
			      unsigned long a1, unsigned long a2)
{
	register unsigned long r0 __asm__("a0") = a0;
	register unsigned long r1 __asm__("a1") = a1;
	register unsigned long r2 __asm__("a2") = a2;
	register unsigned long r6 __asm__("a6") = fid;
	register unsigned long r7 __asm__("a7") = ext;

	__asm__ volatile("ecall" : "+r"(r0), "+r"(r1) : "r"(r2), "r"(r6), "r"(r7) : "memory");
	return (struct sbiret){ (long)r0, (long)r1 };
}

void sbi_console_putchar(char c)
{
	sbi_call(SBI_EXT_LEGACY_PUTCHAR, 0, (unsigned char)c, 0, 0);
}

void sbi_set_timer(uint64_t deadline)
{
	sbi_call(SBI_EXT_TIME, 0, deadline, 0, 0);
}

struct sbiret sbi_send_ipi(unsigned long hart_mask, unsigned long hart_mask_base)
{
	return sbi_call(SBI_EXT_IPI, 0, hart_mask, hart_mask_base, 0);
}

struct sbiret sbi_hart_start(unsigned long hartid, unsigned long start_pa, unsigned long opaque)
{
	return sbi_call(SBI_EXT_HSM, 0, hartid, start_pa, opaque);
}

void sbi_shutdown(void)
{
	sbi_call(SBI_EXT_SRST, 0, SBI_SRST_SHUTDOWN, SBI_SRST_NO_REASON, 0);
	for (;;)
		__asm__ volatile("wfi");
}
