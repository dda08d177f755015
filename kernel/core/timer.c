/* timer.c: arming the per-hart deadlines, the timer interrupt, the conversion to timebase
 * ticks, and the cycle counter against the timebase (TACET_INFO_CLOCK). The state is in struct
 * hart (each hart's own, touched with interrupts masked, so no lock); see timer.h for when the
 * hardware is programmed. The clock's boot pair is written once, before any other hart runs. */
#include "core/timer.h"
#include "core/hart.h"
#include "core/sched.h"
#include "irq/irq.h"
#include "object/notification.h"
#include "core/platform.h"
#include "lib/kstring.h"
#include <tacet/abi.h>

#define US_PER_S 1000000

void timer_reprogram(void)
{
	struct hart *me = this_hart();

	if (bkl_held())
		me->timer_dirty = true; /* bkl_unlock() programs it */
	else
		timer_program(me);
}

void timer_arm(uint64_t deadline, timer_fn fn)
{
	struct hart *me = this_hart();

	timer_arm_locked(me, deadline, fn); /* programmed when the BKL is released... */
	if (!bkl_held())
		timer_program(me); /* ...or now, not holding it */
}

void timer_disarm(void)
{
	timer_arm(UINT64_MAX, 0);
}

static uint64_t boot_cycles, boot_time; /* read together at boot */
static unsigned long clock_flags;

void timer_clock_init(void)
{
	char arg[16];
	const char *cycles = platform_bootarg("cycles", arg, sizeof(arg));

	boot_time = arch_time_now();
	boot_cycles = arch_cycles();
	if (cycles && !strcmp(cycles, "instructions"))
		clock_flags |= TACET_CLOCK_INSTRUCTIONS;
}

long timer_clock_info(unsigned long index, void *out)
{
	struct tacet_clock_info *ci = out;

	if (index)
		return -TACET_ENOENT;
	ci->timebase_hz = platform.timebase_hz;
	ci->boot_cycles = boot_cycles;
	ci->boot_time = boot_time;
	ci->time = arch_time_now();
	ci->cycles = arch_cycles();
	ci->flags = clock_flags;
	return sizeof(*ci);
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
