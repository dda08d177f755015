/* console.h: the kernel's own polled console for boot and panic messages. Drivers proper (the
 * interrupt-driven UART server) live in user space. */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <stdarg.h>
#include <stddef.h>
#include "lib/ratelimit.h"

struct fdt;

/* Find the /chosen stdout-path UART (ns16550a) and print through it from now on; until then,
 * and if there is none, output goes through the firmware. Boot hart, once. */
void console_init(const struct fdt *fdt);
/* Whole lines from different harts do not interleave: each call holds the console lock. */
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void kvprintf(const char *fmt, va_list ap);
/* A line any user can cause at will (a process's end, a thread's fault) goes out only if its
 * site's rate limit lets it (lib/ratelimit.h: KLOG_BURST lines a second, over timebase ticks);
 * before the first one let through after some were not, a line says how many `what` lines
 * were not logged. BKL held. A site's limit: static struct ratelimit r = KLOG_LIMIT_INIT. */
#define KLOG_BURST 32
#define KLOG_LIMIT_INIT RATELIMIT_INIT(0, KLOG_BURST) /* its second set at the first use */
bool klog_allowed(struct ratelimit *r, const char *what);
/* Before a power-off: log how many lines each site did not, where that is not yet told. */
void klog_flush_all(void);
/* The console UART's interrupt line (0 if none) and receive side, for the in-kernel test of the
 * external interrupt path: the UART server owns input once user space exists. */
unsigned int console_irq(void);
void console_enable_rx_irq(void);
/* The next received byte, or -1 if none is waiting. */
int console_getc(void);
/* Panic: stop taking the console lock (its holder may be halted). */
void console_take_over(void);
/* Queue len bytes of output (from_user: DEBUG_WRITE's, which may use the whole log); written
 * out now, or after the BKL's release if this hart holds it (console.c). */
void console_write(const char *buf, size_t len, int from_user);
/* Write out what the log holds (not holding the BKL: it waits for the UART), up to what it
 * held when called, stopping early for an interrupt pending on this hart (what is left is
 * written after this hart's next release of the BKL, or as it idles: console_idle). */
void console_drain(void);
/* The idle wait's, when this hart left part of the log unwritten (console_dirty): write out
 * what the log holds while it has nothing else to do (no interrupt pending). Not holding the
 * BKL. */
void console_idle(void);
struct hart;
/* After the BKL's release: write out what me queued while holding it (or, after
 * console_sync_after_unlock, return only once everything logged before is on the wire). */
void console_written_after_unlock(struct hart *me);
/* BKL held: after its release, this hart waits until everything logged so far is written out
 * (DEBUG_WRITE of 0 bytes: before a power-off from user space); the rate-limited sites'
 * untold counts go first (klog_flush_all). */
void console_sync_after_unlock(void);
/* Before power-off: write out everything, and wait for any hart still writing out a part of
 * it (the machine stops after). */
void console_flush(void);

#endif
