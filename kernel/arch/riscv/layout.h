/* layout.h: the kernel's Sv39 virtual address map; shared by C, assembly and the linker script.
 *
 *   0xffffffc000000000  direct map of physical memory and device MMIO (va = pa + DIRECT_MAP_BASE)
 *   0xffffffd000000000  per-hart stacks: 32 KiB slots, low half an unmapped guard, high half stack
 *   0xffffffff80000000  kernel image (linked at +0x200000, where OpenSBI loads it)
 *
 * Everything below 0x0000004000000000 is left to user space.
 */
#ifndef ARCH_RISCV_LAYOUT_H
#define ARCH_RISCV_LAYOUT_H

#define USER_VA_TOP     0x0000004000000000 /* user addresses are below this */
#define DIRECT_MAP_BASE 0xffffffc000000000
#define DIRECT_MAP_SIZE 0x0000001000000000 /* 64 GiB of physical address space */
#define STACKS_BASE     0xffffffd000000000
/* sp >> STACKS_REGION_SHIFT equals this (sign-extended) for any address in the stack region */
#define STACKS_REGION_SHIFT 36
#define STACKS_REGION_TAG   (-3)
#define KERNEL_VBASE    0xffffffff80000000
#define KERNEL_LINK     0xffffffff80200000

/* A stack slot is 2^STACK_SLOT_SHIFT bytes: [guard | stack], so bit STACK_SIZE_SHIFT of any
 * address inside the stack is 1 and inside the guard is 0: the trap entry tests that one bit. */
#define STACK_SIZE_SHIFT 14
#define STACK_SIZE       (1 << STACK_SIZE_SHIFT) /* 16 KiB */
#define STACK_SLOT_SHIFT (STACK_SIZE_SHIFT + 1)
#define STACK_SLOT_SIZE  (1 << STACK_SLOT_SHIFT)
#define STACK_SLOTS_PER_HART 2 /* kernel stack, interrupt stack */

#endif
