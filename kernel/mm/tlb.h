/* tlb.h: TLB shootdown across harts. */
#ifndef KERNEL_MM_TLB_H
#define KERNEL_MM_TLB_H

struct process;

/* After unmapping in p, or before p's memory goes: returns once no other hart that runs one of
 * p's threads keeps a stale translation. BKL held. */
void tlb_shootdown(struct process *p);

#endif
