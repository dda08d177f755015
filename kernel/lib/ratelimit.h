/* ratelimit.h: a log line's rate limit, for lines any user can cause at will (a process's end):
 * at most `burst` lines in any window of `interval` time units (the caller's clock: timebase
 * ticks in the kernel), the rest suppressed and counted. The first line a window lets through
 * after suppressed ones carries their count, so no line is lost without a trace. Each
 * rate-limited line is a line that would flood the console otherwise: a console line is slow
 * (a byte at a time through the UART), and under QEMU each byte takes the emulator's global lock
 * that every other hart's device access waits for. No locking of its own: the caller holds the
 * BKL. Portable (host tests: tests/host/test_ratelimit.c). */
#ifndef KERNEL_LIB_RATELIMIT_H
#define KERNEL_LIB_RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>

struct ratelimit {
	uint64_t interval;     /* the window's length */
	uint32_t burst;        /* lines a window lets through */
	uint32_t printed;      /* in the current window */
	uint64_t window_start; /* when the current window began */
	uint64_t suppressed;   /* since the last line let through */
};

#define RATELIMIT_INIT(iv, b) { .interval = (iv), .burst = (b) }

/* Whether a line may go out at time now; if it may, *missed is the count of lines suppressed
 * since the last one let through (0: none), which the caller reports with it. */
bool ratelimit_take(struct ratelimit *r, uint64_t now, uint64_t *missed);
/* The count of lines suppressed since the last one let through, now reported (set to 0): for a
 * line that goes out whatever the limit says (the last one of its kind before a power-off). */
uint64_t ratelimit_flush(struct ratelimit *r);

#endif
