/* console.c: polled output on the device tree's stdout UART (ns16550a: wait for the transmit
 * holding register to empty, write the byte). Owns the console lock, which serialises whole
 * kprintf calls across harts; after console_take_over() (panic) the lock is no longer used. */
#include "core/console.h"
#include "arch.h"
#include "lib/fdt.h"
#include "lib/kfmt.h"
#include "lib/kstring.h"
#include "core/spinlock.h"

#define UART_RBR 0 /* receive buffer register */
#define UART_THR 0 /* transmit holding register */
#define UART_IER 1 /* interrupt enable register */
#define UART_LSR 5 /* line status register */
#define UART_IER_RX (1u << 0)   /* received data available */
#define UART_LSR_DR (1u << 0)   /* data ready */
#define UART_LSR_THRE (1u << 5) /* transmit holding register empty */

static volatile uint8_t *uart_base;
static uint32_t uart_shift; /* "reg-shift": registers are 1 << shift bytes apart */
static uint32_t uart_irq;
static struct spinlock console_lock = SPINLOCK_INIT("console");
static int took_over;

static int uart_node(const struct fdt *fdt)
{
	const char *path = fdt_prop_string(fdt, fdt_path(fdt, "/chosen"), "stdout-path");
	char buf[128];
	size_t n;

	if (!path)
		return fdt_find_compatible(fdt, -1, "ns16550a");
	/* "path:options", or an alias name */
	for (n = 0; path[n] && path[n] != ':' && n < sizeof(buf) - 1; n++)
		buf[n] = path[n];
	buf[n] = '\0';
	if (buf[0] != '/') {
		const char *alias = fdt_prop_string(fdt, fdt_path(fdt, "/aliases"), buf);
		return alias ? fdt_path(fdt, alias) : -1;
	}
	return fdt_path(fdt, buf);
}

void console_init(const struct fdt *fdt)
{
	int node = uart_node(fdt);
	uint64_t pa, len;

	if (node < 0 || !fdt_node_is_compatible(fdt, node, "ns16550a") ||
	    fdt_reg(fdt, node, 0, &pa, &len) < 0)
		return; /* keep the firmware console */
	if (!fdt_prop_u32(fdt, node, "reg-shift", &uart_shift))
		uart_shift = 0;
	if (!fdt_prop_u32(fdt, node, "interrupts", &uart_irq))
		uart_irq = 0;
	uart_base = arch_map_device(pa, len);
}

static void console_putc(void *ctx, char c)
{
	if (c == '\n')
		console_putc(ctx, '\r');
	if (!uart_base) {
		arch_early_putc(c);
		return;
	}
	while (!(uart_base[UART_LSR << uart_shift] & UART_LSR_THRE))
		;
	uart_base[UART_THR << uart_shift] = (uint8_t)c;
}

void kvprintf(const char *fmt, va_list ap)
{
	int locked = !__atomic_load_n(&took_over, __ATOMIC_ACQUIRE);

	if (locked)
		spin_lock(&console_lock);
	kfmt_vformat(console_putc, NULL, fmt, ap);
	if (locked)
		spin_unlock(&console_lock);
}

void kprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
}

unsigned int console_irq(void)
{
	return uart_base ? uart_irq : 0;
}

void console_enable_rx_irq(void)
{
	if (uart_base)
		uart_base[UART_IER << uart_shift] = UART_IER_RX;
}

int console_getc(void)
{
	if (!uart_base || !(uart_base[UART_LSR << uart_shift] & UART_LSR_DR))
		return -1;
	return uart_base[UART_RBR << uart_shift];
}

void console_take_over(void)
{
	__atomic_store_n(&took_over, 1, __ATOMIC_RELEASE);
}
