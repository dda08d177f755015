/* irq_stats.c: the interrupt layer's counts and their export (TACET_INFO_IRQ, TACET_INFO_HART's
 * external count, TACET_INFO_IRQ_HIST): per line and hart, totals summed when read, spurious
 * claims, and per line the top-half time, the wake-up latency of a woken server and its time
 * to the ack, each as a maximum, a total and a log2 histogram (struct irq_hist, whose sums are
 * the counts; a wake-up's is counted when its thread acknowledges, is woken again or ends:
 * irq_inline.h). Written under the BKL by the top half and the acks (irq.c, irq_inline.h); read
 * here under the BKL too (a reader may see a torn maximum, no more). A line's timing (stamps,
 * times, histograms) goes only to its binders and to the trace authority's holders (syscall.c
 * decodes it): when a line fired, to the cycle, is what another server's input reveals (the
 * console's keystrokes); its counts and state go to anyone. */
#include "irq/irq.h"
#include "irq/irq_inline.h"
#include "core/hart.h"
#include <tacet/abi.h>

uint64_t irq_spurious_total; /* claims that found no line, or a line not IDLE (atomic) */

void irq_spurious_add(unsigned int n)
{
	__atomic_fetch_add(&irq_spurious_total, n, __ATOMIC_RELAXED);
}

uint64_t irq_spurious(void)
{
	return __atomic_load_n(&irq_spurious_total, __ATOMIC_RELAXED);
}

uint64_t irq_count(const struct irq_desc *d)
{
	uint64_t n = 0;

	for (unsigned int h = 0; h < MAX_HARTS; h++)
		n += d->per_hart[h];
	return n;
}

uint64_t irq_hart_count(unsigned int h)
{
	uint64_t n = harts[h].empty_claims;

	for (unsigned int irq = 1; irq <= irq_lines; irq++) /* the controller's, not IRQ_MAX */
		n += irq_descs[irq]->per_hart[h];
	return n;
}

void irq_note_running(struct thread *t)
{
	struct irq_desc *d = t->irq_woken_by;

	if (d && !t->irq_running_at)
		irq_count_wake(d, t);
}

void irq_thread_gone(struct thread *t)
{
	if (t->irq_running_at) /* (only with irq_woken_by set) */
		irq_settle_wake(t);
	t->irq_woken_by = NULL;
	t->irq_running_at = 0;
}

/* The line an info call names (any index: no truncation to a line number). */
static struct irq_desc *info_line(unsigned long index)
{
	return index < IRQ_MAX ? irq_descs[index] : NULL;
}

/* What the info calls say is bound: its binders, or 1 for an in-kernel handler. */
static unsigned int binders_of(const struct irq_desc *d)
{
	return d->handler ? 1 : d->nbinders;
}

/* Whether viewer may see d's timing: NULL (the trace authority) or a process bound to it. */
static bool sees_timing(const struct irq_desc *d, const struct process *viewer)
{
	for (unsigned int i = 0; viewer && i < d->nbinders; i++)
		if (d->binders[i].owner == viewer)
			return true;
	return !viewer;
}

/* d's timing into ii (irq_info's, for a viewer who may see it). */
static void info_timing(const struct irq_desc *d, struct tacet_irq_info *ii)
{
	uint64_t wakes = irq_wakes(d), served = irq_served(d); /* each a histogram's sum: once */

	ii->top_half_max = d->top_half_max;
	ii->top_half_total = d->top_half_total;
	ii->last_trap = d->last_trap;
	ii->last_done = d->last_done;
	ii->wake_max = d->wake_max;
	ii->wake_avg = wakes ? d->wake_total / wakes : 0;
	ii->server_max = d->server_max;
	ii->server_avg = served ? d->server_total / served : 0;
}

long irq_info(unsigned long index, void *out, const struct process *viewer)
{
	struct tacet_irq_info *ii = out;
	struct irq_desc *d = info_line(index);

	if (!d)
		return -TACET_ENOENT;
	ii->irq = d->irq;
	ii->state = d->state;
	ii->hart = d->hart;
	ii->bound = binders_of(d);
	ii->unhandled = d->unhandled;
	ii->disabled_count = d->disabled_count;
	ii->count = irq_count(d);
	for (unsigned int h = 0; h < MAX_HARTS && h < TACET_INFO_MAX_HARTS; h++)
		ii->per_hart[h] = d->per_hart[h];
	ii->spurious_all = irq_spurious();
	ii->msi = d->msi;
	ii->lent = d->lent;
	if (sees_timing(d, viewer))
		info_timing(d, ii);
	return sizeof(*ii);
}

_Static_assert(TACET_IRQ_HIST_BUCKETS == TACET_LOG2HIST_BUCKETS, "the ABI's buckets are the kernel's");

/* A histogram of struct irq_hist (by leading zeros) into the ABI's log2 buckets (by bit
 * length, the last taking every longer value). */
static void irq_hist_fold(const uint64_t *slots, unsigned long *buckets)
{
	for (unsigned int k = 0; k < TACET_LOG2HIST_BUCKETS; k++)
		buckets[k] = 0;
	for (unsigned int zeros = 0; zeros < IRQ_HIST_SLOTS; zeros++)
		buckets[tacet_log2hist_bucket_of(64 - zeros)] += slots[zeros];
}

static uint64_t hist_total(const uint64_t *slots)
{
	uint64_t n = 0;

	for (unsigned int zeros = 0; zeros < IRQ_HIST_SLOTS; zeros++)
		n += slots[zeros];
	return n;
}

uint64_t irq_wakes(const struct irq_desc *d)
{
	return hist_total(d->hist->wake);
}

uint64_t irq_served(const struct irq_desc *d)
{
	return hist_total(d->hist->server);
}

long irq_hist_info(unsigned long index, void *out, const struct process *viewer)
{
	struct tacet_irq_hist *ih = out;
	struct irq_desc *d = info_line(index);

	if (!d)
		return -TACET_ENOENT;
	ih->irq = d->irq;
	ih->state = d->state;
	ih->bound = binders_of(d);
	ih->count = irq_count(d);
	if (!sees_timing(d, viewer))
		return sizeof(*ih); /* (the caller zeroed it) */
	ih->top_max = d->top_half_max;
	ih->wake_max = d->wake_max;
	ih->server_max = d->server_max;
	ih->top_sum = d->top_half_total;
	ih->wake_sum = d->wake_total;
	ih->server_sum = d->server_total;
	irq_hist_fold(d->hist->top, ih->top);
	irq_hist_fold(d->hist->wake, ih->wake);
	irq_hist_fold(d->hist->server, ih->server);
	return sizeof(*ih);
}
