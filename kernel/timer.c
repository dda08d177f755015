/* timer.c: per hart, the kernel's one pending deadline (timer_deadline[], timer_fn_of[]: the
 * scheduler's slice, kernel tests), touched only by that hart with interrupts masked, so no
 * lock; the hardware is programmed for the sooner of it and the hart's notification timers
 * (notification.c). */
#include "timer.h"
#include "arch.h"
#include "hart.h"
#include "irq/irq.h"
#include "notification.h"
#include "platform.h"

#define US_PER_S 1000000

static uint64_t timer_deadline[MAX_HARTS] = { [0 ... MAX_HARTS - 1] = UINT64_MAX };
static timer_fn timer_fn_of[MAX_HARTS];

void timer_reprogram(void)
{
	unsigned int id = this_hart()->id;
	uint64_t user = notification_timer_next(id);

	arch_timer_set(user < timer_deadline[id] ? user : timer_deadline[id]);
}

void timer_arm(uint64_t deadline, timer_fn fn)
{
	unsigned int id = this_hart()->id;

	timer_deadline[id] = deadline;
	timer_fn_of[id] = fn;
	timer_reprogram();
}

void timer_disarm(void)
{
	unsigned int id = this_hart()->id;

	timer_fn_of[id] = 0;
	timer_deadline[id] = UINT64_MAX;
	timer_reprogram();
}

uint64_t timer_now(void)
{
	return arch_time_now();
}

uint64_t timer_us_to_ticks(uint64_t us)
{
	return us * platform.timebase_hz / US_PER_S;
}

void timer_handle(void)
{
	struct hart *me = this_hart();
	uint64_t now = timer_now();
	timer_fn fn = NULL;

	me->timer_irqs++;
	if (notification_timer_next(me->id) <= now)
		notification_timers_expire(me->id, now);
	if (timer_deadline[me->id] <= now) {
		fn = timer_fn_of[me->id];
		timer_fn_of[me->id] = 0;
		timer_deadline[me->id] = UINT64_MAX;
	}
	timer_reprogram();
	if (fn) {
		unsigned int saved = irq_hardirq_enter();

		fn(); /* may re-arm, may irq_enable_in_hardirq() */
		irq_hardirq_exit(saved);
	}
}
