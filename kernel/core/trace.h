/* trace.h: the kernel's event trace (trace.c owns the rings; the events are <tacet/trace.h>'s).
 * A hook is one line at its event's site: trace_event(kind, a, b, since). In a kernel booted
 * without trace=on it is one nop (arch_trace.h); with trace=on a jump to a call that records
 * the event in this hart's ring. Interrupts masked at every site.
 * A hook passes what its site has in registers already, and trace_record() derives the
 * event's fields from it (a thread's id, a line's number, a top half's trap entry): an
 * argument the site had to compute would be computed before the nop, on every run of the
 * path, traced or not; on the hottest paths a site comes after the work, where it needs
 * nothing but the hart. So a and b are, by kind: IRQ: the struct irq_desc, NULL (NULL, NULL:
 * a direct delivery, after the switch to the thread it woke: the hart's current thread, woken
 * by its irq_woken_by); SIGNAL: the thread woken (or NULL), the wake's stamp (non-zero: a top
 * half's); SWITCH: NULL (after the switch: the hart's current thread), why; ACK: the struct irq_desc, handled; CALL, REPLY: the thread (or
 * NULL); BKL: since = the wait's start; THREAD: the thread made. */
#ifndef KERNEL_CORE_TRACE_H
#define KERNEL_CORE_TRACE_H

#include <stdint.h>
#include <tacet/trace.h>

struct process;

#define trace_event(kind, a, b, since)                                                         \
	trace_site((kind), (unsigned long)(a), (unsigned long)(b), (since))

#ifdef TACET_HOST_TEST
static inline void trace_site(unsigned long kind, unsigned long a, unsigned long b,
			      unsigned long since)
{
	(void)kind, (void)a, (void)b, (void)since;
}
#else
#include "arch_trace.h"

static inline __attribute__((always_inline)) void trace_site(unsigned long kind,
							     unsigned long a, unsigned long b,
							     unsigned long since)
{
	ARCH_TRACE_SITE(on);
	return;
on: __attribute__((cold, unused));
	arch_trace_call(kind, a, b, since);
}
#endif

/* Boot (the boot hart, after mm_init, before arch_vm_init): with trace=on, make every hart's
 * ring and turn the sites into jumps. */
void trace_init(void);
/* The recording, reached from a site only (trace_stub). */
void trace_record(unsigned long kind, unsigned long a, unsigned long b, unsigned long since);
/* TACET_INFO_TRACE into the caller's buffer (BKL held): bytes written or -TACET_E*. */
long trace_info(struct process *p, unsigned long index, uintptr_t buf, unsigned long len);
/* TACET_SYS_TRACE's operation: 0, or -TACET_ENOSYS without trace=on, -TACET_EINVAL. */
long trace_control(unsigned long op);

#endif
