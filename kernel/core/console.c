/* console.c: the kernel's log and the device tree's stdout UART (ns16550a, polled: wait for the
 * transmit holding register to empty, write the byte). Owns the log's ring and the console
 * lock, which guards the ring (never held while waiting for the UART; see kvprintf); after
 * console_take_over() (panic) the ring is written out and the lock no longer used. */
#include "core/console.h"
#include "arch.h"
#include "lib/fdt.h"
#include "lib/kfmt.h"
#include "lib/kstring.h"
#include "lib/ratelimit.h"
#include "core/spinlock.h"
#include "core/bkl.h"
#include "core/hart.h"
#include "core/timer.h"

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
	if (!fdt_irq(fdt, node, &uart_irq))
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

/* The log: every kprintf goes into a ring first, whole or not at all, under the console lock
 * (a copy, never a wait for the UART); then the printing hart writes the ring out, unless it
 * holds the BKL: then it writes it out right after releasing it (bkl_unlock: console_dirty).
 * So no hart waits for the polled UART with the BKL held, whatever the kernel has to say or a
 * server writes through DEBUG_WRITE. A message logged with the BKL held is not even formatted
 * there: its format and arguments go into the ring (kfmt_vcapture: the strings copied) and the
 * hart that writes the ring out formats it (kfmt_replay), so a hold pays a copy of the
 * arguments, not the formatting. A kprintf's format must therefore outlive the log: a string
 * literal. One hart writes out at a time, so the order of the lines is the order they entered
 * the ring. A line the ring has no room for is dropped and counted:
 * kernel messages may fill the ring only up to CONSOLE_KERNEL_ROOM, the rest being kept for
 * DEBUG_WRITE (whose caller writes its own out before it returns to user mode: at most
 * DEBUG_WRITE_MAX per hart waits); the count is printed with the next write-out.
 *
 * The ring holds entries, each a header (struct entry) and its bytes: text, or a capture
 * (fmt, nargs, nchars, the arguments, the strings). The writer-out reads a header, then takes
 * text in chunks (entry_left: what is left of the current text entry) or a capture whole. */
#define CONSOLE_RING_SIZE (64u * 1024)
#define CONSOLE_LINE_MAX 512 /* longer messages are cut */
#define CONSOLE_KERNEL_ROOM (CONSOLE_RING_SIZE - MAX_HARTS * 4096u)
#define CONSOLE_CHUNK 64 /* bytes taken out of the ring per hold of the console lock */

enum { ENTRY_TEXT, ENTRY_CAPTURE };

struct entry {
	uint16_t len;  /* bytes after the header */
	uint8_t kind;  /* ENTRY_* */
	uint8_t nargs; /* a capture's: arguments, then */
	uint16_t nchars; /* bytes of strings */
};

static char ring[CONSOLE_RING_SIZE];  /* console_lock */
static uint32_t ring_head, ring_tail; /* console_lock: free-running, head - tail bytes queued */
static uint32_t entry_left;           /* console_lock: bytes left of the text entry at tail */
static uint64_t ring_dropped;         /* console_lock: lines dropped since the last write-out */
static int ring_writer;               /* atomic: a hart is writing the ring out */
static uint32_t ring_written;         /* atomic: ring_tail as of the last chunk written out */

_Static_assert((CONSOLE_RING_SIZE & (CONSOLE_RING_SIZE - 1)) == 0, "ring size a power of two");
_Static_assert(KFMT_CAPTURE_ARGS <= 255 && CONSOLE_LINE_MAX < 65536, "entry fields' widths");

struct line {
	char buf[CONSOLE_LINE_MAX];
	size_t len;
};

static void line_putc(void *ctx, char c)
{
	struct line *l = ctx;

	if (l->len < sizeof(l->buf))
		l->buf[l->len++] = c;
}

static void ring_copy_in(const void *src, size_t len)
{
	const char *b = src;

	for (size_t i = 0; i < len; i++)
		ring[(ring_head + i) & (CONSOLE_RING_SIZE - 1)] = b[i];
	ring_head += (uint32_t)len;
}

static void ring_copy_out(void *dst, size_t len)
{
	char *b = dst;

	for (size_t i = 0; i < len; i++)
		b[i] = ring[ring_tail++ & (CONSOLE_RING_SIZE - 1)];
}

/* Queue an entry (header e, then parts[0..n) of lens[0..n)) whole if the ring has room below
 * limit; else count it dropped. */
static void ring_put(struct entry e, const void *const *parts, const size_t *lens, int n,
		     uint32_t limit)
{
	spin_lock(&console_lock);
	if (ring_head - ring_tail + sizeof(e) + e.len > limit) {
		ring_dropped++;
	} else {
		ring_copy_in(&e, sizeof(e));
		for (int i = 0; i < n; i++)
			ring_copy_in(parts[i], lens[i]);
	}
	spin_unlock(&console_lock);
}

static void ring_put_text(const char *buf, size_t len, uint32_t limit)
{
	struct entry e = { .len = (uint16_t)len, .kind = ENTRY_TEXT };
	const void *parts[] = { buf };

	if (len)
		ring_put(e, parts, &len, 1, limit);
}

