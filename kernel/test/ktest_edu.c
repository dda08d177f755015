/* ktest_edu.c: in-kernel tests of the interrupt fast path (irq_request_fast) with QEMU's edu PCI
 * devices, which interrupt when a register is written:
 *   irq_fast_latency  the benchmark irq_raise_to_fast_handler (run by `make bench` under
 *                     -icount): from the edu write to the fast handler's first instruction;
 *   irq_nest_plic     a fast handler that calls irq_enable_in_hardirq() is nested by another
 *                     line's interrupt; with most of the interrupt stack in use the same call
 *                     is refused and counted, and the other interrupt waits its turn.
 * The handlers live in the kernel, so the tests set the devices up themselves, with no PCI
 * server: they find the edus on bus 0 through the host bridge's ECAM registers, place BAR0s in
 * the 32-bit window and look each INTA line up in the interrupt-map (pci_dt.h).
 * Run alone on the boot hart before user space exists; own nothing after they power off. */
#ifndef CONFIG_KTEST
#error "kernel/test is built into the test kernel only (make test-kernel: -DCONFIG_KTEST)"
#endif
#include "test/ktest.h"
#include "test/ktest_edu.h"
#include "arch.h"
#include "core/console.h"
#include "lib/fdt.h"
#include "core/hart.h"
#include "irq/irq.h"
#include "lib/pci_dt.h"
#include "core/platform.h"
#include "core/sched.h"

#define ROUNDS         2100 /* the first WARMUP are thrown away */
#define WARMUP         100
#define NEST_ROUNDS    100
#define EDU_ID         0x123411e8u /* device << 16 | vendor, as config space has them */
#define EDU_BAR_SIZE   0x100000ul
#define PCI_DEVICES    32
#define PCI_CFG_SIZE   0x8000ul /* one device's 8 functions in ECAM */
#define PCI_COMMAND    (0x04 / 4)
#define PCI_CMD_MEMORY 0x2u
#define PCI_BAR0       (0x10 / 4)
#define BIG_FRAME      (9 * 1024) /* more than IRQ_STACK_GUARD with the frames below it */
#define SPIN_FOR_NESTED 100000

/* The start of the host bridge's first 32-bit memory window, or 0. */
static uint64_t mmio32_window(const struct fdt *fdt, int node)
{
	struct pci_range r;

	for (uint32_t i = 0; pci_dt_range(fdt, node, i, &r); i++)
		if (r.space == PCI_SPACE_MMIO32)
			return r.cpu_addr;
	return 0;
}

/* The controller line bus 0's device dev pin INTA reaches, or 0. */
static unsigned int inta_line(const struct fdt *fdt, int node, unsigned int dev)
{
	struct pci_imap_entry e;

	for (uint32_t i = 0; pci_dt_imap(fdt, node, i, &e); i++)
		if (pci_dt_imap_is_for(&e, dev) && e.pin == 1)
			return e.irq;
	return 0;
}

unsigned int edu_setup(struct edu_dev *edus, unsigned int n)
{
	const struct fdt *fdt = &platform.fdt;
	int node = fdt_find_compatible(fdt, -1, "pci-host-ecam-generic");
	uint64_t ecam, size, window;
	unsigned int found = 0;

	if (node < 0 || fdt_reg(fdt, node, 0, &ecam, &size) < 0 || size < PCI_DEVICES * PCI_CFG_SIZE)
		ktest_fail("no PCIe host bridge with ECAM registers in the device tree");
	window = mmio32_window(fdt, node);
	if (!window)
		ktest_fail("the host bridge has no 32-bit memory window");
	for (unsigned int dev = 0; dev < PCI_DEVICES && found < n; dev++) {
		volatile uint32_t *cfg = arch_map_device(ecam + dev * PCI_CFG_SIZE, 4096);
		uint64_t bar = window + found * EDU_BAR_SIZE;

		if ((cfg[0] >> 16 | cfg[0] << 16) != EDU_ID)
			continue;
		cfg[PCI_BAR0] = (uint32_t)bar;
		cfg[PCI_COMMAND] |= PCI_CMD_MEMORY;
		edus[found].regs = arch_map_device(bar, 4096);
		edus[found].irq = inta_line(fdt, node, dev);
		if (!edus[found].irq)
			ktest_fail("no interrupt-map entry for device %u's INTA", dev);
		found++;
	}
	return found;
}

