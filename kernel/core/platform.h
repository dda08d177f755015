/* platform.h: the board as the device tree describes it: RAM, reserved memory, harts, boot
 * arguments, the power-off device. Filled once by the boot hart, read-only afterwards. */
#ifndef KERNEL_PLATFORM_H
#define KERNEL_PLATFORM_H

#include <stdint.h>
#include "lib/fdt.h"
#include "mm/page_alloc.h"

#define PLATFORM_MAX_RAM  8
#define PLATFORM_MAX_RESV 16

struct platform {
	struct fdt fdt;
	uint64_t dtb_pa;
	struct phys_range ram[PLATFORM_MAX_RAM];
	int nram;
	struct phys_range resv[PLATFORM_MAX_RESV]; /* memreserve, /reserved-memory, the DTB */
	int nresv;
	uint64_t timebase_hz;
	const char *bootargs;
	int soc; /* the /soc node's offset in fdt (-1: none): the devices the root server is given */
	uint64_t initrd_start, initrd_end; /* the boot module archive (QEMU -initrd); 0 if none */
};

extern struct platform platform;

/* Validate the DTB at dtb_pa and read the board from it. On a malformed or unusable tree,
 * prints what is wrong and powers off (there is nothing to run on). Boot hart, once. */
void platform_init(uint64_t dtb_pa);
/* After the kernel's page tables are up: find the power-off device. */
void platform_init_devices(void);
/* Print the devices the tree describes (for the boot banner). */
void platform_print_devices(void);
/* The value of "key=value" in the boot arguments, copied to buf; NULL if absent. */
const char *platform_bootarg(const char *key, char *buf, int size);
/* Power off through the test device: code 0 is success, anything else a failure QEMU reports
 * as its exit status. Falls back to the firmware (which cannot report failure). */
_Noreturn void platform_poweroff(int code);

#endif
