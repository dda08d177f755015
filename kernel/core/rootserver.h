/* rootserver.h: starting init, the root server, from the boot module archive. */
#ifndef KERNEL_ROOTSERVER_H
#define KERNEL_ROOTSERVER_H

/* QEMU's exit status when init cannot be started (bad boot input): nothing else would ever run,
 * so the kernel powers off rather than idle. The others: 0 success, 1 a panic (panic.h), 2 a
 * failed in-kernel test (ktest.c), 3 init ended with a failure (process.c). */
#define ROOTSERVER_FAIL_EXIT_CODE 4

/* Load module "init", give it its capabilities and boot information, make its thread ready.
 * Boot hart, with the BKL held, once every hart is online. Returns 0, or -1 after saying why
 * (no archive, a malformed one, no init, a malformed ELF, no memory). */
int rootserver_start(void);

#endif
