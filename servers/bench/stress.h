/* stress.h: the stress benchmarks (the tail of interrupt delivery, measured while other harts
 * work the kernel hard). bench_stress (stress_bench.c) measures an edu interrupt's
 * raise to its driver thread on the last hart, the line on that hart (same hart) and on hart
 * STRESS_LINE_HART (cross hart), while one stressor server on each other hart (4 harts:
 * init.run=stress_NAME=stress.1@1,stress_NAME=stress.2@2,^bench_stress=stress.done@3/200; 8
 * harts: stress_NAME=stress.H@H for H 1 to 6, ^bench_stress=stress.done@7/200) loops on its
 * work until bench_stress tells it to stop. Why those harts: under -icount QEMU runs the harts
 * in turn, in hart order, and switches when the running one waits (wfi), is kicked (an IPI or
 * device interrupt for another hart) or ends its slice; the cross-hart interrupt's IPI from
 * hart 0 thus hands the machine to the stressors' harts before the driver's, as real harts
 * running at once would let them in. (With the driver on hart 1 they would never run between
 * a raise and the driver: every sample would be the idle machine's.) bench_wall (wall.c) measures
 * the same stressors' effect on the wall clock, without -icount: the harts really in parallel,
 * its driver on hart 0 and a stressor on each other hart.
 *
 * The protocol, through init's name service and two notifications:
 *   the measuring server (bench_stress, bench_wall) publishes STRESS_DONE_NAME (write only)
 *       before it looks up any stressor;
 *   a stressor makes its stop notification, looks STRESS_DONE_NAME up and publishes its stop
 *       notification as "stress.H" (H its hart, write only), then makes ready for its rounds
 *       (its start) and signals STRESS_READY(H) on STRESS_DONE_NAME;
 *   the measuring server, once it has looked up "stress.H" for every stressor hart and seen
 *       each one's ready (or done) bit, may measure the machine with every stressor waiting
 *       (the idle phase), then signals STRESS_GO on each stop notification, and measures;
 *       it may hold them (STRESS_HOLD, or STRESS_SPIN, on each, then wait for each one's ready
 *       bit again) and let them go again, as often as it likes; then it signals STRESS_STOP;
 *   a stressor waits for STRESS_GO (or STRESS_STOP: no rounds) before its first round, then
 *       polls its stop notification between two rounds of its work; held, it signals ready
 *       again and waits for the next go or the stop, asleep (STRESS_HOLD, as before its first
 *       round) or in a loop in user mode that looks every STRESS_SPIN_LOOK_NS (STRESS_SPIN:
 *       its hart busy as in its rounds, but never in the kernel; a hold or spin while held
 *       says ready again and changes how it waits); stopped, it prints
 *       `stress NAME: COUNT UNIT on hart H` (or `stress NAME: FAIL ...`: what
 *       tests/bench/bench.py checks) and signals STRESS_DONE(H) on STRESS_DONE_NAME (at once,
 *       if its set-up failed);
 *   the measuring server waits for every stressor's done bit, then reports (the longest BKL
 *       hold the harts saw is read then: the whole run's) and asks init to power off.
 */
#ifndef BENCH_STRESS_H
#define BENCH_STRESS_H

#define STRESS_DONE_NAME     "stress.done"
#define STRESS_NAME_FMT      "stress.%u" /* a stressor's stop notification, by its hart */
#define STRESS_STOP          1ul /* on a stop notification: end the rounds */
#define STRESS_GO            2ul /* on a stop notification: start the rounds */
#define STRESS_HOLD          4ul /* on a stop notification: stop them until the next go */
#define STRESS_SPIN          8ul /* the same, but wait in a loop in user mode, not asleep */
#define STRESS_SPIN_LOOK_NS  5000000ul /* how long that loop runs between two looks */
#define STRESS_DONE(h)       (1ul << (h))        /* on STRESS_DONE_NAME: hart h's stopped */
#define STRESS_READY(h)      (1ul << (32 + (h))) /* on STRESS_DONE_NAME: hart h's set up */
#define STRESS_LINE_HART     0 /* the cross-hart path's line (its raiser, and init's hart) */
#define STRESS_LOOKUP_TRIES  10000 /* 1 ms apart: the other side may not have published yet */

/* A stressor's three slots (its stop notification, bench_stress's done notification, its
 * pause's notification): above what any stressor's work uses, below the devices' slots. */
#define STRESS_SLOT_STOP  60
#define STRESS_SLOT_DONE  61
#define STRESS_SLOT_PAUSE 62
#define STRESS_PAUSE_NS   10000 /* after each round (stress_run) */

/* A stressor's work. round: one round of it; returns the work done (added to the count the
 * completion line gives, in unit) or a negative TACET_E* code (which ends the loop). start
 * and finish (may be NULL): once, before the first round and after the last, 0 or -TACET_E*. */
struct stressor {
	const char *what, *unit;
	long (*start)(void), (*round)(void), (*finish)(void);
};

/* A stressor's main (stress.c): its side of the start above, start, the ready bit, the wait for the
 * go, then rounds until the measuring server says stop (polled between two rounds), each followed
 * by a pause of STRESS_PAUSE_NS in which its hart waits (under -icount QEMU runs the harts in turn
 * and leaves one that never waits running until its time slice ends, up to its 100 ms kick period:
 * every round of a cross-hart measurement would give each stressor hart that long, and a boot would
 * take minutes), then finish, the completion line (or `stress NAME: FAIL after COUNT UNIT on hart
 * H: ERROR`) and the done signal. Returns main()'s status. */
int stress_run(const struct stressor *s);

/* The measuring server's side (stress_ctl.c): its done notification in slot done, the stop
 * notification of the stressor on hart h in slot stop + h. One thread; no locking. */
struct stress_ctl {
	unsigned long done, stop; /* slots */
	unsigned long stressors;  /* bit h: a stressor runs on hart h */
	unsigned long got;        /* the bits taken from the done notification so far */
};

/* Publish STRESS_DONE_NAME and look up the stressor of every hart not in skip (bit h: hart h
 * has none); each has started then. 0, -TACET_EINVAL if there is none, or the error. */
long stress_ctl_find(struct stress_ctl *c, unsigned long skip);
/* Wait until every stressor has said it is ready for its rounds (or done: its set-up failed). */
long stress_ctl_ready(struct stress_ctl *c);
/* Signal STRESS_GO on every stressor's stop notification: their rounds start. */
long stress_ctl_go(struct stress_ctl *c);
/* Signal STRESS_HOLD (spin: STRESS_SPIN) on each and wait until each has said it is ready again
 * (its rounds held until the next stress_ctl_go; asleep, or in its loop) or done. */
long stress_ctl_hold(struct stress_ctl *c, int spin);
/* Signal STRESS_STOP on each and wait until each has said it stopped. */
long stress_ctl_stop(struct stress_ctl *c);

#endif