void edu_ack(const struct edu_dev *e)
{
	e->regs[EDU_IRQ_ACK] = e->regs[EDU_IRQ_STATUS];
}

/* --- irq_fast_latency --- */
static struct edu_dev lat;
static volatile uint64_t handler_entry; /* written by the interrupt handler */
static volatile uint32_t handled;
static uint64_t samples[ROUNDS - WARMUP];

/* The fast handler: note the time first, then silence the device. */
static void latency_handler(unsigned int irq)
{
	handler_entry = arch_cycles();
	(void)irq;
	edu_ack(&lat);
	handled++;
}

void ktest_irq_fast_latency(void)
{
	uint64_t c0, overhead;

	if (!edu_setup(&lat, 1))
		ktest_fail("no edu device on bus 0 (QEMU -device edu)");
	if (irq_request_fast(lat.irq, latency_handler, IRQF_DISABLED, this_hart()->id) < 0)
		ktest_fail("cannot take the edu's line %u for a fast handler", lat.irq);
	c0 = arch_cycles();
	overhead = arch_cycles() - c0;
	for (unsigned int i = 0; i < ROUNDS; i++) {
		uint64_t start = arch_cycles();

		lat.regs[EDU_IRQ_RAISE] = 1;
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

/* --- irq_nest_plic: line A's handler raises line B and opens the window --- */
static struct edu_dev nest[2];
static volatile int in_a;            /* A's handler is running */
static volatile uint32_t a_runs, b_runs, b_nested, max_depth; /* the handlers write them */

static void nest_b(unsigned int irq)
{
	(void)irq;
	b_runs++;
	if (in_a)
		b_nested++;
	if (this_hart()->irq_depth > max_depth)
		max_depth = this_hart()->irq_depth;
	edu_ack(&nest[1]);
}

/* A's body: raise B, ask for the window, and if it opened give B the chance to nest. */
static void __attribute__((noinline)) a_body(void)
{
	in_a = 1;
	nest[1].regs[EDU_IRQ_RAISE] = 1; /* pending at once; it may only come in through a window */
	if (irq_enable_in_hardirq())
		for (volatile int i = 0; i < SPIN_FOR_NESTED && b_runs == a_runs - 1; i++)
			;
	in_a = 0;
	edu_ack(&nest[0]);
}

static unsigned int big_frame; /* bytes of stack A takes before asking: 0 or BIG_FRAME */

static void nest_a(unsigned int irq)
{
	volatile char pad[big_frame ? big_frame : 1];

	(void)irq;
	pad[0] = 1;
	a_runs++;
	a_body();
	(void)pad[0];
}

/* rounds of A's interrupt raised from the idle wait; each must bring exactly one of B's. */
static void nest_rounds(unsigned int rounds)
{
	for (unsigned int i = 0; i < rounds; i++) {
		uint32_t b_before = b_runs;

		nest[0].regs[EDU_IRQ_RAISE] = 1;
		while (b_runs == b_before) /* A first, then B (nested, or right after A) */
			arch_idle_wait();
	}
}

void ktest_irq_nest_plic(void)
{
	struct hart *me = this_hart();
	uint64_t refused_before;

	if (edu_setup(nest, 2) != 2 || nest[0].irq == nest[1].irq)
		ktest_fail("needs two edu devices on different lines (-device edu,addr=1 "
			   "-device edu,addr=2)");
	if (irq_request_fast(nest[0].irq, nest_a, IRQF_DISABLED, me->id) < 0 ||
	    irq_request_fast(nest[1].irq, nest_b, IRQF_DISABLED, me->id) < 0)
		ktest_fail("cannot take lines %u and %u for fast handlers", nest[0].irq, nest[1].irq);
	nest_rounds(NEST_ROUNDS);
	kprintf("irq_nest_plic: line %u's handler opened the window %u times; line %u nested "
		"into it %u times (depth %u)\n", nest[0].irq, a_runs, nest[1].irq, b_nested,
		max_depth);
	if (a_runs != NEST_ROUNDS || b_runs != NEST_ROUNDS || b_nested != NEST_ROUNDS ||
	    max_depth != 2)
		ktest_fail("expected %u nested interrupts at depth 2", NEST_ROUNDS);

	big_frame = BIG_FRAME;
	refused_before = me->nest_refused;
	b_nested = 0;
	nest_rounds(NEST_ROUNDS);
	kprintf("irq_nest_plic: with %u bytes of the interrupt stack in use the window was refused "
		"%lu times; line %u nested %u times, ran %u times\n", BIG_FRAME,
		(unsigned long)(me->nest_refused - refused_before), nest[1].irq, b_nested,
		b_runs - NEST_ROUNDS);
	if (me->nest_refused - refused_before != NEST_ROUNDS || b_nested ||
	    b_runs != 2 * NEST_ROUNDS)
		ktest_fail("expected %u refusals and no nesting", NEST_ROUNDS);
	ktest_pass();
}

/* --- irq_fast_storm: a fast handler whose device interrupts again at once --- */
static struct edu_dev storm_dev;
static volatile uint32_t storm_runs;
static volatile int storm_calm; /* the handler no longer raises the next one */

static void storm_handler(unsigned int irq)
{
	(void)irq;
	edu_ack(&storm_dev);
	if (!storm_calm)
		storm_dev.regs[EDU_IRQ_RAISE] = 1; /* at once again: the hart would never rest */
	storm_runs++;
}

/* The rate rule is for fast handlers: the line is disabled at the (IRQ_STORM_LIMIT + 1)th
 * interrupt within IRQ_STORM_WINDOW_US (under -icount, the same one every run), the top half
 * does not print, irq_report() says so once, and irq_enable brings the line back. */
void ktest_irq_fast_storm(void)
{
	struct irq_desc *d;
	uint32_t at;

	if (!edu_setup(&storm_dev, 1))
		ktest_fail("no edu device on bus 0 (QEMU -device edu)");
	if (irq_request_fast(storm_dev.irq, storm_handler, IRQF_DISABLED, this_hart()->id) < 0)
		ktest_fail("cannot take the edu's line %u for a fast handler", storm_dev.irq);
	d = irq_desc_get(storm_dev.irq);
	storm_dev.regs[EDU_IRQ_RAISE] = 1;
	while (d->state != IRQ_DISABLED && storm_runs <= 10 * IRQ_STORM_LIMIT)
		arch_idle_wait();
	at = storm_runs;
	kprintf("irq_fast_storm: line %u %s after %u interrupts in its fast handler\n",
		storm_dev.irq, d->state == IRQ_DISABLED ? "disabled" : "still on", at);
	if (d->state != IRQ_DISABLED || at != IRQ_STORM_LIMIT + 1)
		ktest_fail("expected the line disabled at interrupt %u", IRQ_STORM_LIMIT + 1);
	bkl_lock();
	irq_report();
	irq_report(); /* says it once */
	bkl_unlock();
	storm_calm = 1;
	edu_ack(&storm_dev); /* the handler's last raise: the device quiet again */
	bkl_lock();
	if (irq_enable_line(storm_dev.irq))
		ktest_fail("irq_enable_line refused line %u", storm_dev.irq);
	bkl_unlock();
	storm_dev.regs[EDU_IRQ_RAISE] = 1;
	arch_idle_wait();
	kprintf("irq_fast_storm: re-enabled, one interrupt handled: %s\n",
		storm_runs == at + 1 && d->state == IRQ_IDLE ? "yes" : "no");
	if (storm_runs != at + 1 || d->state != IRQ_IDLE)
		ktest_fail("after irq_enable the handler ran %u times", storm_runs - at);
	ktest_pass();
}
