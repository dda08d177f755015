/* trace.c: the kernel's event trace (docs/tracing.md): one ring of struct tacet_trace_event per
 * hart (<tacet/trace.h>; made at boot only if the boot argument trace=on asks, kept for ever; a
 * full ring keeps its first events and counts the rest as dropped), the switch that turns every
 * trace site (trace.h) from a nop into a call, and the trace authority (TACET_CAP_TRACE), which
 * syscall.c (TRACE, INFO_TRACE) and irq_stats.c (another line's timing) ask for.
 * Locking: a hart's ring is written only by that hart, in trace_record(), with interrupts masked,
 * the count published with a release store; any hart reads it under the BKL (trace_info), the
 * count with an acquire load. `recording` is written under the BKL (trace_control) and read
 * without it (an event begun as recording stopped may land after the stop). The rest is written
 * once at boot, before any other hart runs. */
#include "core/trace.h"
#include "arch.h"
#include "core/console.h"
#include "core/hart.h"
#include "core/panic.h"
#include "core/platform.h"
#include "core/timer.h"
#include "irq/irq.h"
#include "object/process.h"
#include "object/thread.h"
#include "lib/kstring.h"
#include "mm/mm.h"
#include "mm/usercopy.h"
#include "object/cap.h"
#include "object/kobj.h"
#include "object/process.h"
#include <tacet/abi.h>

#define TRACE_RING_PAGES 128 /* 512 KiB: 16,384 events a hart */
#define TRACE_RING_EVENTS (TRACE_RING_PAGES * 4096 / sizeof(struct tacet_trace_event))

struct trace_ring {
	struct tacet_trace_event *ev; /* NULL: no ring (no trace=on) */
	uint64_t count;               /* published with a release store */
	uint64_t dropped;
};

static struct trace_ring rings[MAX_HARTS];
static bool armed;     /* booted with trace=on: the sites jump */
static bool recording; /* events are recorded (atomic) */
static uint64_t start_cycles, start_time;

extern const struct arch_trace_site __trace_sites_start[], __trace_sites_end[];

void trace_init(void)
{
	char arg[8];
	const struct arch_trace_site *s;

	if (!platform_bootarg("trace", arg, sizeof(arg)) || arg[0] != 'o' || arg[1] != 'n' ||
	    arg[2])
		return;
	for (unsigned int h = 0; h < nharts; h++) {
		uint64_t pa = page_alloc_run(TRACE_RING_PAGES);

		if (!pa) {
			kprintf("trace: no memory for hart %u's ring; tracing stays off\n", h);
			return;
		}
		rings[h].ev = (struct tacet_trace_event *)arch_phys_to_virt(pa);
	}
	for (s = __trace_sites_start; s < __trace_sites_end; s++)
		arch_trace_patch(s);
	arch_trace_sites_done();
	start_time = timer_now();
	start_cycles = arch_cycles();
	armed = true;
	__atomic_store_n(&recording, true, __ATOMIC_RELEASE);
	kprintf("trace: on, %lu sites, %lu events a hart\n",
		(unsigned long)(__trace_sites_end - __trace_sites_start),
		(unsigned long)TRACE_RING_EVENTS);
}

static uint32_t tid_of(unsigned long t)
{
	return t ? ((const struct thread *)t)->tid : 0;
}

static uint32_t line_of(unsigned long d)
{
	return ((const struct irq_desc *)d)->irq;
}

_Static_assert(sizeof(struct tacet_trace_thread) == sizeof(struct tacet_trace_event) &&
		       offsetof(struct tacet_trace_thread, name) ==
			       offsetof(struct tacet_trace_event, since) &&
		       offsetof(struct tacet_trace_thread, tid) ==
			       offsetof(struct tacet_trace_event, a) &&
		       offsetof(struct tacet_trace_thread, name_end) ==
			       offsetof(struct tacet_trace_event, b),
	       "a THREAD event is read as struct tacet_trace_thread");

/* A THREAD event: the thread's id and its process's name (struct tacet_trace_thread). */
static void thread_event(struct tacet_trace_event *e, const struct thread *t)
{
	struct tacet_trace_thread *te = (struct tacet_trace_thread *)e;
	char name[TACET_TRACE_NAME_MAX] = { 0 };

	for (unsigned int i = 0; i < sizeof(name) && i < PROCESS_NAME_MAX && t->proc->name[i]; i++)
		name[i] = t->proc->name[i];
	te->kind = TACET_TRACE_THREAD;
	te->tid = t->tid;
	memcpy(te->name, name, sizeof(te->name));
	memcpy(te->name_end, name + sizeof(te->name), sizeof(te->name_end));
}