static void ring_put_capture(const struct kfmt_capture *c)
{
	struct entry e = { .kind = ENTRY_CAPTURE, .nargs = (uint8_t)c->nargs,
			   .nchars = (uint16_t)c->nchars };
	const void *parts[] = { &c->fmt, c->arg, c->str };
	size_t lens[] = { sizeof(c->fmt), c->nargs * sizeof(c->arg[0]), c->nchars };

	e.len = (uint16_t)(lens[0] + lens[1] + lens[2]);
	ring_put(e, parts, lens, 3, CONSOLE_KERNEL_ROOM);
}

/* What ring_take found at the tail. */
enum taken { TAKEN_NONE, TAKEN_TEXT, TAKEN_CAPTURE };

/* The capture whose header e was just read: into *c, whole. console_lock held. */
static void take_capture(const struct entry *e, struct kfmt_capture *c)
{
	ring_copy_out(&c->fmt, sizeof(c->fmt));
	ring_copy_out(c->arg, e->nargs * sizeof(c->arg[0]));
	ring_copy_out(c->str, e->nchars);
	c->nargs = e->nargs;
	c->nchars = e->nchars;
}

/* The next thing to write out: up to `max` bytes of text into buf (*n), or a capture into *c,
 * or, once the ring is empty, the dropped lines' count as text. *upto: where the ring's
 * written-out part will end once it is written. */
static enum taken ring_take(char *buf, size_t max, size_t *n, struct kfmt_capture *c,
			    uint32_t *upto)
{
	enum taken what = TAKEN_NONE;

	*n = 0;
	spin_lock(&console_lock);
	if (!entry_left && ring_tail != ring_head) {
		struct entry e;

		ring_copy_out(&e, sizeof(e));
		if (e.kind == ENTRY_CAPTURE) {
			take_capture(&e, c);
			what = TAKEN_CAPTURE;
		} else {
			entry_left = e.len;
		}
	}
	for (; what == TAKEN_NONE && *n < max && entry_left; entry_left--)
		buf[(*n)++] = ring[ring_tail++ & (CONSOLE_RING_SIZE - 1)];
	if (*n)
		what = TAKEN_TEXT;
	if (what == TAKEN_NONE && ring_dropped) {
		int len = ksnprintf(buf, max, "tacet: %lu lines dropped (the log was full)\n",
				    (unsigned long)ring_dropped);

		ring_dropped = 0;
		*n = len < (int)max ? (size_t)len : max - 1;
		what = TAKEN_TEXT;
	}
	*upto = ring_tail;
	spin_unlock(&console_lock);
	return what;
}

static int ring_empty(void)
{
	return __atomic_load_n(&ring_head, __ATOMIC_RELAXED) ==
		       __atomic_load_n(&ring_tail, __ATOMIC_RELAXED) &&
	       !__atomic_load_n(&ring_dropped, __ATOMIC_RELAXED);
}

/* The next thing the ring holds, written out (the writer's, ring_writer held): false if there
 * was none. */
static bool write_next(void)
{
	char chunk[CONSOLE_CHUNK];
	struct kfmt_capture c;
	enum taken what;
	uint32_t upto;
	size_t n;

	what = ring_take(chunk, sizeof(chunk), &n, &c, &upto);
	if (what == TAKEN_NONE)
		return false;
	if (what == TAKEN_CAPTURE)
		kfmt_replay(console_putc, NULL, &c);
	for (size_t i = 0; i < n; i++)
		console_putc(NULL, chunk[i]);
	__atomic_store_n(&ring_written, upto, __ATOMIC_RELEASE);
	return true;
}

/* Write out what the log held when called (up to end), unless another hart writes (it writes
 * this too) or, unless sync, an interrupt is pending on this hart: it is taken first, and the
 * rest waits for this hart's next release of the BKL (console_dirty) or its idle wait
 * (console_idle). Bounded either way: a hart that logs writes out at most what was queued
 * before its call, never for as long as other harts keep logging, and a driver's interrupt
 * waits at most for one chunk. True if the hart wrote up to end. */
static bool drain(bool sync)
{
	uint32_t end = __atomic_load_n(&ring_head, __ATOMIC_ACQUIRE);
	bool stopped = false;

	if (__atomic_exchange_n(&ring_writer, 1, __ATOMIC_ACQUIRE))
		return false; /* the hart writing it out writes this too, or leaves it dirty */
	while ((int32_t)(__atomic_load_n(&ring_written, __ATOMIC_RELAXED) - end) < 0 &&
	       write_next()) {
		if (!sync && arch_interrupts_pending()) {
			stopped = true;
			break;
		}
	}
	/* lines dropped since the last write-out: their count, once what came before is out */
	if (!stopped && __atomic_load_n(&ring_dropped, __ATOMIC_RELAXED))
		write_next();
	__atomic_store_n(&ring_writer, 0, __ATOMIC_RELEASE);
	/* more was queued meanwhile, some of it perhaps by a hart that saw this one writing:
	 * this hart writes it after its next release of the lock, or as it idles */
	if (!ring_empty())
		this_hart()->console_dirty = true;
	return !stopped;
}

