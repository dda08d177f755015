/* prio_test.h: what prio_high, prio_low and prio_signal, the three sides of the
 * priority-preemption test, agree on.
 *
 * In order: prio_signal publishes a notification of its own as PRIO_DONE_NAME; prio_low looks
 * that up and only then starts its spin, so that the spin covers prio_signal's set-up however
 * long init took to load it; prio_high publishes a notification as PRIO_NAME and waits on it;
 * once prio_high waits and prio_low runs, prio_signal lets prio_low spin a while and signals
 * PRIO_NAME, the bits being its rdtime (never 0, never bit 63: the time since reset in timebase ticks),
 * so that prio_high can tell how long its wake-up took in guest time. prio_signal then sleeps
 * on PRIO_DONE_NAME until prio_high, having measured, signals it: a hart that sleeps, rather
 * than spins or prints, leaves the host's CPUs and the kernel lock to the wake-up measured.
 */
#ifndef PRIO_TEST_H
#define PRIO_TEST_H

#include <string.h>
#include <tacet.h>

#define PRIO_NAME      "prio"
#define PRIO_DONE_NAME "prio.done"

/* A millisecond of the timebase (the device tree's timebase-frequency; 10 MHz on QEMU virt). */
#define PRIO_TICKS_PER_MS tacet_ns_to_ticks(1000000ull)

/* rdtime: readable from user mode because the kernel sets scounteren.TM. */
static inline unsigned long prio_rdtime(void)
{
	unsigned long t;

	__asm__ volatile("rdtime %0" : "=r"(t));
	return t;
}

/* Copies the record of the first thread of the process named name to *ti; returns 0, or
 * -TACET_ENOENT if there is none. */
static inline long prio_thread_info(const char *name, struct tacet_thread_info *ti)
{
	for (unsigned long i = 0; tacet_info(TACET_INFO_THREAD, i, ti, sizeof(*ti)) > 0; i++) {
		if (!strncmp(ti->process, name, sizeof(ti->process)))
			return 0;
	}
	return -TACET_ENOENT;
}

/* The state (enum tacet_thread_state) of the first thread of the process named name, or -1 if
 * there is none. */
static inline long prio_thread_state(const char *name)
{
	struct tacet_thread_info ti;

	return prio_thread_info(name, &ti) ? -1 : (long)ti.state;
}

#endif
