/* ktest_masked.c: the in-kernel half of the masked-vs-threaded experiment (docs/interrupts.md,
 * "Masked, windowed or threaded", says what each case measures and asserts; the threaded half is
 * servers/bench/irq_prio.c), run by `make bench` under -icount as test=irq_masked: cases 1 and 2
 * time device B's fast handler behind device A's ~20,000-instruction one, A masked (B waits for
 * A) then with the window open (B nests into A); `depth` raises 8 lines at once, each handler
 * opening the window, and reads the interrupt stack used at IRQ_NEST_MAX (4 edus, the console
 * UART, the goldfish RTC and two virtio-rng devices). Everything runs on the boot hart from its
 * idle wait, before user space (the handlers are the kernel's); it powers off at the end. */
#ifndef CONFIG_KTEST
#error "kernel/test is built into the test kernel only (make test-kernel: -DCONFIG_KTEST)"
#endif
#include "test/ktest.h"
#include "test/ktest_edu.h"
#include "arch.h"
#include "core/console.h"
#include "core/hart.h"
#include "core/platform.h"
#include "core/timer.h"
#include "irq/irq.h"
#include "lib/fdt.h"
#include "mm/mm.h"
#include <tacet/bench_work.h>

#define ROUNDS        110 /* a case's rounds; the first WARMUP are thrown away */
#define WARMUP        10
#define SAMPLES       (ROUNDS - WARMUP)
#define EDUS          4
#define NEST_LINES    8
#define STACK_BYTES   16384  /* a hart's interrupt stack (arch layout.h) */
#define PENDING_TIMEOUT_US 1000000
#define SPIN_FOR_NESTED 100

/* --- the lines and how each is raised and quieted --- */
enum line_kind { LINE_EDU, LINE_UART, LINE_RTC, LINE_VIRTIO };

struct line {
	enum line_kind kind;
	unsigned int irq;
	volatile uint32_t *regs32;   /* edu, RTC, virtio-mmio */
	volatile uint8_t *regs8;     /* the UART */
	struct edu_dev edu;
	uint8_t *queue;              /* virtio: the one-entry queue's page (direct map) */
	uint64_t queue_pa;
};

static struct line lines[NEST_LINES];
static unsigned int nlines;

#define UART_IER       1
#define UART_IER_THRI  0x02
#define RTC_ALARM_LOW  (0x08 / 4)
#define RTC_ALARM_HIGH (0x0c / 4)
#define RTC_IRQ_ENABLED (0x10 / 4)
#define RTC_CLEAR_ALARM (0x14 / 4)
#define RTC_CLEAR_IRQ  (0x1c / 4)
#define VIRTIO_MAGIC   (0x000 / 4)
#define VIRTIO_VERSION (0x004 / 4)
#define VIRTIO_DEVICE_ID (0x008 / 4)
#define VIRTIO_DRIVER_FEATURES (0x020 / 4)
#define VIRTIO_DRIVER_FEATURES_SEL (0x024 / 4)
#define VIRTIO_QUEUE_SEL (0x030 / 4)
#define VIRTIO_QUEUE_NUM (0x038 / 4)
#define VIRTIO_QUEUE_READY (0x044 / 4)
#define VIRTIO_QUEUE_NOTIFY (0x050 / 4)
#define VIRTIO_IRQ_STATUS (0x060 / 4)
#define VIRTIO_IRQ_ACK (0x064 / 4)
#define VIRTIO_STATUS  (0x070 / 4)
#define VIRTIO_QUEUE_DESC (0x080 / 4)   /* low, high */
#define VIRTIO_QUEUE_DRIVER (0x090 / 4)
#define VIRTIO_QUEUE_DEVICE (0x0a0 / 4)
#define VIRTIO_MAGIC_VALUE 0x74726976u /* "virt" */
#define VIRTIO_ID_RNG  4
#define VIRTIO_S_ACK_DRIVER 0x3u      /* ACKNOWLEDGE | DRIVER */
#define VIRTIO_S_FEATURES_OK 0x8u
#define VIRTIO_S_DRIVER_OK 0x4u
/* The queue's page: descriptor at 0, driver ring at 64, device ring at 128, the buffer at 256. */
#define Q_AVAIL 64
#define Q_USED  128
#define Q_BUF   256
#define Q_BUF_LEN 16
#define VIRTQ_DESC_F_WRITE 2

static void add_line(const struct line *l)
{
	if (nlines == NEST_LINES)
		ktest_fail("more than %u lines", NEST_LINES);
	lines[nlines++] = *l;
}

