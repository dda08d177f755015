/* edu.c: the edu interrupt test, a driver for QEMU's edu PCI device (the first one no other edu
 * server claimed, edu_dev.h) that checks delivery on a PCI INTx line, perhaps shared with other
 * devices, perhaps moved between harts while interrupts flow. It binds the line shared, raises
 * `rounds` interrupts one at a time and acknowledges each with handled = whether its device's
 * status had bits set (a shared line is unmasked once every binder has acknowledged); a timer
 * catches a lost interrupt. With move_every, the line is moved right after a raise, away from
 * the home hart for 1 in AWAY_SHARE interrupts, and each stretch's per-hart counts are checked
 * (phase). Prints `edu N: raised R, handled H (O for other devices): PASS` (with `, M moves,
 * U uneven phases` when moving) and exits 0 if each interrupt was handled exactly once; then,
 * if asked, a factorial's completion interrupt and a DMA round trip, each with its PASS line;
 * or it ends mid-interrupt without acknowledging, or faults with a DMA transfer started (a
 * driver that dies with its device interrupting, or with DMA in flight).
 * IPC: none served; claims its device from "pci" (tacet_pci_claim). One thread, no locking.
 */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include "edu.h"
#include "edu_dev.h"

#define IRQ_BADGE   1
#define TIMER_BADGE 2
#define LOST_NS  1000000000ull /* 1 s: the interrupt was lost */
#define TOGETHER_MS 10000       /* EDU_TEST_TOGETHER: only a safety net */
#define MAX_HARTS   TACET_INFO_MAX_HARTS
/* Moving: 1 in AWAY_SHARE interrupts is taken away from the driver's hart (mostly at home: a
 * cross-hart delivery costs an IPI and a wake-up from wfi, slow when QEMU's harts outnumber the
 * host's CPUs). */
#define AWAY_SHARE  100
#define MAX_UNEVEN  12  /* two per INTx-disable change of the other drivers' functions */
#define EDU_FACT    (0x08 / 4)
#define EDU_STATUS  (0x20 / 4)
#define EDU_STATUS_FACT_IRQ 0x80 /* interrupt when the factorial is done */
#define EDU_FACT_IRQ 0x1u        /* its bit in the interrupt status */
#define EDU_DMA_SRC   (0x80 / 8) /* 64-bit registers */
#define EDU_DMA_DST   (0x88 / 8)
#define EDU_DMA_COUNT (0x90 / 8)
#define EDU_DMA_CMD   (0x98 / 8)
#define EDU_DMA_START  0x1
#define EDU_DMA_TO_RAM 0x2
#define EDU_DMA_IRQ_ON 0x4
#define EDU_DMA_IRQ    0x100u    /* its bit in the interrupt status */
#define EDU_DMA_BUFFER 0x40000ul /* the device's own 4 KiB, as its DMA engine addresses it */
#define DMA_VA      0x0000002100000000ul
#define DMA_LEN     2048ul      /* half a page: there, then back into the other half */
#define SLOT_DMA    EDU_SLOT_FREE

struct edu_run {
	struct edu dev;
	unsigned long raised, handled, others;
	unsigned long uneven; /* moving phases whose line count is one off (see the top) */
};

/* Waits for an interrupt of this device (its status, 0x24, non-zero: other devices' interrupts
 * on a shared line are acknowledged as not handled), acknowledges it to the device and the
 * kernel. `what` names it in a failure. Returns the status it acknowledged, or 0 after printing
 * why the test failed. */
