/* stress.c: what every stressor of the stress benchmarks shares: its side of the protocol in
 * stress.h (the measuring server's is stress_ctl.c). One thread (the stressor's main); no
 * locking. */
#include <stdio.h>
#include <tacet.h>
#include "stress.h"

static unsigned int hart;

static long stress_begin(void)
{
	struct tacet_self self;
	char name[24];
	long err = tacet_ntfn_new(STRESS_SLOT_STOP);

	if (!err)
		err = tacet_ntfn_new(STRESS_SLOT_PAUSE);
	tacet_self(&self);
	hart = (unsigned int)self.hart;
	snprintf(name, sizeof(name), STRESS_NAME_FMT, hart);
	if (!err)
		err = tacet_lookup(STRESS_DONE_NAME, STRESS_SLOT_DONE, STRESS_LOOKUP_TRIES);
	if (!err)
		err = tacet_publish(name, STRESS_SLOT_STOP, TACET_RIGHT_WRITE);
	return err;
}

/* STRESS_SPIN_LOOK_NS of a loop in user mode (no kernel entry), then a look at the stop
 * notification: its bits, or the error. */
static long stress_spin(void)
{
	unsigned long until = tacet_time() + tacet_ns_to_ticks(STRESS_SPIN_LOOK_NS);

	while (tacet_time() < until)
		;
	return tacet_poll(STRESS_SLOT_STOP);
}

/* Held: say ready, then wait for the go or the stop, asleep or (spin) in a loop in user mode;
 * a hold or a spin meanwhile says ready again and changes how. 1 if the stop came (no more
 * rounds), 0 for the go, or the error. A hold or spin is looked at before a go that came with
 * it: the measuring server waits for the ready after each, never after a go, so the go is the
 * older. */
static long stress_held(int spin)
{
	long err = tacet_signal(STRESS_SLOT_DONE, STRESS_READY(hart));

	while (!err) {
		long bits = spin ? stress_spin() : tacet_wait(STRESS_SLOT_STOP);

		if (bits < 0)
			return bits;
		if (bits & STRESS_STOP)
			return 1;
		if (bits & (STRESS_HOLD | STRESS_SPIN)) {
			spin = (bits & STRESS_SPIN) != 0;
			err = tacet_signal(STRESS_SLOT_DONE, STRESS_READY(hart));
		} else if (bits & STRESS_GO) {
			return 0;
		}
	}
	return err;
}

/* Between two rounds: 1 if the stop came, 0 to go on (after a hold or spin, once the go came),
 * or the error. */
static long stress_between(void)
{
	long bits = tacet_poll(STRESS_SLOT_STOP);

	if (bits < 0)
		return bits;
	if (bits & STRESS_STOP)
		return 1;
	return bits & (STRESS_HOLD | STRESS_SPIN) ? stress_held((bits & STRESS_SPIN) != 0) : 0;
}

static long stress_pause(void)
{
	long err = tacet_timer_set(STRESS_SLOT_PAUSE, 1, tacet_time() + tacet_ns_to_ticks(STRESS_PAUSE_NS));

	if (!err && tacet_wait(STRESS_SLOT_PAUSE) < 0)
		err = -TACET_EDEAD;
	return err;
}

static int stress_end(const char *what, unsigned long count, const char *unit, long err)
{
	if (err)
		printf("stress %s: FAIL after %lu %s on hart %u: %s\n", what, count, unit, hart,
		       tacet_strerror(err));
	else
		printf("stress %s: %lu %s on hart %u\n", what, count, unit, hart);
	tacet_signal(STRESS_SLOT_DONE, STRESS_DONE(hart));
	return err != 0;
}

int stress_run(const struct stressor *s)
{
	unsigned long count = 0;
	long stopped = 0, err = stress_begin();

	if (!err && s->start)
		err = s->start();
	if (!err && (stopped = stress_held(0)) < 0)
		err = stopped;
	while (!err && !stopped) {
		long done;

		if ((stopped = stress_between()) != 0) {
			err = stopped < 0 ? stopped : 0;
			break;
		}
		done = s->round();
		if (done < 0)
			err = done;
		else
			count += (unsigned long)done;
		if (!err)
			err = stress_pause();
	}
	if (!err && s->finish)
		err = s->finish();
	return stress_end(s->what, count, s->unit, err);
}
