/* cpu.c: this hart's state and interrupt mask, the idle wait, halting, the firmware console and
 * backtraces: the small arch_* primitives generic code uses everywhere. */
#include "arch.h"
#include "core/hart.h"
#include "lib/ksyms.h"
#include "core/console.h"
#include "layout.h"
#include "riscv.h"
#include "riscv_platform.h"
#include "sbi.h"
#include "trap.h"

/* Static: every hart may need it before its own stacks exist (see trap.S). */
#define OVERFLOW_STACK_SIZE 4096
static uint8_t overflow_stacks[MAX_HARTS][OVERFLOW_STACK_SIZE] __attribute__((aligned(16)));
extern const char boot_stack_top[];
#define BOOT_STACK_SIZE 16384

void arch_local_irq_enable(void)
{
	csr_set(sstatus, SSTATUS_SIE);
}

void arch_local_irq_disable(void)
{
	csr_clear(sstatus, SSTATUS_SIE);
}

uintptr_t arch_stack_pointer(void)
{
	uintptr_t sp;

	__asm__ volatile("mv %0, sp" : "=r"(sp));
	return sp;
}

void arch_halt(void)
{
	csr_write(sie, 0);
	for (;;)
		__asm__ volatile("wfi");
}

void arch_early_putc(char c)
{
	sbi_console_putchar(c);
}

void arch_firmware_poweroff(void)
{
	sbi_shutdown();
}

uintptr_t arch_overflow_stack_top(unsigned int id)
{
	return (uintptr_t)overflow_stacks[id] + OVERFLOW_STACK_SIZE;
}

/* Is [addr, addr + 16) inside a stack the kernel runs on? Guards the frame-pointer walk. */
static bool on_a_stack(uintptr_t addr)
{
	uintptr_t boot_top = (uintptr_t)boot_stack_top;
	uintptr_t ovf = (uintptr_t)overflow_stacks;

	if (addr & 7)
		return false;
	if (addr >= boot_top - BOOT_STACK_SIZE && addr + 16 <= boot_top)
		return true;
	if (addr >= ovf && addr + 16 <= ovf + sizeof(overflow_stacks))
		return true;
	return (long)addr >> STACKS_REGION_SHIFT == STACKS_REGION_TAG &&
	       ((addr >> STACK_SIZE_SHIFT) & 1) &&
	       ((addr + 15) >> STACK_SLOT_SHIFT) == (addr >> STACK_SLOT_SHIFT);
}

uintptr_t arch_current_fp(void)
{
	return (uintptr_t)__builtin_frame_address(0);
}

static void print_pc(uintptr_t pc)
{
	uintptr_t off;
	const char *name = ksyms_lookup(pc, &off);

	kprintf("  %#lx %s+%#lx\n", (unsigned long)pc, name ? name : "?",
		name ? (unsigned long)off : 0UL);
}

/* RISC-V frame records: fp points just above the saved ra (fp - 8) and the caller's fp (fp - 16).
 * A leaf function saves no ra: its record is only the caller's fp, at fp - 8. So for the trapped
 * function (pc, with its ra still in a register), a stack address at fp - 8 means a leaf: its
 * caller is ra and the walk goes on from that fp. */
void arch_backtrace(uintptr_t pc, uintptr_t fp, uintptr_t ra, int max_depth)
{
	if (pc) {
		print_pc(pc);
		if (fp && on_a_stack(fp - 8) && on_a_stack(((uintptr_t *)fp)[-1] - 16)) {
			print_pc(ra);
			fp = ((uintptr_t *)fp)[-1];
		}
	}
	for (int i = 0; i < max_depth && fp && on_a_stack(fp - 16); i++) {
		uintptr_t ret = ((uintptr_t *)fp)[-1];

		if (!ret)
			break;
		print_pc(ret);
		fp = ((uintptr_t *)fp)[-2];
	}
}