static uint32_t wait_ours(struct edu_run *r, const char *what)
{
	uint32_t status = 0;
	unsigned long deadline = tacet_time() + tacet_ns_to_ticks(LOST_NS);

	while (!status) {
		/* taken on this hart, the interrupt has been signalled already; else wait, with a
		 * timer that catches a lost one */
		long bits = tacet_poll(EDU_SLOT_NTFN);

		if (!bits) {
			tacet_timer_set(EDU_SLOT_NTFN, TIMER_BADGE, deadline);
			bits = tacet_wait(EDU_SLOT_NTFN);
			tacet_timer_set(EDU_SLOT_NTFN, TIMER_BADGE, 0);
		}
		/* A timer cancelled just as it fired leaves its bit behind, for a later wait (an
		 * earlier one's, or this one's before an interrupt came): only a timer bit past this
		 * wait's deadline says the interrupt is late. */
		if (bits > 0 && (bits & TIMER_BADGE) && tacet_time() < deadline)
			bits &= ~(long)TIMER_BADGE;
		if (bits < 0) {
			printf("edu %ld: wait failed: %s: FAIL\n", r->dev.index, tacet_strerror(bits));
			return 0;
		}
		if (bits & IRQ_BADGE) {
			status = r->dev.regs[EDU_IRQ_STATUS];
			if (status)
				r->dev.regs[EDU_IRQ_ACK] = status; /* deasserts our part of the line */
			else
				r->others++;
			tacet_irq_ack(EDU_SLOT_IRQ, status != 0);
		}
		if (!status && (bits & TIMER_BADGE)) {
			printf("edu %ld: %s lost (status %#x): FAIL\n", r->dev.index, what,
			       r->dev.regs[EDU_IRQ_STATUS]);
			return 0;
		}
	}
	return status;
}

/* Raise one interrupt, after which `between` (if set) runs while it is in flight; then wait for
 * it. Returns 0, or 1 after printing why the test failed. */
static int one_interrupt(struct edu_run *r, void (*between)(struct edu_run *r))
{
	r->dev.regs[EDU_IRQ_RAISE] = EDU_IRQ_BIT;
	r->raised++;
	if (between)
		between(r);
	if (!wait_ours(r, "a raised interrupt"))
		return 1;
	r->handled++;
	return 0;
}

/* The device computes 10! and interrupts when done (status bit 0x80 asks for it). */
static int factorial(struct edu_run *r)
{
	uint32_t status, result;

	r->dev.regs[EDU_STATUS] = EDU_STATUS_FACT_IRQ;
	r->dev.regs[EDU_FACT] = 10;
	status = wait_ours(r, "the factorial's completion interrupt");
	result = r->dev.regs[EDU_FACT];
	r->dev.regs[EDU_STATUS] = 0;
	if (!status)
		return 1;
	printf("edu %ld: factorial 10 = %u, completion interrupt %#x: %s\n", r->dev.index, result,
	       status, result == 3628800 && status == EDU_FACT_IRQ ? "PASS" : "FAIL");
	return result == 3628800 && status == EDU_FACT_IRQ ? 0 : 1;
}

/* A DMA transfer of len bytes, src to dst (to_ram: from the device's buffer), started: QEMU's
 * edu makes it 100 ms (virtual time) later, then interrupts. */
static void dma_start(struct edu_run *r, uint64_t src, uint64_t dst, uint64_t len, int to_ram)
{
	volatile uint64_t *regs64 = (volatile uint64_t *)r->dev.regs;

	regs64[EDU_DMA_SRC] = src;
	regs64[EDU_DMA_DST] = dst;
	regs64[EDU_DMA_COUNT] = len;
	regs64[EDU_DMA_CMD] = EDU_DMA_START | EDU_DMA_IRQ_ON | (to_ram ? EDU_DMA_TO_RAM : 0);
}

/* One DMA transfer (dma_start), waiting for its completion interrupt. Returns 0, or 1 after
 * printing the failure. */
static int dma(struct edu_run *r, uint64_t src, uint64_t dst, uint64_t len, int to_ram)
{
	uint32_t status;

	dma_start(r, src, dst, len, to_ram);
	status = wait_ours(r, "a DMA completion interrupt");
	if (status && status != EDU_DMA_IRQ)
		printf("edu %ld: DMA completion: status %#x, not %#x: FAIL\n", r->dev.index, status,
		       EDU_DMA_IRQ);
	return status == EDU_DMA_IRQ ? 0 : 1;
}

/* A page of RAM at DMA_VA, pinned to the device (its BAR0 frame: the kernel's DMA
 * quarantine), its physical address in *pa. Returns 0, or 1 after printing the failure. */
