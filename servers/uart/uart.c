/* uart: the ns16550a driver and console server, with a small shell (init.run=
 * `^uart=console:ns16550a`: `^` for the shell's `poweroff`). Owns the UART and its rx[] and tx[]
 * rings; one thread (the kit's service loop, <tacet/driver.h>) takes the clients' calls and the
 * line's interrupts, so nothing is locked. On an interrupt it drains the receiver into rx[] and
 * refills the transmitter's 16-byte FIFO from tx[] (which lowers the UART's interrupt), then
 * acknowledges the line, then runs the shell on what arrived. Output (its own printf and
 * CONSOLE_WRITE) goes into tx[] and returns at once; the transmitter-empty interrupt is on while
 * tx[] holds anything; only a full tx[], CONSOLE_SYNC and a power-off wait for the transmitter.
 * IPC: publishes "console", serving <tacet/console_proto.h> (dispatch generated from
 * lib/proto/console.proto). Shell commands: `help` lists them (irqshow.c and traceshow.c hold
 * the interrupt and trace ones). Hooks for servers linked with this file: uart_first_prompt()
 * runs once right after the first prompt is queued (the boot benchmark, servers/bench/boot.c),
 * uart_starting() with the device open, before the UART is set up (servers/tests/typeahead.c).
 */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/console_server.h>
#include <tacet/init_proto.h>
#include <tacet/net_client.h>
#include <tacet/quiesce.h>
#include <tacet/rtc.h>
#include <time.h>
#include <tacet/random.h>
#include "traceshow.h"
#include "irqshow.h"
#include "ping.h"

#define UART_RBR      0
#define UART_THR      0
#define UART_IER      1
#define UART_IIR      2 /* read */
#define UART_FCR      2 /* write */
#define UART_LSR      5
#define UART_IER_RX   0x01
#define UART_IER_THRE 0x02
#define UART_FCR_FIFO 0x01 /* enable (trigger level 1 byte); never the two reset bits */
#define UART_LSR_DR   0x01
#define UART_LSR_THRE 0x20
#define UART_FIFO     16

/* Quiet: every interrupt disabled (IER 0). It does no DMA: it is quieted so that the next
 * instance gets no interrupt the dead one asked for (<tacet/quiesce.h>: init applies it when the
 * console server ends; main, at its start). */
TACET_QUIESCE(uart_quiesce, "ns16550a", TACET_QUIESCE_W8(UART_IER, 0));

/* The driver's own bits of the device's notification (TACET_DEVICE_OWN_BITS). */
#define TIMER_BIT     (1ul << 2) /* irqtop's refresh */
#define INPUT_BIT     (1ul << 3) /* a wait for the transmitter took input: the shell's */
#define LINE_MAX      128

/* Weak, so that the console server proper has none: the address is then 0. Returns nonzero to
 * have the machine powered off, as the shell's poweroff does. */
int uart_first_prompt(void) __attribute__((weak));
void uart_starting(volatile uint8_t *regs) __attribute__((weak));

#define TX_SIZE       4096 /* a power of two */
#define RX_SIZE       256  /* a power of two */

static struct tacet_device uart;
static char line[LINE_MAX];
static unsigned int line_len;
static char tx[TX_SIZE], rx[RX_SIZE];
static unsigned long tx_head, tx_tail, rx_head, rx_tail; /* free-running; head - tail = used */

static uint8_t reg_read(unsigned int reg)
{
	return mmio_read8(uart.regs + reg);
}

static void reg_write(unsigned int reg, uint8_t v)
{
	mmio_write8(uart.regs + reg, v);
}

/* The transmitter-empty interrupt is wanted while there is something to send. */
static void tx_irq(int on)
{
	reg_write(UART_IER, (uint8_t)(UART_IER_RX | (on ? UART_IER_THRE : 0)));
}

/* Everything the receiver holds, into rx[]: whether there was anything. */
static int rx_drain(void)
{
	int took = 0;

	while (reg_read(UART_LSR) & UART_LSR_DR) {
		char c = (char)reg_read(UART_RBR);

		if (rx_head - rx_tail < RX_SIZE)
			rx[rx_head++ % RX_SIZE] = c;
		took = 1;
	}
	return took;
}

/* The line fired: take what arrived and send what fits (the UART lowers its interrupt), then
 * acknowledge. */
static void uart_interrupt(void)
{
	int handled = (reg_read(UART_IIR) & 1) == 0; /* bit 0 clear: the UART had a reason */

	if (rx_drain())
		handled = 1;
	if (reg_read(UART_LSR) & UART_LSR_THRE) {
		for (int i = 0; i < UART_FIFO && tx_tail != tx_head; i++)
			reg_write(UART_THR, (uint8_t)tx[tx_tail++ % TX_SIZE]);
		if (tx_tail == tx_head)
			tx_irq(0);
	}
	tacet_device_ack(&uart, handled);
}