/* The first node compatible with compat: its registers mapped and its line; 0 if none. */
static int dt_device(const char *compat, int from, uint64_t *pa, unsigned int *irq)
{
	const struct fdt *fdt = &platform.fdt;
	int node = fdt_find_compatible(fdt, from, compat);
	uint64_t size;
	uint32_t line;

	if (node < 0 || fdt_reg(fdt, node, 0, pa, &size) < 0 ||
	    !fdt_irq(fdt, node, &line))
		return -1;
	*irq = line;
	return node;
}

/* A virtio-mmio transport with a virtio-rng behind it, brought to DRIVER_OK with queue 0 of one
 * entry (modern interface only: the boots pass virtio-mmio.force-legacy=false). */
static void virtio_rng_setup(struct line *l)
{
	volatile uint32_t *r = l->regs32;

	l->queue_pa = page_alloc_zeroed();
	if (!l->queue_pa)
		ktest_fail("no page for a virtio queue");
	l->queue = (uint8_t *)arch_phys_to_virt(l->queue_pa);
	r[VIRTIO_STATUS] = 0;
	r[VIRTIO_STATUS] = VIRTIO_S_ACK_DRIVER;
	r[VIRTIO_DRIVER_FEATURES_SEL] = 1;
	r[VIRTIO_DRIVER_FEATURES] = 1; /* VIRTIO_F_VERSION_1 (bit 32) */
	r[VIRTIO_DRIVER_FEATURES_SEL] = 0;
	r[VIRTIO_DRIVER_FEATURES] = 0;
	r[VIRTIO_STATUS] = VIRTIO_S_ACK_DRIVER | VIRTIO_S_FEATURES_OK;
	if (!(r[VIRTIO_STATUS] & VIRTIO_S_FEATURES_OK))
		ktest_fail("virtio-rng on line %u refused the features", l->irq);
	r[VIRTIO_QUEUE_SEL] = 0;
	r[VIRTIO_QUEUE_NUM] = 1;
	r[VIRTIO_QUEUE_DESC] = (uint32_t)l->queue_pa;
	r[VIRTIO_QUEUE_DESC + 1] = (uint32_t)(l->queue_pa >> 32);
	r[VIRTIO_QUEUE_DRIVER] = (uint32_t)(l->queue_pa + Q_AVAIL);
	r[VIRTIO_QUEUE_DRIVER + 1] = (uint32_t)((l->queue_pa + Q_AVAIL) >> 32);
	r[VIRTIO_QUEUE_DEVICE] = (uint32_t)(l->queue_pa + Q_USED);
	r[VIRTIO_QUEUE_DEVICE + 1] = (uint32_t)((l->queue_pa + Q_USED) >> 32);
	r[VIRTIO_QUEUE_READY] = 1;
	r[VIRTIO_STATUS] = VIRTIO_S_ACK_DRIVER | VIRTIO_S_FEATURES_OK | VIRTIO_S_DRIVER_OK;
}

/* One request for Q_BUF_LEN random bytes: the device answers it, then interrupts. */
static void virtio_rng_kick(struct line *l)
{
	volatile uint64_t *desc = (volatile uint64_t *)l->queue;
	volatile uint16_t *avail = (volatile uint16_t *)(l->queue + Q_AVAIL);

	desc[0] = l->queue_pa + Q_BUF;
	desc[1] = Q_BUF_LEN | (uint64_t)VIRTQ_DESC_F_WRITE << 32; /* len, flags, next 0 */
	avail[2] = 0;                                             /* ring[0]: descriptor 0 */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	avail[1] = 1;                                             /* idx */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	l->regs32[VIRTIO_QUEUE_NOTIFY] = 0;
}

