/* arch.h: the one interface between generic kernel code and the architecture port.
 * Generic code includes this, never a header under kernel/arch/. The RISC-V port implements it
 * in kernel/arch/riscv/. Unless a comment says otherwise, call with interrupts masked. */
#ifndef KERNEL_ARCH_H
#define KERNEL_ARCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "arch_types.h" /* kernel/arch/<arch>/include: struct trap_frame and its accessors */

struct fdt;
struct hart;

/* --- this hart and its interrupt mask: arch_this_hart(), arch_irqs_masked() (arch_types.h) --- */
/* Only for irq_enable_in_hardirq(): open / close this hart's interrupt window in a handler. */
void arch_local_irq_enable(void);
void arch_local_irq_disable(void);
uintptr_t arch_stack_pointer(void);
/* arch_irq_external_pending() (arch_types.h): the controller holds an external interrupt for
 * this hart (from a line it does not mask): a system call that has just unmasked a line takes
 * it at once instead of leaving for user mode to be interrupted (irq.c). */
/* The controller's operations of every interrupt (inline, arch_types.h; the rest of the
 * controller is the struct irqchip it registers, irq/irqchip.h), a hart named by its struct
 * arch_hart (struct hart's `arch`: &me->arch):
 *   arch_irq_claim(a): this hart's next pending line, 0 if none (another hart took it);
 *   arch_irq_complete(a, irq): the claimed line is done (it may interrupt again);
 *   arch_irq_mask(irq) / arch_irq_unmask(irq): keep it from interrupting / let it;
 *   arch_irq_hold(irq): a message-signalled line (an edge) claimed while it was not IDLE:
 *       the controller keeps that interrupt, masked, and gives it again at the next unmask.
 * A message-signalled line is masked lazily: arch_irq_mask leaves it able to interrupt, and
 * only a message that comes while it is not IDLE masks it (arch_irq_hold), so the common
 * interrupt costs neither a mask nor an unmask. */
/* The controller's state of this hart that another hart changed (IPI_IRQ: the AIA's enables of
 * message-signalled lines in this hart's file) made real. On the hart, interrupts masked. */
void arch_irq_sync_hart(void);
/* The idle loop's wait: sleep (interrupts stay masked) until an interrupt is pending, and
 * handle what is pending. */
void arch_idle_wait(void);
/* Stop this hart for good (panic on another hart, or nothing left to do). */
_Noreturn void arch_halt(void);

/* --- early console and last-resort power off (firmware), before the device tree is known --- */
void arch_early_putc(char c);
_Noreturn void arch_firmware_poweroff(void);

/* --- board bring-up --- */
/* Read what the port needs from the device tree (ISA extensions, timer and IPI devices, the
 * interrupt controller). Returns 0, or prints why and returns -1. Boot hart only. */
int arch_platform_init(const struct fdt *fdt);
/* Names of the mechanisms chosen, for the boot banner. */
const char *arch_timer_name(void);
const char *arch_ipi_name(void);
/* Map len bytes of device registers at physical pa; returns their kernel virtual address. */
void *arch_map_device(uint64_t pa, uint64_t len);
uintptr_t arch_phys_to_virt(uint64_t pa);

/* --- memory: the kernel's own page tables (boot hart, before secondaries start) --- */
/* Reach [pa, pa+len) through the direct map while still on the boot page table. */
void arch_boot_map_direct(uint64_t pa, uint64_t len);
/* Build the final page tables (W^X image, direct map of the RAM ranges) and switch to them. */
struct phys_range;
void arch_vm_init(const struct phys_range *ram, int nram);
/* Physical extent of the kernel image. */
uint64_t arch_kernel_phys_start(void);
uint64_t arch_kernel_phys_end(void);

/* --- user address spaces (roots are physical addresses of top-level tables) --- */
/* A new address space sharing the kernel half; 0 when out of memory. */
uint64_t arch_aspace_new(void);
/* Map one 4 KiB page with TACET_RIGHT_READ/WRITE and TACET_MAP_EXEC. Returns how many page-table
 * pages it had to add (0..ARCH_MAP_TABLES_MAX, freed with the address space), or -TACET_E*. */
int arch_aspace_map(uint64_t root, uintptr_t va, uint64_t pa, unsigned int rights);
int arch_aspace_unmap(uint64_t root, uintptr_t va, uint64_t *pa);
/* Physical address of user va if mapped user-accessible with `need` rights; else -TACET_EFAULT. */
int arch_aspace_lookup(uint64_t root, uintptr_t va, unsigned int need, uint64_t *pa);
void arch_aspace_free(uint64_t root);
/* The same in steps (a process's end, one step of the reaper each: a user sizes its tables),
 * each looking at a bounded number of entries from *pos on (start it at 0) and freeing at most
 * one table page, the deepest first; true once root itself is freed. Nobody may run on root. */
