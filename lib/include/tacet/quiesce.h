/* quiesce.h: how a device is made quiet, declared beside its driver and applied by lib's one
 * interpreter (lib/quiesce.c): by the driver at its start (tacet_device_quiesce) and by init
 * when the driver's server has ended (init reads the descriptions from the server's module
 * image). docs/drivers.md, "Declaring how a device is quieted".
 *
 * A description is a fixed-size record, keyed by a device-tree compatible, holding a short list
 * of register operations; TACET_QUIESCE puts one in the image's TACET_QUIESCE_SECTION, which
 * lib/user.ld keeps and loads read-only. A record holds no pointer, so it reads the same from
 * the loaded image and from the ELF file. Everything here is checked before anything is
 * written: an unknown operation, an offset outside the device's registers or not aligned to
 * its width, a record cut short, and the whole description is refused (tacet_quiesce_check). */
#ifndef TACET_QUIESCE_H
#define TACET_QUIESCE_H

#include <stddef.h>
#include <stdint.h>

#define TACET_QUIESCE_SECTION ".tacet.quiesce"
#define TACET_QUIESCE_MAGIC 0x51756965u /* "eiuQ" in memory: a record starts here */
#define TACET_QUIESCE_MAX_OPS 6
#define TACET_QUIESCE_COMPAT_BYTES 32 /* a compatible, its NUL included (as the boot info's) */
#define TACET_QUIESCE_POLLS 1000      /* reads TACET_QUIESCE_POLL32 makes before it gives up */

/* One operation. r is the 32-bit register at offset (8-bit for the 8-bit ones). */
enum tacet_quiesce_kind {
	TACET_QUIESCE_WRITE8 = 1,  /* r = value */
	TACET_QUIESCE_WRITE32 = 2, /* r = value */
	TACET_QUIESCE_READ32 = 3,  /* read r and drop it: earlier writes have reached the device */
	TACET_QUIESCE_POLL32 = 4,  /* until (r & mask) == value, up to TACET_QUIESCE_POLLS reads;
				    * then the description failed (-TACET_EBUSY) */
	TACET_QUIESCE_ONLY_IF32 = 5, /* unless (r & mask) == value: nothing (more) to do */
	TACET_QUIESCE_STOP_IF32 = 6, /* if (r & mask) == value: nothing (more) to do */
};

struct tacet_quiesce_op {
	uint32_t kind; /* enum tacet_quiesce_kind */
	uint32_t offset; /* bytes from the device's first register */
	uint32_t mask;
	uint32_t value;
};

struct tacet_quiesce {
	uint32_t magic; /* TACET_QUIESCE_MAGIC */
	uint32_t nops;  /* 1..TACET_QUIESCE_MAX_OPS, applied in order */
	char compatible[TACET_QUIESCE_COMPAT_BYTES]; /* the devices it is for (tacet_compatible_matches) */
	struct tacet_quiesce_op ops[TACET_QUIESCE_MAX_OPS];
};

#define TACET_QUIESCE_W8(off, v)  { TACET_QUIESCE_WRITE8, (off), 0xff, (v) }
#define TACET_QUIESCE_W32(off, v) { TACET_QUIESCE_WRITE32, (off), 0xffffffffu, (v) }
#define TACET_QUIESCE_R32(off)    { TACET_QUIESCE_READ32, (off), 0, 0 }
#define TACET_QUIESCE_POLL(off, mask, v)    { TACET_QUIESCE_POLL32, (off), (mask), (v) }
#define TACET_QUIESCE_ONLY_IF(off, mask, v) { TACET_QUIESCE_ONLY_IF32, (off), (mask), (v) }
#define TACET_QUIESCE_STOP_IF(off, mask, v) { TACET_QUIESCE_STOP_IF32, (off), (mask), (v) }

/* Declare, at file scope, how the devices `compat` names are quieted: the operations, in order
 * (at most TACET_QUIESCE_MAX_OPS: more do not compile). `name` names the record in C. E.g.
 *   TACET_QUIESCE(uart_quiesce, "ns16550a", TACET_QUIESCE_W8(UART_IER, 0));
 * The first record of an image that matches a device is the one used. */
#define TACET_QUIESCE(name, compat, ...)                                                          \
	static __attribute__((used, aligned(8), section(TACET_QUIESCE_SECTION)))                   \
	const struct tacet_quiesce name = {                                                        \
		.magic = TACET_QUIESCE_MAGIC,                                                      \
		.nops = sizeof((const struct tacet_quiesce_op[]){ __VA_ARGS__ }) /                 \
			sizeof(struct tacet_quiesce_op),                                           \
		.compatible = compat,                                                              \
		.ops = { __VA_ARGS__ },                                                            \
	}

/* How the interpreter reaches the registers: MMIO in lib (tacet_quiesce_mmio), a fake in the
 * host tests. */
struct tacet_quiesce_io {
	uint32_t (*read32)(volatile uint8_t *regs, uint32_t offset);
	void (*write32)(volatile uint8_t *regs, uint32_t offset, uint32_t value);
	void (*write8)(volatile uint8_t *regs, uint32_t offset, uint8_t value);
};

/* Check a record for a device whose registers are `size` bytes from its first (what the
 * applier has mapped): 0, or -TACET_EINVAL with *why saying what is wrong. Changes nothing. */
long tacet_quiesce_check(const struct tacet_quiesce *q, unsigned long size, const char **why);

/* The record in `section` (len bytes, as found in an image: any alignment) that is for
 * `compatible`, copied into *q: 1 found, 0 none for it, -TACET_EINVAL if the section is not a
 * whole number of records with their magic (*why says which). The record itself is not
 * checked: tacet_quiesce_apply does that. */
long tacet_quiesce_find(const void *section, size_t len, const char *compatible,
			struct tacet_quiesce *q, const char **why);

/* Check q against size, then apply it to the registers at regs: 1 every operation made, 0 a
 * guard said there was nothing (more) to do, -TACET_EBUSY a POLL32 never read its value,
 * -TACET_EINVAL refused by the check (*why says why; nothing was read or written). Any context
 * that has the registers mapped; one caller per device at a time. */
long tacet_quiesce_run(const struct tacet_quiesce *q, const struct tacet_quiesce_io *io,
		       volatile uint8_t *regs, unsigned long size, const char **why);

/* tacet_quiesce_run through MMIO (the kit's accessors, with their fences). */
long tacet_quiesce_apply(const struct tacet_quiesce *q, volatile uint8_t *regs,
			 unsigned long size, const char **why);

/* The image's own records (lib/user.ld bounds TACET_QUIESCE_SECTION), for the device kit. */
extern const struct tacet_quiesce __tacet_quiesce_start[], __tacet_quiesce_end[];

#endif
