/* stress_ctl.c: the measuring server's side of the stress benchmarks' protocol (stress.h):
 * finding the stressors, their go and their stop. bench_stress and bench_wall call it from
 * their one thread; no locking. */
#include <stdio.h>
#include <tacet.h>
#include "stress.h"

#define STRESS_MAX_HARTS 32 /* STRESS_READY(h) must fit above STRESS_DONE(h) */

long stress_ctl_find(struct stress_ctl *c, unsigned long skip)
{
	struct tacet_hart_info hi;
	long err = tacet_ntfn_new(c->done);

	if (!err)
		err = tacet_publish(STRESS_DONE_NAME, c->done, TACET_RIGHT_WRITE);
	for (unsigned int h = 0; !err && h < STRESS_MAX_HARTS &&
				 tacet_info(TACET_INFO_HART, h, &hi, sizeof(hi)) > 0; h++) {
		char name[24];

		if (skip & 1ul << h)
			continue;
		snprintf(name, sizeof(name), STRESS_NAME_FMT, h);
		err = tacet_lookup(name, c->stop + h, STRESS_LOOKUP_TRIES);
		c->stressors |= 1ul << h;
	}
	return err ? err : c->stressors ? 0 : -TACET_EINVAL;
}

/* Wait until the done notification has given, for every stressor, its bit in want(h) or
 * STRESS_DONE(h). */
static long wait_each(struct stress_ctl *c, unsigned long (*want)(unsigned int h))
{
	for (unsigned int h = 0; h < STRESS_MAX_HARTS; h++) {
		while (c->stressors & 1ul << h && !(c->got & (want(h) | STRESS_DONE(h)))) {
			long bits = tacet_wait(c->done);

			if (bits < 0)
				return bits;
			c->got |= (unsigned long)bits;
		}
	}
	return 0;
}

static unsigned long ready_bit(unsigned int h)
{
	return STRESS_READY(h);
}

static unsigned long done_bit(unsigned int h)
{
	return STRESS_DONE(h);
}

long stress_ctl_ready(struct stress_ctl *c)
{
	return wait_each(c, ready_bit);
}

static long signal_each(struct stress_ctl *c, unsigned long bits)
{
	long err = 0;

	for (unsigned int h = 0; !err && h < STRESS_MAX_HARTS; h++)
		if (c->stressors & 1ul << h)
			err = tacet_signal(c->stop + h, bits);
	return err;
}

long stress_ctl_go(struct stress_ctl *c)
{
	return signal_each(c, STRESS_GO);
}

long stress_ctl_hold(struct stress_ctl *c, int spin)
{
	long err;

	c->got &= ~(~0ul << 32); /* forget the last ready bits (STRESS_READY) */
	err = signal_each(c, spin ? STRESS_SPIN : STRESS_HOLD);
	return err ? err : wait_each(c, ready_bit);
}

long stress_ctl_stop(struct stress_ctl *c)
{
	long err = signal_each(c, STRESS_STOP);

	return err ? err : wait_each(c, done_bit);
}
