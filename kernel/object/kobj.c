/* kobj.c: the start and end of a kernel object's life: its charged memory, and its end and
 * destruction by type, which the reaper's loop calls one object at a time (reaper.h): no
 * destructor here calls another, so a chain of objects a user built ends at constant stack
 * depth however long it is. BKL held. */
#include "object/kobj.h"
#include "object/account.h"
#include "object/endpoint.h"
#include "object/frame.h"
#include "irq/irq.h"
#include "mm/kalloc.h"
#include "object/notification.h"
#include "core/panic.h"
#include "object/process.h"
#include "object/reaper.h"
#include "object/thread.h"

#include <stddef.h>

/* kobj_put turns the header back into its object: it must be the first member of each. */
_Static_assert(offsetof(struct endpoint, obj) == 0, "endpoint header");
_Static_assert(offsetof(struct notification, obj) == 0, "notification header");
_Static_assert(offsetof(struct frame, obj) == 0, "frame header");
_Static_assert(offsetof(struct process, obj) == 0, "process header");
_Static_assert(offsetof(struct thread, obj) == 0, "thread header");
_Static_assert(offsetof(struct irq_desc, obj) == 0, "irq line header");

void *kobj_new(struct account *acct, size_t size, uint32_t type)
{
	struct kobj *o = account_kalloc(acct, size);

	if (!o)
		return NULL;
	o->type = type;
	o->acct = acct;
	if (acct)
		account_get(acct);
	return o;
}

void kobj_free(struct kobj *o, size_t size)
{
	struct account *acct = o->acct;

	account_kfree(acct, o, size);
	if (acct)
		account_put(acct);
}

void kobj_put(struct kobj *o)
{
	KASSERT(o->refs > 0, "kobj_put: object of type %u has no references", o->type);
	if (--o->refs)
		return;
	reaper_free(o);
}

static void free_by_type(struct kobj *o)
{
	switch (o->type) {
	case TACET_CAP_ENDPOINT:
		endpoint_free((struct endpoint *)o);
		break;
	case TACET_CAP_NOTIFICATION:
		notification_free((struct notification *)o);
		break;
	case TACET_CAP_FRAME:
		frame_free((struct frame *)o);
		break;
	case TACET_CAP_PROCESS:
		process_free((struct process *)o);
		break;
	case TACET_CAP_THREAD:
		thread_free((struct thread *)o);
		break;
	case TACET_CAP_TRACE:
		panic("kobj_put: the trace authority lost the kernel's reference");
	case TACET_CAP_IRQ:
		panic("kobj_put: interrupt line %u lost its table reference", ((struct irq_desc *)o)->irq);
	default:
		panic("kobj_put: unknown object type %u", o->type);
	}
}

void kobj_reap(struct kobj *o)
{
	if (!o->refs) {
		free_by_type(o);
		return;
	}
	switch (o->type) { /* only these are ever queued to end (reaper_end) */
	case TACET_CAP_PROCESS:
		process_reap((struct process *)o);
		break;
	case TACET_CAP_ENDPOINT: /* an ended one with watchers still to tell */
		endpoint_reap((struct endpoint *)o);
		break;
	case TACET_CAP_THREAD:
		thread_reap((struct thread *)o, ((struct thread *)o)->exit_status);
		break;
	default:
		panic("kobj_reap: an object of type %u cannot be ended", o->type);
	}
	kobj_put(o); /* the queue's reference */
}

void kobj_cap_added(struct kobj *o)
{
	if (o->type == TACET_CAP_PROCESS)
		((struct process *)o)->ncaps++;
}

void kobj_cap_removed(struct kobj *o)
{
	struct process *p = (struct process *)o;

	if (o->type == TACET_CAP_PROCESS && --p->ncaps == 0 && p->nthreads)
		process_end(p);
}
