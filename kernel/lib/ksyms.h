/* ksyms.h: the kernel's own text symbols, for backtraces (table generated at link time). */
#ifndef KERNEL_KSYMS_H
#define KERNEL_KSYMS_H

#include <stdint.h>

/* The name of the function containing addr and addr's offset in it; NULL if unknown. */
const char *ksyms_lookup(uintptr_t addr, uintptr_t *offset);

#endif
