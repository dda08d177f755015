/* reaper.c: owns the queue of objects waiting to be ended or destroyed (see reaper.h) and the
 * flag that says a caller up the stack is running it. BKL held. The queue is first in, first
 * out, through the link in each object's header (struct kobj's reap_next): an object is on it
 * at most once, either to be ended (it then still has the queue's reference) or, after its
 * last reference went, to be destroyed, never both. First in, first out keeps the order a
 * recursive teardown had where it shows: a process's end is reported before its children's. */
#include "object/reaper.h"

static struct kobj *head, *tail;
static int running;

/* Unless a caller up the stack runs the queue already, run it until it is empty: each object's
 * end may queue more objects, which this loop then takes, one at a time. */
static void run(void)
{
	struct kobj *o;

	if (running)
		return;
	running = 1;
	while ((o = head)) {
		head = o->reap_next;
		if (!head)
			tail = NULL;
		o->reap_next = NULL;
		o->queued = 0; /* from here on, asking for its end again queues it again */
		kobj_reap(o);
	}
	running = 0;
}

static void push(struct kobj *o)
{
	o->reap_next = NULL;
	if (tail)
		tail->reap_next = o;
	else
		head = o;
	tail = o;
}

void reaper_free(struct kobj *o)
{
	push(o);
	run();
}

void reaper_end(struct kobj *o)
{
	if (o->queued)
		return;
	o->queued = 1;
	o->refs++; /* the queue's: o must outlive the ends that come before its own */
	push(o);
	run();
}