/* Wait for the transmitter until tx[] holds at most `most` bytes. This runs inside printf or a
 * client's call, where the shell cannot: the driver's own bits that come meanwhile (irqtop's
 * timer), and INPUT_BIT if input arrived, go back on the notification, and the service loop
 * hands them to event() afterwards. */
static void wait_for_tx(unsigned long most)
{
	unsigned long kept = 0, rx_before = rx_head;

	while (tx_head - tx_tail > most) {
		long ev = tacet_device_wait(&uart, 0);

		if (ev == (long)TACET_DEVICE_IRQ)
			uart_interrupt();
		else if (ev > 0)
			kept |= (unsigned long)ev;
	}
	if (rx_head != rx_before)
		kept |= INPUT_BIT;
	if (kept)
		tacet_signal(uart.ntfn_slot, kept);
}

static void uart_putc(char c)
{
	if (tx_head - tx_tail == TX_SIZE)
		wait_for_tx(TX_SIZE - 1);
	tx[tx_head++ % TX_SIZE] = c;
}

/* The console sink for this server's own printf and its clients: into tx[], then the
 * transmitter-empty interrupt takes it from there. */
static long uart_write(const void *buf, unsigned long len)
{
	const char *s = buf;

	for (unsigned long i = 0; i < len; i++) {
		if (s[i] == '\n')
			uart_putc('\r');
		uart_putc(s[i]);
	}
	if (len)
		tx_irq(1); /* the transmitter is empty now or will be: the interrupt comes */
	return (long)len;
}

/* Everything in tx[] out to the device (before powering off, and for CONSOLE_SYNC). */
static void uart_flush(void)
{
	fflush(stdout);
	wait_for_tx(0);
}

static const char *const state_names[] = {
	"running", "ready", "send", "recv", "reply", "wait", "faulted", "dead",
};

static void cmd_ps(void)
{
	struct tacet_thread_info ti;

	printf("  TID PROCESS          HART PRIO STATE\n");
	for (unsigned long i = 0; tacet_info(TACET_INFO_THREAD, i, &ti, sizeof(ti)) > 0; i++)
		printf("%5u %-16.16s %4u %4u %s\n", ti.tid, ti.process, ti.hart, ti.priority,
		       ti.state < sizeof(state_names) / sizeof(state_names[0]) ? state_names[ti.state]
									  : "?");
}

#define IRQTOP_PERIOD_NS 1000000000ull /* 1 s */

static int irqtop;                       /* the live table is on screen */
static int irqtop_by_latency;            /* sorted by the worst wake-up latency */
static unsigned long irqtop_refreshes;

/* A live irq table, redrawn every second (a notification timer) until a key is pressed. */
static void irqtop_draw(void)
{
	printf("\033[H\033[Jirqtop: refresh %lu, by %s; s sorts by %s, any other key stops\n",
	       ++irqtop_refreshes, irqtop_by_latency ? "worst wake-up latency" : "line",
	       irqtop_by_latency ? "line" : "worst wake-up latency");
	irq_table(1, irqtop_by_latency);
	fflush(stdout);
	tacet_timer_set(uart.ntfn_slot, TIMER_BIT, tacet_time() + tacet_ns_to_ticks(IRQTOP_PERIOD_NS));
}

static void cmd_irqtop(void)
{
	irqtop = 1;
	irqtop_refreshes = 0;
	irq_rates_start(); /* the rates of the first refresh count from now */
	irqtop_draw();
}

/* A key while irqtop is on: s re-sorts it at once, any other key ends it. */
static void irqtop_key(char c)
{
	if (c == 's') {
		irqtop_by_latency = !irqtop_by_latency;
		irqtop_draw();
		return;
	}
	irqtop = 0;
	tacet_timer_set(uart.ntfn_slot, TIMER_BIT, 0);
	printf("irqtop: stopped\ntacet> ");
	fflush(stdout);
}

static void cmd_mem(void)
{
	struct tacet_mem_info mi;

	if (tacet_info(TACET_INFO_MEM, 0, &mi, sizeof(mi)) < 0) {
		printf("mem: unavailable\n");
		return;
	}
	printf("pages: %lu total, %lu free (%lu KiB free); kernel objects: %lu\n", mi.total_pages,
	       mi.free_pages, mi.free_pages * 4, mi.kernel_objects);
	printf("kernel and frames below %#lx, DMA frames from %#lx; the sides met %lu times\n",
	       mi.low_end, mi.dma_start, mi.sides_met);
}

