/* timer.h: per-hart one-shot deadlines on the architecture's timer. No periodic tick: a hart
 * with nothing due leaves its timer disarmed. */
#ifndef KERNEL_TIMER_H
#define KERNEL_TIMER_H

#include <stdint.h>

typedef void (*timer_fn)(void);

/* Call fn on this hart at or after `deadline` (timebase ticks); replaces any earlier one. */
void timer_arm(uint64_t deadline, timer_fn fn);
void timer_disarm(void);
/* Program this hart's hardware for the soonest of its deadlines (after a change to them). */
void timer_reprogram(void);
uint64_t timer_now(void);
uint64_t timer_us_to_ticks(uint64_t us);
/* The timer interrupt, from the arch trap code, interrupts masked. */
void timer_handle(void);

#endif
