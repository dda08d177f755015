/* irq_cycle.h: the whole cost of one interrupt to the system (irq_cycle.c): an edu raise, the
 * top half, a driver thread handling it and acknowledging, until the raising thread runs
 * again, on one hart. */
#ifndef BENCH_IRQ_CYCLE_H
#define BENCH_IRQ_CYCLE_H

/* Time BENCH_SAMPLES such cycles and report them as benchmark `name`; the driver waits with
 * tacet_irq_ack_wait (service 0) or as a service loop does (1: tacet_irq_ack, then a receive
 * as the notification's bound thread). Then asks init to power off. main()'s status. */
int bench_irq_cycle(const char *name, int service);

#endif
