/* irq.h: the interrupt-latency benchmarks (irq.c): an edu device's raise to its driver thread
 * running, on one hart or across two. bench_irq_same and bench_irq_cross measure it on an idle
 * machine (bench_irq), bench_stress while stressors run on the other harts (bench_irq_path). */
#ifndef BENCH_IRQ_H
#define BENCH_IRQ_H

#include "../edu/edu_dev.h"

/* Time BENCH_SAMPLES interrupts raised by an edu register write on raiser_hart (the line is
 * routed there) and delivered to a thread waiting on waiter_hart (service: as a service loop
 * waits, receiving on an endpoint as the notification's bound thread), and report
 * irq_raise_to_trap and irq_top_half (if report_top_half) and the raise to the waiting thread
 * running as benchmark `name`. The calling thread must run at priority IRQ_PRIO_MAIN or above.
 * Then asks init to power off. Returns main()'s status. */
int bench_irq(const char *name, unsigned int waiter_hart, unsigned int raiser_hart,
	      int report_top_half, int service);

#define IRQ_PRIO_MAIN 200

/* Set before bench_irq (or bench_irq_open): the edu device's interrupt by MSI (edu_open_msi;
 * the AIA's machine only), its figures irq_raise_to_trap_msi and irq_top_half_msi. */
extern int bench_irq_msi;

/* The pieces of bench_irq, for a server that measures a path more than once. First
 * bench_irq_open: the read-pair overhead, the edu device and the notifications the threads take
 * turns through. Then, once per path (at most IRQ_MAX_PATHS times), bench_irq_path: routes the
 * line to raiser_hart, starts the turn-taking threads (bench_trio, bench.h: the waiter, the
 * driver thread, outranks everything on its hart but the caller) and waits until they are
 * done; the samples are then in bench_irq_to_server[] and bench_irq_to_trap[] (and, for an
 * idle path, bench_irq_top_half[]), unsorted. Each returns 0 or a negative TACET_E* code
 * (bench_irq_path prints it). */
struct bench_irq_path {
	const char *name;
	unsigned int waiter_hart, raiser_hart;
	unsigned long warmup, samples; /* rounds thrown away first, then samples kept */
	/* 0: the idle machine's measurement: the waiter takes each interrupt with tacet_wait and
	 * tacet_irq_ack, its trap and top-half stamps from TACET_INFO_IRQ, and a round in which a
	 * timer interrupt reached a hart of the path is taken again. 1: under stress: the waiter
	 * is a driver's loop (clear the device, tacet_irq_ack_wait: one kernel entry per
	 * interrupt, which returns the next one's trap stamp) and every round counts, ticks and
	 * all: the tail is what is measured. */
	int stressed;
	/* 1: the waiter waits as a service loop does (tacet_service_run): a receive on an
	 * endpoint, as the notification's bound thread. Idle machine only. */
	int service;
};

#define IRQ_MAX_PATHS 4 /* bench_irq_scale's points */
/* The first capability slot the threads of bench_irq_path leave free (irq.c's: edu_open's, its
 * three notifications, an endpoint and three stacks per path). */
#define IRQ_SLOT_FREE (EDU_SLOT_FREE + 4 + 3 * IRQ_MAX_PATHS)

long bench_irq_open(void);
long bench_irq_path(const struct bench_irq_path *p);
extern unsigned long bench_irq_to_trap[], bench_irq_top_half[], bench_irq_to_server[];

#endif