/* Every line the depth case nests: the edus', the UART's, the RTC's, two virtio-rngs'. */
static void lines_setup(void)
{
	struct edu_dev edus[EDUS];
	struct line l;
	uint64_t pa;
	int node = -1;
	unsigned int rngs = 0;

	if (edu_setup(edus, EDUS) != EDUS)
		ktest_fail("needs %u edu devices (-device edu,addr=1 ... addr=%u)", EDUS, EDUS);
	for (unsigned int i = 0; i < EDUS; i++)
		add_line(&(struct line){ .kind = LINE_EDU, .irq = edus[i].irq, .edu = edus[i] });
	if (dt_device("ns16550a", -1, &pa, &l.irq) < 0)
		ktest_fail("no ns16550a in the device tree");
	add_line(&(struct line){ .kind = LINE_UART, .irq = l.irq, /* the console's: mapped */
				 .regs8 = (volatile uint8_t *)arch_phys_to_virt(pa) });
	if (dt_device("google,goldfish-rtc", -1, &pa, &l.irq) < 0)
		ktest_fail("no goldfish RTC in the device tree");
	add_line(&(struct line){ .kind = LINE_RTC, .irq = l.irq,
				 .regs32 = arch_map_device(pa, 4096) });
	while (rngs < 2 && (node = dt_device("virtio,mmio", node, &pa, &l.irq)) >= 0) {
		volatile uint32_t *r = arch_map_device(pa, 4096);

		if (r[VIRTIO_MAGIC] != VIRTIO_MAGIC_VALUE || r[VIRTIO_VERSION] != 2 ||
		    r[VIRTIO_DEVICE_ID] != VIRTIO_ID_RNG)
			continue;
		add_line(&(struct line){ .kind = LINE_VIRTIO, .irq = l.irq, .regs32 = r });
		virtio_rng_setup(&lines[nlines - 1]);
		rngs++;
	}
	if (rngs < 2)
		ktest_fail("needs two virtio-rng devices (-device virtio-rng-device, twice)");
	for (unsigned int i = 0; i < nlines; i++)
		for (unsigned int j = 0; j < i; j++)
			if (lines[i].irq == lines[j].irq)
				ktest_fail("lines %u and %u are both %u", j, i, lines[i].irq);
}

static void line_raise(struct line *l)
{
	switch (l->kind) {
	case LINE_EDU:
		l->edu.regs[EDU_IRQ_RAISE] = 1;
		break;
	case LINE_UART:
		l->regs8[UART_IER] = UART_IER_THRI; /* the transmitter is empty: at once */
		break;
	case LINE_RTC:
		l->regs32[RTC_IRQ_ENABLED] = 1;
		l->regs32[RTC_ALARM_HIGH] = 0;
		l->regs32[RTC_ALARM_LOW] = 0; /* long past: fires at once */
		break;
	case LINE_VIRTIO:
		virtio_rng_kick(l);
		break;
	}
}

static void line_quiet(struct line *l)
{
	switch (l->kind) {
	case LINE_EDU:
		edu_ack(&l->edu);
		break;
	case LINE_UART:
		l->regs8[UART_IER] = 0;
		break;
	case LINE_RTC:
		l->regs32[RTC_IRQ_ENABLED] = 0;
		l->regs32[RTC_CLEAR_IRQ] = 1;
		break;
	case LINE_VIRTIO:
		l->regs32[VIRTIO_IRQ_ACK] = l->regs32[VIRTIO_IRQ_STATUS];
		break;
	}
}

static int line_asserted(const struct line *l)
{
	return l->kind != LINE_VIRTIO || (l->regs32[VIRTIO_IRQ_STATUS] & 1);
}

/* Every line's fast handler: the phase's, with the line's index. */
static void (*phase)(unsigned int index);

static void line_handler(unsigned int irq)
{
	for (unsigned int i = 0; i < nlines; i++)
		if (lines[i].irq == irq) {
			phase(i);
			return;
		}
}

/* --- cases 1 and 2: A (line 0) raises B (line 1) and works ~20,000 instructions --- */
static int a_opens_window;
static volatile uint64_t raise_at, b_entry, a_length;
static volatile uint32_t a_runs, b_runs, a_refused;
static uint64_t b_samples[SAMPLES], a_samples[SAMPLES];

static void ab_handler(unsigned int index)
{
	uint64_t start = arch_cycles();

	if (index == 1) { /* B: note the time first */
		b_entry = start;
		line_quiet(&lines[1]);
		b_runs++;
		return;
	}
	raise_at = arch_cycles();
	line_raise(&lines[1]); /* B pending from here, while A runs */
	if (a_opens_window && !irq_enable_in_hardirq())
		a_refused++;
	tacet_bench_work(TACET_BENCH_WORK_ROUNDS);
	line_quiet(&lines[0]);
	a_runs++;
	a_length = arch_cycles() - start;
}