/* The time of day from the "rtc" service, as UTC. The call blocks the console until the rtc
 * answers (up to a second if it is not running at all). */
static void cmd_date(void)
{
	uint64_t ns;
	long err = tacet_rtc_time(&ns);
	time_t secs = (time_t)(ns / 1000000000u);
	struct tm tm;

	if (err) {
		printf("date: no time of day: %s\n", tacet_strerror(err));
		return;
	}
	gmtime_r(&secs, &tm);
	printf("%04d-%02d-%02d %02d:%02d:%02d UTC\n", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
	       tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* 16 bytes from the entropy service, in hex. The rng server never calls the console, so this
 * call cannot come back to us. */
static void cmd_random(void)
{
	unsigned char b[16];
	long err = tacet_random(b, sizeof(b));

	if (err < 0) {
		printf("random: %s\n", tacet_strerror(err));
		return;
	}
	for (unsigned int i = 0; i < sizeof(b); i++)
		printf("%02x", b[i]);
	printf("\n");
}

/* Each of the card's queues (NET_QUEUE, service in slot ep): the line its completions are
 * signalled on, the hart serving it, interrupts handled there and completions taken. */
static void net_queues(unsigned long ep)
{
	uint64_t line, hart, irqs, done;

	for (uint64_t i = 0; net_call_queue(ep, i, &line, &hart, &irqs, &done) == 0; i++)
		printf("  queue %llu (pair %llu %s): line %llu, hart %llu: %llu interrupts, %llu "
		       "completions\n", (unsigned long long)i, (unsigned long long)(i / 2),
		       i % 2 ? "transmit" : "receive", (unsigned long long)line,
		       (unsigned long long)hart, (unsigned long long)irqs,
		       (unsigned long long)done);
}

/* A network device service's card and counts (`net [NAME]`, "net0" by default): MAC, link,
 * frames each way, drops and the driver's interrupts per packet (<tacet/net_proto.h>). net never
 * calls the console, so these calls cannot come back to us. */
static void cmd_net(const char *name)
{
	uint64_t mac, link, mtu, rx, tx, irqs, drops;
	long slot = tacet_slot_alloc(), err;

	name = name && *name ? name : "net0";
	err = slot < 0 ? slot : tacet_lookup(name, (unsigned long)slot, 1);
	if (!err)
		err = net_call_info((unsigned long)slot, &mac, &link, &mtu);
	if (!err)
		err = net_call_stats((unsigned long)slot, &rx, &tx, &irqs, &drops);
	if (err) {
		if (slot >= 0)
			tacet_slot_free((unsigned long)slot);
		printf("net: %s: %s\n", name, tacet_strerror(err));
		return;
	}
	printf("%s: %02x:%02x:%02x:%02x:%02x:%02x, link %s, mtu %llu\n", name,
	       (unsigned int)(mac & 0xff), (unsigned int)(mac >> 8 & 0xff),
	       (unsigned int)(mac >> 16 & 0xff), (unsigned int)(mac >> 24 & 0xff),
	       (unsigned int)(mac >> 32 & 0xff), (unsigned int)(mac >> 40 & 0xff),
	       link ? "up" : "down", (unsigned long long)mtu);
	printf("  %llu received, %llu sent, %llu dropped, %llu interrupts (%llu.%03llu a packet)\n",
	       (unsigned long long)rx, (unsigned long long)tx, (unsigned long long)drops,
	       (unsigned long long)irqs, (unsigned long long)(irqs / (rx + tx ? rx + tx : 1)),
	       (unsigned long long)(irqs * 1000 / (rx + tx ? rx + tx : 1) % 1000));
	net_queues((unsigned long)slot);
	tacet_slot_free((unsigned long)slot);
}

/* Returns only if init refuses: init.run= did not give this server `^` (<tacet.h>). */
static void cmd_poweroff(void)
{
	long err;

	printf("powering off\n");
	uart_flush();
	err = tacet_poweroff(0); /* returns only if init refuses */
	if (err == -TACET_EPERM)
		printf("poweroff: refused: the console's init.run= entry has no `^`\n");
	else
		printf("poweroff: %s\n", tacet_strerror(err));
}

/* The console server faults on purpose (a store to address 0): init restarts it when init.run
 * says so (`^uart=console:ns16550a*3`), and its clients reconnect; without that, the console
 * is gone. */
static void cmd_crash(void)
{
	printf("crashing the console server\n");
	uart_flush();
	*(volatile unsigned long *)0 = 0;
}

static void run_command(char *cmd)
{
	char *arg = strchr(cmd, ' ');

	if (arg)
		*arg++ = '\0';
	if (!cmd[0])
		return;
	if (!strcmp(cmd, "help"))
		printf("commands: help, echo TEXT, ps, harts, irqs, irqtop, irqhist LINE, metrics, "
		       "mem, date, random, net [NAME], ping ADDR [COUNT], crash, trace on|off|dump, "
		       "poweroff\n");
	else if (!strcmp(cmd, "echo"))
		printf("%s\n", arg ? arg : "");
	else if (!strcmp(cmd, "ps"))
		cmd_ps();
	else if (!strcmp(cmd, "harts"))
		cmd_harts();
	else if (!strcmp(cmd, "irqs"))
		irq_table(0, 0);
	else if (!strcmp(cmd, "irqtop"))
		cmd_irqtop();
	else if (!strcmp(cmd, "irqhist"))
		cmd_irqhist(arg);
	else if (!strcmp(cmd, "metrics"))
		cmd_metrics();
	else if (!strcmp(cmd, "mem"))
		cmd_mem();
	else if (!strcmp(cmd, "date"))
		cmd_date();
	else if (!strcmp(cmd, "random"))
		cmd_random();
	else if (!strcmp(cmd, "net"))
		cmd_net(arg);
	else if (!strcmp(cmd, "ping"))
		cmd_ping(arg);
	else if (!strcmp(cmd, "poweroff"))
		cmd_poweroff();
	else if (!strcmp(cmd, "crash"))
		cmd_crash();
	else if (!strcmp(cmd, "trace"))
		cmd_trace(arg);
	else
		printf("%s: unknown command (try help)\n", cmd);
}

/* One received byte: line editing with echo. */
static void shell_input(char c)
{
	if (c == '\r' || c == '\n') {
		printf("\n");
		line[line_len] = '\0';
		run_command(line);
		line_len = 0;
		printf("tacet> ");
	} else if ((c == 0x7f || c == '\b') && line_len) {
		line_len--;
		printf("\b \b");
	} else if (c >= ' ' && c < 0x7f && line_len < LINE_MAX - 1) {
		line[line_len++] = c;
		printf("%c", c);
	}
	fflush(stdout);
}

/* What the receiver took: the shell's input, or irqtop's keys. */
static void shell_take_input(void)
{
	while (rx_tail != rx_head) {
		char c = rx[rx_tail++ % RX_SIZE];

		if (irqtop)
			irqtop_key(c);
		else
			shell_input(c);
	}
}

/* The loop's events: the line's interrupt; irqtop's timer; input a wait for the transmitter took.
 * Then the shell takes what arrived. */
static void event(struct tacet_device *dev, long ev)
{
	(void)dev;
	if (ev == (long)TACET_DEVICE_IRQ)
		uart_interrupt();
	shell_take_input();
	if ((ev & (long)TIMER_BIT) && irqtop)
		irqtop_draw();
}

long console_serve_write(struct tacet_service *s, uint64_t t0, uint64_t t1, uint64_t t2,
			 uint64_t t3)
{
	const uint64_t w[4] = { t0, t1, t2, t3 };

	(void)s;
	return uart_write(w, strnlen((const char *)w, sizeof(w)));
}

/* Every byte queued so far written to the UART; the reply: 0. */
long console_serve_sync(struct tacet_service *s)
{
	(void)s;
	uart_flush();
	return 0;
}

int main(void)
{
	struct tacet_service service;
	const char *step = "open the device";
	long err = tacet_device_open(&uart, "ns16550a", 0, 0);

	if (!err && (step = "quiet the device"))
		err = tacet_device_quiesce(&uart) < 0 ? -TACET_EINVAL : 0;
	if (!err && (step = "publish \"console\""))
		err = tacet_service_open(&service, "console", TACET_RIGHT_WRITE, &uart);
	if (err) {
		printf("uart: cannot %s: %s\n", step, tacet_strerror(err));
		return 1;
	}
	if (uart_starting)
		uart_starting(uart.regs);
	tacet_console_write = uart_write;
	/* Keys typed before the console was up (or while init restarted it) are the shell's: taken
	 * first, then the FIFO on without resetting it (it is on already after the firmware; turning
	 * it on from off empties it, taken just before). A reset would lose them, and the bytes the
	 * kernel's log has in the transmitter. */
	rx_drain();
	reg_write(UART_FCR, UART_FCR_FIFO);
	tx_irq(0);
	printf("uart: console ready; type help\ntacet> ");
	fflush(stdout);
	if (uart_first_prompt && uart_first_prompt())
		cmd_poweroff();
	shell_take_input();
	err = tacet_service_run(&service, console_dispatch, event);
	printf("uart: receive failed: %s\n", tacet_strerror(err));
	return 1;
}
