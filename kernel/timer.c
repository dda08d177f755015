/* timer.c: the timer interrupt, and the conversion to timebase ticks. The per-hart deadlines
 * and their arming are inline in timer.h (state in struct hart: each hart's own, touched with
 * interrupts masked, so no lock). */
#include "timer.h"
#include "hart.h"
#include "irq/irq.h"
#include "notification.h"
#include "platform.h"

#define US_PER_S 1000000

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
	if (__atomic_load_n(&me->ntfn_timer_next, __ATOMIC_RELAXED) <= now)
		notification_timers_expire(me->id, now);
	if (me->timer_deadline <= now) {
		fn = me->timer_call;
		me->timer_call = 0;
		me->timer_deadline = UINT64_MAX;
	}
	timer_reprogram();
	if (fn) {
		unsigned int saved = irq_hardirq_enter();

		fn(); /* may re-arm, may irq_enable_in_hardirq() */
		irq_hardirq_exit(saved);
	}
}
