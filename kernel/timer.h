/* timer.h: per-hart one-shot deadlines on the architecture's timer. No periodic tick: a hart
 * with nothing due leaves its timer disarmed. Each hart has one kernel deadline (the
 * scheduler's slice, kernel tests) and its notification timers (notification.c); the hardware
 * is programmed for the sooner. The state is in struct hart (hart.h), touched by its own hart
 * with interrupts masked, so no lock; arming and disarming are inline, as the scheduler does
 * one or the other on every idle entry and wake-up. */
#ifndef KERNEL_TIMER_H
#define KERNEL_TIMER_H

#include <stdint.h>
#include "arch.h"
#include "hart.h"

typedef void (*timer_fn)(void);

/* Program this hart's hardware for the soonest of its deadlines (after a change to them). */
static inline void timer_reprogram(void)
{
	struct hart *me = this_hart();
	uint64_t ntfn = __atomic_load_n(&me->ntfn_timer_next, __ATOMIC_RELAXED);

	arch_timer_set(ntfn < me->timer_deadline ? ntfn : me->timer_deadline);
}

/* Call fn on this hart at or after `deadline` (timebase ticks); replaces any earlier one. */
static inline void timer_arm(uint64_t deadline, timer_fn fn)
{
	struct hart *me = this_hart();

	me->timer_deadline = deadline;
	me->timer_call = fn;
	timer_reprogram();
}

static inline void timer_disarm(void)
{
	timer_arm(UINT64_MAX, 0);
}

static inline uint64_t timer_now(void)
{
	return arch_time_now();
}

uint64_t timer_us_to_ticks(uint64_t us);
/* The timer interrupt, from the arch trap code, interrupts masked. */
void timer_handle(void);

#endif
