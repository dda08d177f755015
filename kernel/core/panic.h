/* panic.h: stop the machine with a report: message, trap state, backtrace, failure exit. */
#ifndef KERNEL_PANIC_H
#define KERNEL_PANIC_H

struct trap_frame;

/* Exit code QEMU reports (through the test device) after a panic. */
#define PANIC_EXIT_CODE 1

_Noreturn void panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A panic caused by a trap: also prints the trapped state and backtraces from it. */
_Noreturn void panic_frame(const struct trap_frame *tf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Debug builds (make DEBUG=1, the default) check the kernel's own rules on hot paths too. */
#ifdef CONFIG_DEBUG
#define KDEBUG 1
#else
#define KDEBUG 0
#endif

#define KASSERT(cond, ...)                                                                     \
	do {                                                                                   \
		if (!(cond))                                                                   \
			panic(__VA_ARGS__);                                                    \
	} while (0)

#endif
