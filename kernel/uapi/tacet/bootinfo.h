/* bootinfo.h: what the kernel hands the root server (init) at start: a read-only page at
 * TACET_BOOTINFO_VADDR, whose address init also receives in a0. Capabilities are slots in
 * init's capability table. */
#ifndef TACET_BOOTINFO_H
#define TACET_BOOTINFO_H

#define TACET_BOOTINFO_MAGIC 0x54414345544249ul /* "TACETBI" */
#define TACET_BOOTINFO_VADDR 0x0000000000001000ul
#define TACET_MODULES_VADDR  0x0000001000000000ul /* the module archive, read-only */
#define TACET_BOOTINFO_MAX_DEVICES 32
#define TACET_BOOTINFO_BOOTARGS_MAX 1024 /* with its NUL; the kernel says so if it cut them */

/* init's fixed slots */
enum tacet_init_slot {
	TACET_SLOT_SELF_PROCESS = 1, /* init's own process */
	TACET_SLOT_SELF_THREAD = 2,  /* init's thread */
	TACET_SLOT_FAULT_EP = 3,     /* endpoint init receives its children's faults on */
	TACET_SLOT_MODULES = 4,      /* frame: the module archive */
	TACET_SLOT_DTB = 5,          /* frame: the device tree blob */
	TACET_SLOT_TRACE = 6,        /* the trace authority (TACET_CAP_TRACE) */
	TACET_SLOT_FIRST_DEVICE = 16, /* frames of device MMIO, in devices[] order */
	TACET_SLOT_FIRST_IRQ = 48,   /* IRQ handler capabilities, in devices[] order */
	TACET_SLOT_FIRST_FREE = 80,  /* the first slot init may use for its own */
};

struct tacet_bootinfo_device {
	char compatible[32];
	unsigned long paddr;
	unsigned long size;
	unsigned int irq; /* 0 if none */
	unsigned int slot; /* the frame capability's slot in init's cspace */
	unsigned int irq_slot; /* the IRQ handler capability's slot, 0 if none */
	/* tacet,pci-intx: the (device number % 4, pin) pairs the host bridge's interrupt-map
	 * routes to this line: bit 4 * (device % 4) + pin - 1 (pin 1 = INTA); else 0 */
	unsigned int pci_routes;
};

struct tacet_bootinfo {
	unsigned long magic;
	unsigned long nharts;
	unsigned long timebase_hz; /* rdtime's frequency: /cpus timebase-frequency */
	unsigned long modules_vaddr;
	unsigned long modules_size;
	unsigned long dtb_size;
	unsigned long ndevices;
	char bootargs[TACET_BOOTINFO_BOOTARGS_MAX]; /* /chosen/bootargs, NUL-terminated */
	struct tacet_bootinfo_device devices[TACET_BOOTINFO_MAX_DEVICES];
};

#endif
