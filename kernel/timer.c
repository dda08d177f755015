/* timer.c: one pending deadline per hart (timer_deadline[], timer_fn_of[]), touched only by
 * that hart with interrupts masked, so no lock. */
#include "timer.h"
#include "arch.h"
#include "hart.h"
#include "irq/irq.h"
#include "platform.h"

#define US_PER_S 1000000

static uint64_t timer_deadline[MAX_HARTS];
static timer_fn timer_fn_of[MAX_HARTS];

void timer_arm(uint64_t deadline, timer_fn fn)
{
	unsigned int id = this_hart()->id;

	timer_deadline[id] = deadline;
	timer_fn_of[id] = fn;
	arch_timer_set(deadline);
}

void timer_disarm(void)
{
	unsigned int id = this_hart()->id;

	timer_fn_of[id] = 0;
	timer_deadline[id] = UINT64_MAX;
	arch_timer_set(UINT64_MAX);
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
	timer_fn fn = timer_fn_of[me->id];

	me->timer_irqs++;
	timer_fn_of[me->id] = 0;
	timer_deadline[me->id] = UINT64_MAX;
	arch_timer_set(UINT64_MAX);
	if (fn) {
		unsigned int saved = irq_hardirq_enter();

		fn(); /* may re-arm, may irq_enable_in_hardirq() */
		irq_hardirq_exit(saved);
	}
}