static int dma_buffer(struct edu_run *r, unsigned long *pa)
{
	unsigned long pages = 0;
	long err = tacet_frame_new_dma(SLOT_DMA, 1);

	if (!err)
		err = tacet_map(TACET_CHILD_SELF, SLOT_DMA, DMA_VA,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (!err) /* the buffer is the edu device's to read and write */
		err = tacet_frame_pin(SLOT_DMA, EDU_SLOT_BAR, pa, &pages);
	if (err)
		printf("edu %ld: DMA buffer: %s: FAIL\n", r->dev.index, tacet_strerror(err));
	return err ? 1 : 0;
}

/* A page of RAM to the device's buffer and back into the page's other half, by DMA (the bus
 * sees physical addresses: QEMU virt has no IOMMU). */
static int dma_round_trip(struct edu_run *r)
{
	volatile uint8_t *buf = (volatile uint8_t *)DMA_VA;
	unsigned long pa = 0, bad = 0;

	if (dma_buffer(r, &pa))
		return 1;
	for (unsigned long i = 0; i < DMA_LEN; i++)
		buf[i] = (uint8_t)(i * 7 + (unsigned long)r->dev.index);
	if (dma(r, pa, EDU_DMA_BUFFER, DMA_LEN, 0) ||
	    dma(r, EDU_DMA_BUFFER, pa + DMA_LEN, DMA_LEN, 1))
		return 1;
	for (unsigned long i = 0; i < DMA_LEN; i++)
		bad += buf[DMA_LEN + i] != buf[i];
	printf("edu %ld: DMA %lu bytes from RAM at %#lx to the device and back: %lu differ: %s\n",
	       r->dev.index, DMA_LEN, pa, bad, bad ? "FAIL" : "PASS");
	return bad ? 1 : 0;
}

/* Ends with DMA in flight: a transfer from the device's buffer into a page of RAM pinned to the
 * device is started, and the driver faults before the device makes it (100 ms later): the
 * page must stay out of the pool until pci has made the function quiet. Returns 1 if it
 * cannot get that far. */
static int dma_die(struct edu_run *r)
{
	unsigned long pa = 0, addr = 8;

	if (dma_buffer(r, &pa))
		return 1;
	dma_start(r, EDU_DMA_BUFFER, pa, DMA_LEN, 1);
	printf("edu %ld: DMA of %lu bytes from the device to RAM at %#lx started; faulting\n",
	       r->dev.index, DMA_LEN, pa);
	__asm__("" : "+r"(addr)); /* hidden from gcc, which would make a trap of its own */
	*(volatile unsigned long *)addr = 1;
	return 1;
}

/* `edu N: instance K claimed its device: free pages F, object caches C, kernel objects O`:
 * the machine's memory as this instance of the driver finds it once it holds its device. */
static void print_memory(const struct edu *dev)
{
	struct tacet_mem_info m = { 0 };

	tacet_info(TACET_INFO_MEM, 0, &m, sizeof(m));
	printf("edu %ld: instance %lu claimed its device: free pages %lu, object caches %lu, "
	       "kernel objects %lu\n", dev->index, tacet_instance(), m.free_pages,
	       m.kernel_object_pages, m.kernel_objects);
}

/* The line's state (TACET_INFO_IRQ: 3 is disabled) and count; ~0u if unreadable. */
static unsigned int line_state(const struct edu_run *r, unsigned long *count)
{
	struct tacet_irq_info ii;

	if (tacet_info(TACET_INFO_IRQ, r->dev.irq, &ii, sizeof(ii)) < 0)
		return ~0u;
	*count = ii.count;
	return ii.state;
}

/* A busy device: each interrupt is handled and the next raised at once, BUSY_ROUNDS times, so
 * the line never rests. The driver's loop is one kernel entry per interrupt: tacet_irq_ack_wait
 * acknowledges the last and waits for the next. A threaded line is never disabled for being
 * busy (it is oneshot: it cannot fire again before this ack), so every interrupt is handled,
 * the kernel counts exactly BUSY_ROUNDS more, and the line was never disabled. */
#define BUSY_ROUNDS 100000ul
static int busy(struct edu_run *r)
{
	struct tacet_irq_info before, after;
	unsigned long handled = 0, stamped = 0, stamp = 0;
	long bits;

	if (tacet_info(TACET_INFO_IRQ, r->dev.irq, &before, sizeof(before)) < 0)
		return 1;
	r->dev.regs[EDU_IRQ_RAISE] = EDU_IRQ_BIT;
	bits = tacet_wait(EDU_SLOT_NTFN);
	while (bits > 0) {
		uint32_t status = r->dev.regs[EDU_IRQ_STATUS];

		if (status) {
			r->dev.regs[EDU_IRQ_ACK] = status; /* clear the device, then ack the line */
			handled++;
			stamped += stamp != 0;
		}
		if (handled == BUSY_ROUNDS) {
			bits = tacet_irq_ack(EDU_SLOT_IRQ, status != 0);
			break;
		}
		if (status)
			r->dev.regs[EDU_IRQ_RAISE] = EDU_IRQ_BIT; /* the next, at once */
		bits = tacet_irq_ack_wait(EDU_SLOT_IRQ, status != 0, EDU_SLOT_NTFN, &stamp);
	}
	if (bits < 0 || tacet_info(TACET_INFO_IRQ, r->dev.irq, &after, sizeof(after)) < 0) {
		printf("edu %ld: busy: %s after %lu interrupts: FAIL\n", r->dev.index,
		       tacet_strerror(bits), handled);
		return 1;
	}
	printf("edu %ld: busy: %lu interrupts handled back to back, %lu counted, %lu stamped; "
	       "line %s, disabled %lu times: %s\n", r->dev.index, handled, after.count - before.count,
	       stamped, after.state == 1 ? "on" : "off", after.disabled_count,
	       handled == BUSY_ROUNDS && after.count - before.count == BUSY_ROUNDS &&
	       stamped == BUSY_ROUNDS - 1 && after.state == 1 && !after.disabled_count ? "PASS"
										: "FAIL");
	return handled == BUSY_ROUNDS && after.count - before.count == BUSY_ROUNDS &&
	       stamped == BUSY_ROUNDS - 1 && after.state == 1 && !after.disabled_count ? 0 : 1;
}

/* The line's interrupts that no binder handled so far (TACET_INFO_IRQ), or ~0ul. */
static unsigned long line_unhandled(const struct edu_run *r)
{
	struct tacet_irq_info ii;

	return tacet_info(TACET_INFO_IRQ, r->dev.irq, &ii, sizeof(ii)) < 0 ? ~0ul : ii.unhandled;
}

/* Ends mid-interrupt: raises one more and waits until it has been signalled, then returns
 * without acknowledging it to the device (its status stays set, the line asserted) or to the
 * kernel (the line PENDING on this driver's ack), so that the process ends like a driver that
 * died in its interrupt handler. Returns 0, or 1 after printing why it failed. */
static int abandon(struct edu_run *r)
{
	unsigned long count = 0;
	unsigned int state;
	long bits;

	r->dev.regs[EDU_IRQ_RAISE] = EDU_IRQ_BIT;
	bits = tacet_poll(EDU_SLOT_NTFN);
	if (!bits) {
		tacet_timer_set(EDU_SLOT_NTFN, TIMER_BADGE, tacet_time() + tacet_ns_to_ticks(LOST_NS));
		bits = tacet_wait(EDU_SLOT_NTFN);
		tacet_timer_set(EDU_SLOT_NTFN, TIMER_BADGE, 0);
	}
	state = line_state(r, &count);
	if (bits < 0 || !(bits & IRQ_BADGE) || state != 2) {
		printf("edu %ld: the interrupt to leave pending: bits %ld, line state %u: FAIL\n",
		       r->dev.index, bits, state);
		return 1;
	}
	printf("edu %ld: ending with an interrupt pending (status %#x, line %lu pending on its "
	       "ack, %lu taken on it so far)\n", r->dev.index, r->dev.regs[EDU_IRQ_STATUS],
	       r->dev.irq, count);
	return 0;
}

/* EDU_TEST_TOGETHER(n): wait until n drivers (this one too) have bound the line, or one of
 * them has begun raising (the line's count moved since this one bound it: before that nobody
 * raises, and edu_open cleared each device's stale status). Else the first driver could have
 * ended, its device released, before a late one (its hart's host thread not run for a while)
 * claimed one: that one would take the released device again instead of its own. Returns 0,
 * or 1 after printing why it failed. */
static int wait_together(struct edu_run *r, unsigned int drivers)
{
	struct tacet_irq_info ii;
	unsigned long count0 = 0;
	long bits;

	for (unsigned int ms = 0;; ms++) {
		if (tacet_info(TACET_INFO_IRQ, r->dev.irq, &ii, sizeof(ii)) < 0) {
			printf("edu %ld: line %lu unreadable: FAIL\n", r->dev.index, r->dev.irq);
			return 1;
		}
		if (!ms)
			count0 = ii.count;
		if (ii.bound >= drivers || ii.count != count0)
			return 0;
		if (ms == TOGETHER_MS) {
			printf("edu %ld: %u of %u drivers bound line %lu after %u ms: FAIL\n",
			       r->dev.index, ii.bound, drivers, r->dev.irq, TOGETHER_MS);
			return 1;
		}
		tacet_timer_set(EDU_SLOT_NTFN, TIMER_BADGE, tacet_time() + tacet_ns_to_ticks(1000000));
		bits = tacet_wait(EDU_SLOT_NTFN);
		tacet_timer_set(EDU_SLOT_NTFN, TIMER_BADGE, 0);
		if (bits > 0 && (bits & IRQ_BADGE)) {
			/* another driver's interrupt (this one raised none yet): not ours to handle,
			 * but the shared line waits for this driver's ack too */
			r->others++;
			tacet_irq_ack(EDU_SLOT_IRQ, 0);
			return 0;
		}
	}
}

static unsigned long nharts(void)
{
	struct tacet_hart_info hi;
	unsigned long n = 0;

	while (n < MAX_HARTS && tacet_info(TACET_INFO_HART, n, &hi, sizeof(hi)) > 0)
		n++;
	return n;
}

static int irq_counts(const struct edu_run *r, unsigned long per_hart[MAX_HARTS])
{
	struct tacet_irq_info ii;

	if (tacet_info(TACET_INFO_IRQ, r->dev.irq, &ii, sizeof(ii)) < 0)
		return -1;
	memcpy(per_hart, ii.per_hart, sizeof(ii.per_hart));
	return 0;
}

static unsigned long next_hart;

static void move_line(struct edu_run *r)
{
	long err = edu_move(&r->dev, next_hart); /* an MSI line: pci reprograms the device too */

	if (err)
		printf("edu %ld: cannot move line %lu to hart %lu: %s: FAIL\n", r->dev.index,
		       r->dev.irq, next_hart, tacet_strerror(err));
}

/* One phase of `count` interrupts moving the line from hart `from` to hart `to`: checks where
 * they were taken (on `to`, but the first, which may have been taken on `from`; nowhere else).
 * Returns 0, or 1 after printing the failure. A phase one off is counted ("uneven"), not
 * failed, up to MAX_UNEVEN: QEMU 7.2 sends every INTx line's level to the PLIC again whenever
 * any PCI function's INTx-disable bit changes (the PCI server does that as other edu drivers
 * start and end), and the PLIC can then take an asserted line once more; that notification
 * reaches the driver with the next raise, which is then not claimed on its own, so the count is
 * one over in one phase and can be one under in the next. A lost interrupt still fails: the
 * driver's timer catches it. */
static int phase(struct edu_run *r, unsigned long count, unsigned long from, unsigned long to,
		 unsigned long harts)
{
	unsigned long before[MAX_HARTS], after[MAX_HARTS], taken;

	if (irq_counts(r, before) < 0)
		return 1;
	next_hart = to;
	for (unsigned long i = 0; i < count; i++)
		if (one_interrupt(r, i == 0 ? move_line : NULL))
			return 1;
	if (irq_counts(r, after) < 0)
		return 1;
	for (unsigned long h = 0; h < harts; h++) {
		unsigned long got = after[h] - before[h];
		int ok = h == to ? got + 2 >= count : h == from ? got <= 2 : got == 0;

		if (!ok) {
			printf("edu %ld: line %lu routed to hart %lu was taken %lu times on hart %lu "
			       "(of %lu): FAIL\n", r->dev.index, r->dev.irq, to, got, h, count);
			return 1;
		}
	}
	taken = after[to] - before[to] + (from != to ? after[from] - before[from] : 0);
	if (taken != count)
		r->uneven++; /* QEMU re-sent a level: see above */
	if (taken + 1 < count || taken > count + 1 || r->uneven > MAX_UNEVEN) {
		printf("edu %ld: %lu interrupts raised in a phase, %lu taken (%lu uneven phases so "
		       "far): FAIL\n", r->dev.index, count, taken, r->uneven);
		return 1;
	}
	return 0;
}

/* `edu N: id ID, irq L on hart H, driver on hart D`: IRQ_BIND routes a line nobody had bound to
 * its binder's hart, so H = D but for a shared line someone else bound first. */
static void print_identity(const struct edu *dev)
{
	struct tacet_irq_info info = { 0 };
	struct tacet_self self;

	tacet_self(&self);
	tacet_info(TACET_INFO_IRQ, dev->irq, &info, sizeof(info));
	printf("edu %ld: id %#x, %s %lu on hart %u, driver on hart %lu\n", dev->index,
	       dev->regs[EDU_ID], dev->msi ? "msi line" : "irq", dev->irq, info.hart, self.hart);
}

int edu_test(unsigned long rounds, unsigned long move_every, unsigned int extras)
{
	struct edu_run r = { 0 };
	unsigned long harts = nharts(), moves = 0, home, away_count = move_every / AWAY_SHARE;

	if ((extras & EDU_TEST_MSI ? edu_open_msi : edu_open)(&r.dev, IRQ_BADGE))
		return 1;
	if (extras & EDU_TEST_MEMORY)
		print_memory(&r.dev);
	print_identity(&r.dev);
	if (extras & EDU_TEST_ABANDON) /* nothing acked yet: only earlier drivers' interrupts */
		printf("edu %ld: line %lu: %lu interrupts nobody handled before this driver\n",
		       r.dev.index, r.dev.irq, line_unhandled(&r));
	if ((extras >> 16) && wait_together(&r, extras >> 16))
		return 1;
	home = (unsigned long)r.dev.index % harts;
	if (move_every && edu_move(&r.dev, home))
		return 1;
	while (r.raised < rounds) {
		unsigned long n = rounds - r.raised, away;

		if (!move_every || harts < 2 || !away_count) {
			if (one_interrupt(&r, NULL))
				return 1;
			continue;
		}
		if (n > move_every)
			n = move_every;
		if (n <= away_count) {
			if (phase(&r, n, home, home, harts))
				return 1;
			continue;
		}
		/* a few interrupts on another hart (each time the next one), the rest back home */
		away = (home + 1 + moves / 2 % (harts - 1)) % harts;
		if (phase(&r, away_count, home, away, harts) ||
		    phase(&r, n - away_count, away, home, harts))
			return 1;
		moves += 2;
	}
	printf("edu %ld: raised %lu, handled %lu (%lu for other devices)", r.dev.index, r.raised,
	       r.handled, r.others);
	if (move_every)
		printf(", %lu moves, %lu uneven phases", moves, r.uneven);
	/* an MSI is never sent twice (QEMU's INTx re-send: phase()): no phase may be uneven */
	printf(": %s\n", r.raised == r.handled && (!r.dev.msi || !r.uneven) ? "PASS" : "FAIL");
	if (r.raised != r.handled || (r.dev.msi && r.uneven))
		return 1;
	if ((extras & EDU_TEST_FACTORIAL) && factorial(&r))
		return 1;
	if ((extras & EDU_TEST_DMA) && dma_round_trip(&r))
		return 1;
	if ((extras & EDU_TEST_DMA_DIE) && dma_die(&r))
		return 1;
	if ((extras & EDU_TEST_BUSY) && busy(&r))
		return 1;
	if ((extras & EDU_TEST_ABANDON) && abandon(&r))
		return 1;
	return 0;
}
