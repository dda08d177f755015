/* timer.h: per-hart one-shot deadlines on the architecture's timer. No periodic tick: a hart
 * with nothing due leaves its timer disarmed. Each hart has one kernel deadline (the
 * scheduler's slice, kernel tests) and its notification timers (notification.c); the hardware
 * is programmed for the sooner. The state is in struct hart (hart.h), touched by its own hart
 * with interrupts masked, so no lock.
 *
 * A change made while the hart holds the BKL reaches the hardware when it releases the BKL
 * (bkl_unlock, sched.h), not at once: under -icount, QEMU ends a hart's turn whenever it arms
 * a sooner timer, and a hart whose turn ended while it held the BKL keeps every other hart
 * spinning through their turns (docs/foundation.md, "A stall under -icount"). */
#ifndef KERNEL_TIMER_H
#define KERNEL_TIMER_H

#include <stdint.h>
#include "arch.h"
#include "core/hart.h"

typedef void (*timer_fn)(void);

/* Program this hart's hardware for the sooner of its deadlines, now. */
static inline void timer_program(struct hart *me)
{
	uint64_t ntfn = __atomic_load_n(&me->ntfn_timer_next, __ATOMIC_RELAXED);

	me->timer_dirty = false;
	arch_timer_set(ntfn < me->timer_deadline ? ntfn : me->timer_deadline);
}

/* After a change to this hart's deadlines: program the hardware now, or, while this hart
 * holds the BKL, when it releases it (timer.c). */
void timer_reprogram(void);

/* Call fn on this hart at or after `deadline` (timebase ticks); replaces any earlier one. */
void timer_arm(uint64_t deadline, timer_fn fn);
void timer_disarm(void);

/* timer_arm() for a hart that holds the BKL (the scheduler's slice, on every wake-up and idle
 * entry): inline, and the hardware is programmed by bkl_unlock(). */
static inline void timer_arm_locked(struct hart *me, uint64_t deadline, timer_fn fn)
{
	me->timer_deadline = deadline;
	me->timer_call = fn;
	me->timer_dirty = true;
}

static inline uint64_t timer_now(void)
{
	return arch_time_now();
}

uint64_t timer_us_to_ticks(uint64_t us);
/* The cycle counter and the timebase read together now, for TACET_INFO_CLOCK; and whether the
 * boot argument cycles=instructions says the counter counts instructions. Boot hart, once,
 * after platform_init. */
void timer_clock_init(void);
/* TACET_INFO_CLOCK: struct tacet_clock_info into out (index 0). */
long timer_clock_info(unsigned long index, void *out);
/* The timer interrupt, from the arch trap code, interrupts masked. */
void timer_handle(void);

#endif