void console_drain(void)
{
	drain(false);
}

void console_idle(void)
{
	struct hart *me = this_hart();

	me->console_dirty = false;
	while (!ring_empty() && !arch_interrupts_pending() && drain(false))
		me->console_dirty = false; /* (drain sets it while more is left) */
}

/* Until the ring is written out up to end (what was logged before is on the wire). Not
 * holding the BKL. */
static void console_wait_written(uint32_t end)
{
	while ((int32_t)(__atomic_load_n(&ring_written, __ATOMIC_ACQUIRE) - end) < 0)
		drain(true); /* returns at once while another hart writes */
}

void console_written_after_unlock(struct hart *me)
{
	me->console_dirty = false;
	if (!me->console_sync) {
		console_drain(); /* returns at once if another hart writes: it writes this too */
		return;
	}
	me->console_sync = false;
	/* everything logged so far (a little more than before the call: as good) */
	console_wait_written(__atomic_load_n(&ring_head, __ATOMIC_RELAXED));
}

void console_sync_after_unlock(void)
{
	struct hart *me = this_hart();

	klog_flush_all(); /* every line accounted before the machine stops */
	me->console_sync = true;
	me->console_dirty = true;
}

/* After a panic's take-over: what the ring holds, then the rest directly, without locks. */
static void ring_flush_unlocked(void)
{
	struct kfmt_capture c;

	/* the console lock is not taken (its holder may be halted): a ring_take of its own */
	while (entry_left || ring_tail != ring_head) {
		struct entry e;

		if (!entry_left) {
			ring_copy_out(&e, sizeof(e));
			if (e.kind == ENTRY_CAPTURE) {
				take_capture(&e, &c);
				kfmt_replay(console_putc, NULL, &c);
				continue;
			}
			entry_left = e.len;
		}
		for (; entry_left; entry_left--)
			console_putc(NULL, ring[ring_tail++ & (CONSOLE_RING_SIZE - 1)]);
	}
}

void console_write(const char *buf, size_t len, int from_user)
{
	struct hart *me = this_hart();

	ring_put_text(buf, len, from_user ? CONSOLE_RING_SIZE : CONSOLE_KERNEL_ROOM);
	if (bkl_held())
		me->console_dirty = true; /* written out after the release */
	else
		console_drain();
}

void kvprintf(const char *fmt, va_list ap)
{
	struct line l = { .len = 0 };

	if (__atomic_load_n(&took_over, __ATOMIC_ACQUIRE) || !uart_base) {
		/* a panic (it alone prints now), or before the UART is known (boot, one hart) */
		kfmt_vformat(console_putc, NULL, fmt, ap);
		return;
	}
	if (bkl_held()) {
		struct kfmt_capture c;

		if (!kfmt_vcapture(&c, fmt, ap)) {
			/* formatted by whoever writes the ring out, after the release */
			ring_put_capture(&c);
			this_hart()->console_dirty = true;
			return;
		}
	}
	kfmt_vformat(line_putc, &l, fmt, ap);
	console_write(l.buf, l.len, 0);
}

void kprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
}

/* The rate-limited sites seen so far (klog_allowed), whose untold counts klog_flush_all tells. */
#define KLOG_SITES 8
static struct {
	struct ratelimit *r;
	const char *what;
} klog_sites[KLOG_SITES];

static void klog_missed(uint64_t missed, const char *what)
{
	if (missed)
		kprintf("tacet: %lu %s lines not logged (at most %u a second)\n", (unsigned long)missed,
			what, KLOG_BURST);
}

static void klog_first_use(struct ratelimit *r, const char *what)
{
	r->interval = timer_us_to_ticks(1000000);
	for (unsigned int i = 0; i < KLOG_SITES; i++)
		if (!klog_sites[i].r) {
			klog_sites[i].r = r;
			klog_sites[i].what = what;
			return;
		}
	/* more sites than KLOG_SITES: this one's counts are told only by its next line out */
}

bool klog_allowed(struct ratelimit *r, const char *what)
{
	uint64_t missed;

	if (!r->interval)
		klog_first_use(r, what);
	if (!ratelimit_take(r, timer_now(), &missed))
		return false;
	klog_missed(missed, what);
	return true;
}

void klog_flush_all(void)
{
	for (unsigned int i = 0; i < KLOG_SITES && klog_sites[i].r; i++)
		klog_missed(ratelimit_flush(klog_sites[i].r), klog_sites[i].what);
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
	ring_flush_unlocked(); /* what was said before the panic, first */
}

void console_flush(void)
{
	this_hart()->console_dirty = false;
	/* until the log is empty and no hart still writes out a chunk it took from it */
	do
		drain(true);
	while (!ring_empty() || __atomic_load_n(&ring_writer, __ATOMIC_ACQUIRE));
}
