/* reaper.c: owns the queue of objects waiting to be ended or freed (see reaper.h). BKL
 * held. The queue is first in, first
 * out, through the link in each object's header (struct kobj's reap_next): an object is on it
 * at most once, either to be ended (it then still has the queue's reference) or, after its
 * last reference went, to be freed, never both. First in, first out keeps the order a
 * recursive teardown had where it shows: a process's end is reported before its children's. */
#include "object/reaper.h"

struct kobj *reaper_head; /* the queue's first object, NULL when empty */
static struct kobj *tail;

bool reaper_run(bool (*between)(void))
{
	struct kobj *o;

	while ((o = reaper_head)) {
		reaper_head = o->reap_next;
		if (!reaper_head)
			tail = NULL;
		o->reap_next = NULL;
		o->queued = 0; /* from here on, asking for its end again queues it again */
		kobj_reap(o);
		if (between && between() && reaper_head)
			return false; /* the rest waits for the next run */
	}
	return true;
}

static void push(struct kobj *o)
{
	o->reap_next = NULL;
	if (tail)
		tail->reap_next = o;
	else
		reaper_head = o;
	tail = o;
}

void reaper_free(struct kobj *o)
{
	push(o);
}

void reaper_end_first(struct kobj *o)
{
	if (o->queued)
		return;
	o->queued = 1;
	o->refs++;
	o->reap_next = reaper_head;
	reaper_head = o;
	if (!tail)
		tail = o;
}

void reaper_end(struct kobj *o)
{
	if (o->queued)
		return;
	o->queued = 1;
	o->refs++; /* the queue's: o must outlive the ends that come before its own */
	push(o);
}
