/* ktest_irq_latency.c: the in-kernel benchmark of the interrupt fast path,
 * irq_raise_to_fast_handler ("test=irq_fast_latency", run by `make bench` under -icount): from
 * a write to QEMU's edu device to the entry of an in-kernel handler (irq_request_fast) for its
 * line. The handler lives in the kernel, so the test sets the device up itself, with no PCI
 * server: it finds the edu on bus 0 through the host bridge's ECAM registers, places BAR0 at
 * the start of the 32-bit window (`ranges`) and looks its INTA line up in `interrupt-map`.
 * Owns nothing after it powers off; runs alone on the boot hart before user space exists. */
#include "ktest.h"
#include "arch.h"
#include "console.h"
#include "fdt.h"
#include "hart.h"
#include "irq/irq.h"
#include "platform.h"

#define ROUNDS         2100 /* the first WARMUP are thrown away */
#define WARMUP         100
#define EDU_ID         0x123411e8u /* device << 16 | vendor, as config space has them */
#define EDU_IRQ_STATUS (0x24 / 4)
#define EDU_IRQ_RAISE  (0x60 / 4)
#define EDU_IRQ_ACK    (0x64 / 4)
#define PCI_DEVICES    32
#define PCI_CFG_SIZE   0x8000ul /* one device's 8 functions in ECAM */
#define PCI_COMMAND    (0x04 / 4)
#define PCI_CMD_MEMORY 0x2u
#define PCI_BAR0       (0x10 / 4)
#define PCI_RANGE_CELLS 7 /* child (3) + parent address (2) + size (2) */
#define PCI_IMAP_CELLS 6  /* child unit (3) + child pin (1) + parent phandle (1) + line (1) */
#define PCI_MMIO32     2  /* the space code in a range's phys.hi */

static volatile uint32_t *edu;
static uint64_t handler_entry;
static uint32_t handled;
static uint64_t samples[ROUNDS - WARMUP];

/* The fast handler: note the time first, then silence the device. */
static void edu_fast(unsigned int irq)
{
	handler_entry = arch_cycles();
	(void)irq;
	edu[EDU_IRQ_ACK] = edu[EDU_IRQ_STATUS];
	handled++;
}

/* The start of the host bridge's first 32-bit memory window, or 0. */
static uint64_t mmio32_window(const struct fdt *fdt, int node)
{
	uint32_t len;
	const uint8_t *r = fdt_getprop(fdt, node, "ranges", &len);

	for (uint32_t off = 0; r && off + PCI_RANGE_CELLS * 4 <= len; off += PCI_RANGE_CELLS * 4)
		if (((fdt_be32(r + off) >> 24) & 3) == PCI_MMIO32)
			return fdt_cells_read(r + off + 12, 2);
	return 0;
}

/* The controller line bus 0's device dev pin INTA reaches, or 0. */
static unsigned int inta_line(const struct fdt *fdt, int node, unsigned int dev)
{
	uint32_t len, mlen, mask = 0x1800;
	const uint8_t *m = fdt_getprop(fdt, node, "interrupt-map-mask", &mlen);
	const uint8_t *r = fdt_getprop(fdt, node, "interrupt-map", &len);

	if (m && mlen >= 4)
		mask = fdt_be32(m);
	for (uint32_t off = 0; r && off + PCI_IMAP_CELLS * 4 <= len; off += PCI_IMAP_CELLS * 4)
		if ((fdt_be32(r + off) & mask) == ((dev << 11) & mask) && fdt_be32(r + off + 12) == 1)
			return fdt_be32(r + off + 20);
	return 0;
}

/* Finds the edu on bus 0, enables its BAR0 at the window's start; returns its line or 0. */
static unsigned int edu_setup(void)
{
	const struct fdt *fdt = &platform.fdt;
	int node = fdt_find_compatible(fdt, -1, "pci-host-ecam-generic");
	uint64_t ecam, size, window;

	if (node < 0 || fdt_reg(fdt, node, 0, &ecam, &size) < 0 || size < PCI_DEVICES * PCI_CFG_SIZE)
		ktest_fail("no PCIe host bridge with ECAM registers in the device tree");
	window = mmio32_window(fdt, node);
	if (!window)
		ktest_fail("the host bridge has no 32-bit memory window");
	for (unsigned int dev = 0; dev < PCI_DEVICES; dev++) {
		volatile uint32_t *cfg = arch_map_device(ecam + dev * PCI_CFG_SIZE, 4096);

		if ((cfg[0] >> 16 | cfg[0] << 16) != EDU_ID)
			continue;
		cfg[PCI_BAR0] = (uint32_t)window;
		cfg[PCI_COMMAND] |= PCI_CMD_MEMORY;
		edu = arch_map_device(window, 4096);
		return inta_line(fdt, node, dev);
	}
	ktest_fail("no edu device on bus 0 (QEMU -device edu)");
}

void ktest_irq_fast_latency(void)
{
	unsigned int irq = edu_setup();
	uint64_t c0 = arch_cycles(), overhead = arch_cycles() - c0;

	if (!irq || irq_request_fast(irq, edu_fast, IRQF_DISABLED, this_hart()->id) < 0)
		ktest_fail("cannot take the edu's line %u for a fast handler", irq);
	for (unsigned int i = 0; i < ROUNDS; i++) {
		uint64_t start = arch_cycles();

		edu[EDU_IRQ_RAISE] = 1;
		arch_idle_wait(); /* the interrupt is pending already: taken in the window */
		if (handled != i + 1)
			ktest_fail("interrupt %u: the fast handler ran %u times", i + 1, handled);
		if (i >= WARMUP)
			samples[i - WARMUP] = handler_entry - start - overhead;
	}
	kprintf("bench: rdcycle pair overhead %lu instructions\n", (unsigned long)overhead);
	ktest_report("irq_raise_to_fast_handler", samples, ROUNDS - WARMUP);
	ktest_pass();
}