void trace_record(unsigned long kind, unsigned long a, unsigned long b, unsigned long since)
{
	struct hart *me = this_hart();
	struct trace_ring *r = &rings[me->id];
	uint64_t n = r->count;
	struct tacet_trace_event *e;

	if (!__atomic_load_n(&recording, __ATOMIC_RELAXED))
		return;
	if (n == TRACE_RING_EVENTS) {
		r->dropped++;
		return;
	}
	e = &r->ev[n];
	e->ts = arch_cycles();
	if (kind == TACET_TRACE_THREAD) {
		thread_event(e, (const struct thread *)a);
		__atomic_store_n(&r->count, n + 1, __ATOMIC_RELEASE);
		return;
	}
	e->since = kind == TACET_TRACE_IRQ ? me->trap_cycle : since;
	e->kind = (uint32_t)kind;
	if (kind == TACET_TRACE_SWITCH || (kind == TACET_TRACE_IRQ && !a)) {
		/* after the switch, or a top half that switched to the thread it woke: the hart's
		 * current thread, and for the latter the line that woke it */
		b = kind == TACET_TRACE_IRQ ? (unsigned long)me->current : b;
		a = kind == TACET_TRACE_IRQ ? (unsigned long)me->current->irq_woken_by
					    : (unsigned long)me->current;
	}
	e->a = kind == TACET_TRACE_IRQ || kind == TACET_TRACE_ACK ? line_of(a)
	       : kind == TACET_TRACE_BKL || kind == TACET_TRACE_IDLE ? 0 : tid_of(a);
	e->b = kind == TACET_TRACE_IRQ ? tid_of(b)
	       : kind == TACET_TRACE_SWITCH ? (uint32_t)b : b != 0;
	e->pad = 0;
	__atomic_store_n(&r->count, n + 1, __ATOMIC_RELEASE);
}

/* Who may watch the kernel's timing: the holders of a capability to this object. Its reference
 * is the kernel's own, never dropped: it is never destroyed (kobj.c). */
static struct kobj authority = { .type = TACET_CAP_TRACE, .refs = 1 };

struct kobj *trace_authority(void)
{
	return &authority;
}

bool trace_authorized(struct process *p, unsigned long slot)
{
	long err;

	return slot && cap_lookup(p->cspace, slot, TACET_CAP_TRACE, 0, &err) != NULL;
}

long trace_info(struct process *p, unsigned long index, uintptr_t buf, unsigned long len)
{
	unsigned long hart = index & 0xff, first = index >> 8;
	struct tacet_trace_info h = { 0 };
	const struct trace_ring *r;

	if (hart >= nharts)
		return -TACET_ENOENT;
	if (len < sizeof(h))
		return -TACET_ERANGE;
	r = &rings[hart];
	h.hart = (unsigned int)hart;
	h.recording = __atomic_load_n(&recording, __ATOMIC_RELAXED);
	h.capacity = r->ev ? TRACE_RING_EVENTS : 0;
	h.count = __atomic_load_n(&r->count, __ATOMIC_ACQUIRE);
	h.dropped = __atomic_load_n(&r->dropped, __ATOMIC_RELAXED);
	h.first = first;
	if (first < h.count)
		h.events = h.count - first;
	if (h.events > TACET_TRACE_CHUNK)
		h.events = TACET_TRACE_CHUNK;
	if (h.events > (len - sizeof(h)) / sizeof(struct tacet_trace_event))
		h.events = (len - sizeof(h)) / sizeof(struct tacet_trace_event);
	h.timebase_hz = platform.timebase_hz;
	h.start_cycles = start_cycles;
	h.start_time = start_time;
	h.time = timer_now();
	h.cycles = arch_cycles();
	if (copy_to_user(p, buf, &h, sizeof(h)) < 0 ||
	    (h.events && copy_to_user(p, buf + sizeof(h), &r->ev[first],
				      h.events * sizeof(struct tacet_trace_event)) < 0))
		return -TACET_EFAULT;
	return (long)(sizeof(h) + h.events * sizeof(struct tacet_trace_event));
}

long trace_control(unsigned long op)
{
	if (op != TACET_TRACE_STOP && op != TACET_TRACE_START)
		return -TACET_EINVAL;
	if (!armed)
		return -TACET_ENOSYS;
	__atomic_store_n(&recording, op == TACET_TRACE_START, __ATOMIC_RELEASE);
	return 0;
}