bool arch_aspace_free_step(uint64_t root, uint64_t *pos);
/* Forget this hart's cached translations. */
void arch_tlb_flush_local(void);
/* Run on root (0: the kernel's own tables): arch_aspace_activate(root), in arch_types.h
 * (inline: every thread switch asks, and within one process it is a no-op). */
/* If this hart runs on root, move it to the kernel's own tables (root is about to go). */
void arch_aspace_deactivate(uint64_t root);
/* Highest user address + 1. */
uintptr_t arch_user_top(void);
/* The kernel stored into a user page that may hold instructions (through the direct map): this
 * hart fetches them anew. Another hart's own fetches are its own (fence.i is per hart); QEMU's
 * TCG, which retranslates a written page on every hart, needs nothing more. */
void arch_user_text_changed(void);

/* --- user threads --- */
/* A fresh user context: pc, sp, a0 = arg, user mode, interrupts on in user mode. */
void arch_ctx_init_user(struct trap_frame *tf, uintptr_t pc, uintptr_t sp, unsigned long arg);
/* Leave the kernel into the user context tf (on this hart's kernel stack). */
_Noreturn void arch_return_to_user(struct trap_frame *tf);
/* Floating-point state across thread switches: arch_fp_save(), arch_fp_restore() (inline, in
 * arch_types.h): save if the thread dirtied it, restore if its FPU is on. */
/* A user thread's first FPU instruction traps (the FPU starts off): if tf is such a trap, turn
 * the thread's FPU on and return true (retry the instruction). */
bool arch_fp_trap(struct trap_frame *tf, const struct fp_state *fp);
/* The port's trap vector calls the generic kernel's entry for the cause (core/entry.h):
 * trap_syscall, trap_external (the interrupt controller's), trap_interrupt (any other: the
 * timer, an IPI, which the generic entry hands back to the port here) and trap_exception. */
void arch_trap_interrupt(struct trap_frame *tf);
/* Handle what is pending on this hart as the idle wait does (arch_interrupts_pending(), inline
 * in arch_types.h, says whether anything is), interrupts staying masked: from a preemption
 * point (bkl_yield), not holding the BKL. */
void arch_take_pending_interrupts(void);

/* --- harts --- */
/* Allocate and map h's guarded kernel and interrupt stacks. Returns 0 or -1 (no memory). */
int arch_hart_stacks_init(struct hart *h);
/* Move the boot hart onto its guarded kernel stack and call fn there; does not return. */
_Noreturn void arch_switch_to_kernel_stack(struct hart *h, void (*fn)(void));
/* Per-hart interrupt set-up (enable timer, IPI, external sources). On the hart itself. */
void arch_hart_init(struct hart *h);
/* Start secondary hart h (SBI HSM); it enters hart_main(). Returns 0 or an SBI error. */
int arch_hart_start(struct hart *h);

/* --- time and IPIs --- */
/* arch_time_now(): timebase ticks, arch_cycles(), and arch_timer_set(deadline): one-shot,
 * this hart, UINT64_MAX disarms; all inline in arch_types.h */
void arch_ipi_send(const struct hart *target);
/* Sleep (interrupts stay masked) until an IPI is pending on this hart, and take it: it will
 * not trap later. Other interrupts pending here do not end the wait and stay pending. For a
 * waiter that is woken by IPIs alone (the BKL's, bkl.c); arch_ipi_raise_self() makes an IPI
 * pending again, to be taken as one once interrupts are open, for requests that came with it
 * (hart_signal). A spin-wait's pause between two looks: arch_cpu_relax() (inline,
 * arch_types.h). */
void arch_ipi_wait(void);
void arch_ipi_raise_self(void);

/* --- external interrupts: the controller registers a struct irqchip (kernel/irq/irqchip.h) --- */

/* --- diagnostics --- */
/* arch_mark(n) (inline, arch_types.h): one instruction that does nothing, n telling it apart,
 * for a tool that watches the instruction stream (the test kernel's BKL hold markers,
 * test/ktest.h). */
void arch_dump_frame(const struct trap_frame *tf);
/* Print pc, then walk frame pointers from fp, printing at most max_depth return addresses as
 * symbols; ra is the return address register at pc (for a leaf function), or 0. */
void arch_backtrace(uintptr_t pc, uintptr_t fp, uintptr_t ra, int max_depth);
uintptr_t arch_current_fp(void);

#endif
