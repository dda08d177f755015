/* panic.c: the one way the kernel stops on a broken invariant. The first hart to panic owns the
 * console from then on; the others are told to halt. Any context, interrupts masked. */
#include <stdarg.h>
#include "core/panic.h"
#include "core/console.h"
#include "core/hart.h"
#include "core/platform.h"

static uint32_t panicking;

static void panic_begin(void)
{
	if (__atomic_exchange_n(&panicking, 1, __ATOMIC_ACQ_REL))
		arch_halt(); /* another hart is already reporting */
	console_take_over();
	for (unsigned int i = 0; i < nharts; i++)
		if (&harts[i] != this_hart() && harts[i].online)
			hart_signal(&harts[i], IPI_HALT);
}

static _Noreturn void panic_end(void)
{
	kprintf("tacet: powering off after panic\n");
	platform_poweroff(PANIC_EXIT_CODE);
}

/* The report's first line; then the trap state (from a trap) or a backtrace from here. */
static _Noreturn void panic_report(const struct trap_frame *tf, const char *fmt, va_list ap)
{
	panic_begin();
	kprintf("\nPANIC on hart %u: ", this_hart()->id);
	kvprintf(fmt, ap);
	kprintf("\n");
	if (tf) {
		arch_dump_frame(tf);
	} else {
		kprintf("backtrace:\n");
		arch_backtrace(0, arch_current_fp(), 0, 32);
	}
	panic_end();
}

void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	panic_report(NULL, fmt, ap);
}

void panic_frame(const struct trap_frame *tf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	panic_report(tf, fmt, ap);
}