/* ROUNDS of A raised from the idle wait; B's latency and A's length of each after WARMUP. */
static void ab_rounds(int window, uint64_t overhead)
{
	a_opens_window = window;
	a_runs = b_runs = 0;
	for (unsigned int i = 0; i < ROUNDS; i++) {
		line_raise(&lines[0]);
		while (a_runs == i || b_runs == i) /* A, and B nested in it or right after */
			arch_idle_wait();
		if (a_runs != i + 1 || b_runs != i + 1)
			ktest_fail("round %u: A ran %u times, B %u", i + 1, a_runs, b_runs);
		if (i >= WARMUP) {
			b_samples[i - WARMUP] = b_entry - raise_at - overhead;
			a_samples[i - WARMUP] = a_length - overhead;
		}
	}
	if (window && a_refused)
		ktest_fail("A's window was refused %u times", a_refused);
}

/* --- depth: all lines pending, each handler opening the window --- */
static volatile uint32_t nest_runs, nest_depth;

static void nest_handler(unsigned int index)
{
	unsigned int depth = this_hart()->irq_depth;

	line_quiet(&lines[index]);
	nest_runs++;
	if (depth > nest_depth)
		nest_depth = depth;
	if (irq_enable_in_hardirq())
		for (volatile int i = 0; i < SPIN_FOR_NESTED; i++) /* the next line nests here */
			;
}

static uint64_t nest_all(void)
{
	struct hart *me = this_hart();
	uint64_t refused = me->nest_refused, deadline;

	phase = nest_handler;
	me->irq_sp_min = 0;
	for (unsigned int i = 0; i < nlines; i++)
		line_raise(&lines[i]);
	/* the edu, UART and RTC lines are up already; a virtio-rng answers when QEMU has the bytes */
	deadline = timer_now() + timer_us_to_ticks(PENDING_TIMEOUT_US);
	for (unsigned int i = 0; i < nlines; i++)
		while (!line_asserted(&lines[i]))
			if (timer_now() > deadline)
				ktest_fail("line %u never came up", lines[i].irq);
	while (nest_runs < nlines)
		arch_idle_wait(); /* the first line from here, every other nested into the last */
	kprintf("irq_nest8: %u lines, each handler opening the window: nested %u deep (limit %d), "
		"%lu refused, deepest interrupt-stack use %lu of %d bytes\n", nlines, nest_depth,
		IRQ_NEST_MAX, (unsigned long)(me->nest_refused - refused),
		(unsigned long)(me->irq_stack_top - me->irq_sp_min), STACK_BYTES);
	if (nest_depth != NEST_LINES || me->nest_refused - refused != 1)
		ktest_fail("expected %u nested lines, the last refused the window", NEST_LINES);
	return me->irq_stack_top - me->irq_sp_min;
}

void ktest_irq_masked(void)
{
	uint64_t c0 = arch_cycles(), overhead = arch_cycles() - c0, depth_bytes;

	lines_setup();
	phase = ab_handler;
	for (unsigned int i = 0; i < nlines; i++)
		if (irq_request_fast(lines[i].irq, line_handler, IRQF_DISABLED, this_hart()->id) < 0)
			ktest_fail("cannot take line %u for a fast handler", lines[i].irq);
	kprintf("bench: rdcycle pair overhead %lu instructions\n", (unsigned long)overhead);
	kprintf("irq_masked: A on line %u, B on line %u\n", lines[0].irq, lines[1].irq);

	ab_rounds(0, overhead); /* case 1: A masked */
	ktest_report("irq_a_handler_length", a_samples, SAMPLES);
	ktest_report("irq_masked_b_latency", b_samples, SAMPLES);
	kprintf("irq_masked: masked: B's least latency %lu, A's longest handler %lu: %s\n",
		(unsigned long)b_samples[0], (unsigned long)a_samples[SAMPLES - 1],
		b_samples[0] >= a_samples[SAMPLES - 1] ? "B waited for A" : "B got in");
	if (b_samples[0] < a_samples[SAMPLES - 1])
		ktest_fail("B's interrupt got in while A ran masked");

	ab_rounds(1, overhead); /* case 2: A opens the window */
	ktest_report("irq_window_b_latency", b_samples, SAMPLES);
	kprintf("irq_masked: window: B's longest latency %lu, A's shortest handler %lu: %s\n",
		(unsigned long)b_samples[SAMPLES - 1], (unsigned long)a_samples[0],
		b_samples[SAMPLES - 1] < a_samples[0] ? "B nested into A" : "B waited");
	if (b_samples[SAMPLES - 1] >= a_samples[0])
		ktest_fail("B did not nest into A's window");

	depth_bytes = nest_all();
	ktest_report("irq_nest8_stack_bytes", &depth_bytes, 1);
	ktest_pass();
}
