/* notify.h: the notification wake-up benchmarks (notify.c), run as bench_ntfn_same and
 * bench_ntfn_cross. */
#ifndef BENCH_NOTIFY_H
#define BENCH_NOTIFY_H

/* Time BENCH_SAMPLES wake-ups of a thread on waiter_hart waiting in tacet_wait() by a signal
 * from a thread on signaller_hart; report them as benchmark `name`. The calling thread must
 * run at priority NOTIFY_PRIO_MAIN or above (it creates threads up to NOTIFY_PRIO_WAITER).
 * Returns main()'s status. */
int bench_notify(const char *name, unsigned int waiter_hart, unsigned int signaller_hart);

#define NOTIFY_PRIO_MAIN 200

#endif
