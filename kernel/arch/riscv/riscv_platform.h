/* riscv_platform.h: what the RISC-V port reads from the device tree, shared by its files. */
#ifndef ARCH_RISCV_PLATFORM_H
#define ARCH_RISCV_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

struct fdt;
struct hart;

/* riscv_has_sstc (every hart's ISA string has Sstc) is in arch_types.h: arch_timer_set(). */

int timer_probe(const struct fdt *fdt);
int ipi_probe(const struct fdt *fdt);
/* plic.c, aia.c: 1 if the tree has the controller (registered), 0 if not, -1 if malformed. */
int plic_probe(const struct fdt *fdt);
void plic_init_hart(const struct hart *h);
int aia_probe(const struct fdt *fdt); /* an S-level IMSIC and its APLIC */
void aia_init_hart(struct hart *h);
/* IPIs through the IMSIC (aia.c), when aia_ipi: every hart has a file. */
extern bool aia_ipi;
void aia_ipi_send(const struct hart *target);
void aia_ipi_wait(void);
void aia_idle_external(void); /* arch_idle_wait's external interrupt with IMSIC IPIs */

/* Top of hart id's static overflow stack (cpu.c), used once a guard page is hit. */
uintptr_t arch_overflow_stack_top(unsigned int id);

/* The hart id of a "riscv,cpu-intc" node's cpu, found by phandle; -1 if it is not one. */
long riscv_intc_hartid(const struct fdt *fdt, uint32_t phandle);

#endif
