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

/* Say ready, then wait for the go; 1 if the stop came first (no rounds), 0, or the error. */
static long stress_await_go(void)
{
	long bits = 0, err = tacet_signal(STRESS_SLOT_DONE, STRESS_READY(hart));

	while (!err && !bits)
		if ((bits = tacet_wait(STRESS_SLOT_STOP)) < 0)
			err = bits;
	return err ? err : (bits & STRESS_STOP) != 0;
}

static int stress_stopped(void)
{
	return (tacet_poll(STRESS_SLOT_STOP) & STRESS_STOP) != 0;
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
	if (!err && (stopped = stress_await_go()) < 0)
		err = stopped;
	while (!err && !stopped && !stress_stopped()) {
		long done = s->round();

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
