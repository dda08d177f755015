/* syscall.c: the system call table and the calls that belong to no single object (debug
 * output, exit, capabilities, memory, processes, threads, info). Each handler decodes every
 * argument first and changes nothing when one is bad; then it invokes, which cannot fail
 * half-way. BKL held. */
#include "core/syscall.h"
#include "object/account.h"
#include "arch.h"
#include "object/cap.h"
#include "core/console.h"
#include "object/endpoint.h"
#include "object/frame.h"
#include "core/hart.h"
#include "irq/irq.h"
#include "mm/kalloc.h"
#include "lib/kstring.h"
#include "mm/mm.h"
#include "object/notification.h"
#include "mm/page_alloc.h"
#include "object/process.h"
#include "core/sched.h"
#include <tacet/abi.h>

#define DEBUG_WRITE_MAX 4096
#define DEBUG_WRITE_CHUNK 128

#define ARG(t, i) arch_ctx_arg(&(t)->ctx, (i))

static void ret(struct thread *t, long v)
{
	arch_ctx_set_ret(&t->ctx, 0, (unsigned long)v);
}

static void sys_null(struct thread *t)
{
	ret(t, 0);
}

static void sys_debug_write(struct thread *t)
{
	uintptr_t buf = ARG(t, 0);
	unsigned long len = ARG(t, 1);
	char chunk[DEBUG_WRITE_CHUNK];

	if (len > DEBUG_WRITE_MAX) {
		ret(t, -TACET_ERANGE);
		return;
	}
	for (unsigned long done = 0; done < len; done += DEBUG_WRITE_CHUNK) {
		unsigned long n = len - done < DEBUG_WRITE_CHUNK ? len - done : DEBUG_WRITE_CHUNK;

		if (copy_from_user(t->proc, chunk, buf + done, n) < 0) {
			ret(t, -TACET_EFAULT);
			return;
		}
		kprintf("%.*s", (int)n, chunk);
	}
	ret(t, (long)len);
}

static void sys_exit(struct thread *t)
{
	thread_exit(t, (long)ARG(t, 0));
}

static void sys_yield(struct thread *t)
{
	sched_yield();
	ret(t, 0);
}

static void sys_self(struct thread *t)
{
	arch_ctx_set_ret(&t->ctx, 1, t->hart);
	arch_ctx_set_ret(&t->ctx, 2, t->prio);
	ret(t, (long)t->tid);
}

static void sys_cycles(struct thread *t)
{
	ret(t, (long)arch_cycles());
}

/* --- capabilities --- */

static void sys_cap_copy(struct thread *t)
{
	long err;
	struct cap *src = cap_lookup(t->proc->cspace, ARG(t, 0), TACET_CAP_NULL, 0, &err);
	struct cap *dst = src ? cap_empty_slot(t->proc->cspace, ARG(t, 1), &err) : NULL;
	uint64_t badge = ARG(t, 3);

	/* a notification's badge is what it signals: bit 63 is reserved there (TACET_SYS_SIGNAL) */
	if (dst && src->obj->type == TACET_CAP_NOTIFICATION && !src->badge && badge >> 63)
		dst = NULL, err = TACET_EINVAL;
	if (!dst) {
		ret(t, -err);
		return;
	}
	/* a badge can be set once, on an unbadged capability; rights only shrink */
	cap_install(dst, src->obj, src->rights & ARG(t, 2), src->badge ? src->badge : badge);
	ret(t, 0);
}

static void sys_cap_delete(struct thread *t)
{
	long err;
	struct cap *c = cap_lookup(t->proc->cspace, ARG(t, 0), TACET_CAP_NULL, 0, &err);

	if (!c) {
		ret(t, -err);
		return;
	}
	cap_clear(c);
	ret(t, 0);
}

static void sys_cap_info(struct thread *t)
{
	long err;
	struct cap *c = cap_lookup(t->proc->cspace, ARG(t, 0), TACET_CAP_NULL, 0, &err);
	const struct frame *f;
	const struct process *p;
	const struct irq_desc *d;

	if (!c) {
		ret(t, -err);
		return;
	}
	f = c->obj->type == TACET_CAP_FRAME ? (const struct frame *)c->obj : NULL;
	p = c->obj->type == TACET_CAP_PROCESS ? (const struct process *)c->obj : NULL;
	d = c->obj->type == TACET_CAP_IRQ ? (const struct irq_desc *)c->obj : NULL;
	arch_ctx_set_ret(&t->ctx, 1, c->rights);
	arch_ctx_set_ret(&t->ctx, 2, c->badge);
	/* a frame's physical address and size, for DMA (as seL4's Page_GetAddress); a process's
	 * kernel memory: what its account holds and may hold, in bytes; a line's number */
	arch_ctx_set_ret(&t->ctx, 3, f ? f->pa : p ? p->acct->used : d ? d->irq : 0);
	arch_ctx_set_ret(&t->ctx, 4, f ? f->pages : p ? p->acct->limit : 0);
	ret(t, c->obj->type);
}

/* A living process named by a capability with `rights`: WRITE to change it (map, unmap,
 * threads, capabilities); none to watch it. */
static struct process *decode_process(struct thread *t, unsigned long slot, uint32_t rights,
				      long *err)
{
	struct cap *c = cap_lookup(t->proc->cspace, slot, TACET_CAP_PROCESS, rights, err);
	struct process *p = c ? (struct process *)c->obj : NULL;

	if (p && !p->cspace) {
		*err = TACET_EDEAD;
		return NULL;
	}
	return p;
}

static void sys_cap_give(struct thread *t)
{
	long err;
	struct process *p = decode_process(t, ARG(t, 0), TACET_RIGHT_WRITE, &err);
	struct cap *src = p ? cap_lookup(t->proc->cspace, ARG(t, 1), TACET_CAP_NULL, 0, &err) : NULL;
	struct cap *dst = src ? cap_empty_slot(p->cspace, ARG(t, 2), &err) : NULL;

	if (!dst) {
		ret(t, -err);
		return;
	}
	cap_install(dst, src->obj, src->rights & ARG(t, 3), src->badge);
	ret(t, 0);
}

static void install_new(struct thread *t, struct cap *dst, struct kobj *obj)
{
	if (!obj) {
		ret(t, -TACET_ENOMEM);
		return;
	}
	cap_install(dst, obj, TACET_RIGHTS_ALL, 0);
	ret(t, 0);
}

static void sys_endpoint_new(struct thread *t)
{
	long err;
	struct cap *dst = cap_empty_slot(t->proc->cspace, ARG(t, 0), &err);

	if (!dst)
		ret(t, -err);
	else
		install_new(t, dst, (struct kobj *)endpoint_new(t->proc));
}

static void sys_ntfn_new(struct thread *t)
{
	long err;
	struct cap *dst = cap_empty_slot(t->proc->cspace, ARG(t, 0), &err);

	if (!dst)
		ret(t, -err);
	else
		install_new(t, dst, (struct kobj *)notification_new(t->proc->acct));
}

static void sys_frame_new(struct thread *t)
{
	long err;
	struct cap *dst = cap_empty_slot(t->proc->cspace, ARG(t, 0), &err);

	if (!dst)
		ret(t, -err);
	else if (ARG(t, 1) == 0 || ARG(t, 1) > FRAME_MAX_PAGES)
		ret(t, -TACET_ERANGE);
	else
		install_new(t, dst, (struct kobj *)frame_alloc(t->proc->acct, ARG(t, 1)));
}

static void sys_frame_derive(struct thread *t)
{
	long err;
	struct cap *src = cap_lookup(t->proc->cspace, ARG(t, 0), TACET_CAP_FRAME, 0, &err);
	struct cap *dst = src ? cap_empty_slot(t->proc->cspace, ARG(t, 1), &err) : NULL;
	struct frame *f = src ? (struct frame *)src->obj : NULL;
	uint64_t first = ARG(t, 2), pages = ARG(t, 3);

	if (dst && (!pages || first >= f->pages || pages > f->pages - first))
		dst = NULL, err = TACET_ERANGE;
	if (!dst) {
		ret(t, -err);
		return;
	}
	f = frame_derive(t->proc->acct, f, first, pages);
	if (!f) {
		ret(t, -TACET_ENOMEM);
		return;
	}
	cap_install(dst, &f->obj, src->rights, 0); /* no more rights than the whole had */
	ret(t, 0);
}

/* --- memory --- */

static void sys_map(struct thread *t)
{
	long err;
	struct process *p = decode_process(t, ARG(t, 0), TACET_RIGHT_WRITE, &err);
	unsigned long rights = ARG(t, 3), need;
	uintptr_t va = ARG(t, 2);
	struct cap *fc = p ? cap_lookup(t->proc->cspace, ARG(t, 1), TACET_CAP_FRAME, 0, &err) : NULL;
	struct frame *f = fc ? (struct frame *)fc->obj : NULL;

	need = rights & (TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (rights & TACET_MAP_EXEC)
		need |= TACET_RIGHT_READ;
	if (f && (rights & ~(unsigned long)(TACET_RIGHT_READ | TACET_RIGHT_WRITE | TACET_MAP_EXEC) ||
		  !(rights & (TACET_RIGHT_READ | TACET_RIGHT_WRITE | TACET_MAP_EXEC))))
		f = NULL, err = TACET_EINVAL;
	if (f && (rights & TACET_RIGHT_WRITE) && (rights & TACET_MAP_EXEC))
		f = NULL, err = TACET_EINVAL; /* W^X */
	if (f && !cap_has_rights(fc, (uint32_t)need))
		f = NULL, err = TACET_EPERM;
	if (f && (va & (PAGE_SIZE - 1)))
		f = NULL, err = TACET_EALIGN;
	if (f && (va + f->pages * PAGE_SIZE > arch_user_top() || va + f->pages * PAGE_SIZE < va))
		f = NULL, err = TACET_EINVAL;
	if (!f) {
		ret(t, -err);
		return;
	}
	ret(t, process_map_frame(p, va, f, (unsigned int)rights));
}

static void sys_unmap(struct thread *t)
{
	long err;
	struct process *p = decode_process(t, ARG(t, 0), TACET_RIGHT_WRITE, &err);
	uintptr_t va = ARG(t, 1);
	unsigned long pages = ARG(t, 2);

	if (p && (va & (PAGE_SIZE - 1)))
		p = NULL, err = TACET_EALIGN;
	if (p && (pages > arch_user_top() / PAGE_SIZE || va + pages * PAGE_SIZE > arch_user_top()))
		p = NULL, err = TACET_EINVAL;
	if (!p) {
		ret(t, -err);
		return;
	}
	ret(t, process_unmap(p, va, pages));
}

/* --- processes and threads --- */

/* PROCESS_NEW's budget: pages, at most 2^40 bytes' worth (so that the byte count cannot wrap). */
#define PROCESS_BUDGET_MAX ((1ul << 40) / PAGE_SIZE)

static void sys_process_new(struct thread *t)
{
	long err = 0;
	struct cap *dst = cap_empty_slot(t->proc->cspace, ARG(t, 0), &err);
	struct cap *ep = NULL;
	char name[PROCESS_NAME_MAX] = { 0 };
	uint64_t budget = ARG(t, 3);
	struct account *acct;
	struct process *p;

	if (dst && ARG(t, 1))
		ep = cap_lookup(t->proc->cspace, ARG(t, 1), TACET_CAP_ENDPOINT, TACET_RIGHT_WRITE,
				&err);
	if (dst && !err && copy_from_user(t->proc, name, ARG(t, 2), sizeof(name) - 1) < 0)
		err = TACET_EFAULT;
	if (dst && !err && budget > PROCESS_BUDGET_MAX)
		err = TACET_ERANGE;
	if (!dst || err) {
		ret(t, -err);
		return;
	}
	/* its own account, reserved from the caller's, or the caller's */
	acct = budget ? account_new(t->proc->acct, budget * PAGE_SIZE) : t->proc->acct;
	p = acct ? process_new(acct, name) : NULL;
	if (budget && acct)
		account_put(acct); /* p holds it now (or it ends here, its reservation back) */
	if (!p) {
		ret(t, -TACET_ENOMEM);
		return;
	}
	if (ep) {
		kobj_get(ep->obj);
		p->fault_ep = ep->obj;
		p->fault_badge = ep->badge;
	}
	cap_install(dst, &p->obj, TACET_RIGHTS_ALL, 0);
	ret(t, 0);
}

static void sys_process_watch(struct thread *t)
{
	long err;
	struct process *p = decode_process(t, ARG(t, 0), 0, &err);
	struct cap *n = p ? cap_lookup(t->proc->cspace, ARG(t, 1), TACET_CAP_NOTIFICATION,
				       TACET_RIGHT_WRITE, &err) : NULL;
	int free_slot = -1;

	for (int i = 0; n && i < PROCESS_WATCHERS; i++)
		if (!p->watchers[i].ntfn && free_slot < 0)
			free_slot = i;
	if (n && free_slot < 0)
		n = NULL, err = TACET_EBUSY;
	if (n && (ARG(t, 2) >> 63 || !ARG(t, 2)))
		n = NULL, err = TACET_EINVAL;
	if (!n) {
		ret(t, -err);
		return;
	}
	kobj_get(n->obj);
	p->watchers[free_slot] = (struct process_watcher){ n->obj, ARG(t, 2) };
	ret(t, 0);
}

static long decode_sched(struct thread *t, unsigned long sched)
{
	if (sched >> 16)
		return TACET_EINVAL;
	if (TACET_SCHED_PRIO(sched) > t->prio)
		return TACET_EPERM; /* no thread makes one more urgent than itself */
	if (TACET_SCHED_HART(sched) >= nharts || !harts[TACET_SCHED_HART(sched)].online)
		return TACET_EINVAL;
	return 0;
}

static void sys_thread_new(struct thread *t)
{
	long err = 0;
	struct process *p = decode_process(t, ARG(t, 0), TACET_RIGHT_WRITE, &err);
	struct cap *dst = NULL;
	unsigned long sched = ARG(t, 5);
	struct thread *n;

	if (p && ARG(t, 1))
		dst = cap_empty_slot(t->proc->cspace, ARG(t, 1), &err);
	if (p && !err)
		err = decode_sched(t, sched);
	if (p && !err && (ARG(t, 2) >= arch_user_top() || ARG(t, 3) > arch_user_top()))
		err = TACET_EINVAL;
	if (!p || err) {
		ret(t, -err);
		return;
	}
	n = thread_new(p, ARG(t, 2), ARG(t, 3), ARG(t, 4), TACET_SCHED_PRIO(sched),
		       TACET_SCHED_HART(sched));
	if (!n) {
		ret(t, -TACET_ENOMEM);
		return;
	}
	if (dst)
		cap_install(dst, &n->obj, TACET_RIGHTS_ALL, 0);
	ret(t, (long)n->tid);
}

static void sys_thread_set(struct thread *t)
{
	long err = 0;
	struct cap *c = cap_lookup(t->proc->cspace, ARG(t, 0), TACET_CAP_THREAD, TACET_RIGHT_WRITE,
				   &err);
	struct thread *target = c ? (struct thread *)c->obj : NULL;
	unsigned long sched = ARG(t, 1);

	if (target)
		err = decode_sched(t, sched);
	if (target && !err && target->state == TACET_THREAD_DEAD)
		err = TACET_EDEAD;
	if (target && !err && target->state == TACET_THREAD_RUNNING && target != t)
		err = TACET_EBUSY; /* running on another hart right now */
	if (!target || err) {
		ret(t, -err);
		return;
	}
	ret(t, 0);
	if (target->state == TACET_THREAD_READY)
		sched_unready(target);
	target->prio = (uint8_t)TACET_SCHED_PRIO(sched);
	target->hart = (uint8_t)TACET_SCHED_HART(sched);
	if (target->state == TACET_THREAD_READY || target == t) {
		sched_ready(target); /* the caller itself moves when it leaves the kernel */
		this_hart()->need_resched = true;
	}
}

/* --- information for `ps` and `mem` --- */

/* The index-th thread, oldest first: O(1) when the caller asked for index - 1 last (the list
 * keeps a cursor), so a whole listing is linear. */
static long info_thread(unsigned long index, void *out)
{
	struct tacet_thread_info *ti = out;
	struct ilist_node *n = ilist_at(&all_threads, index);
	struct thread *th;

	if (!n)
		return -TACET_ENOENT;
	th = list_entry(n, struct thread, all_link);
	memcpy(ti->process, th->proc->name, sizeof(ti->process));
	ti->tid = th->tid;
	ti->hart = th->hart;
	ti->priority = th->prio;
	ti->state = th->state;
	return sizeof(*ti);
}

static void sys_info(struct thread *t)
{
	union {
		struct tacet_thread_info thread;
		struct tacet_mem_info mem;
		struct tacet_hart_info hart;
		struct tacet_irq_info irq;
	} out;
	unsigned long kind = ARG(t, 0), index = ARG(t, 1), len = ARG(t, 3);
	long n;

	memset(&out, 0, sizeof(out));
	if (kind == TACET_INFO_THREAD) {
		n = info_thread(index, &out);
	} else if (kind == TACET_INFO_MEM) {
		out.mem.total_pages = mm_total_pages();
		out.mem.free_pages = mm_free_pages();
		out.mem.kernel_objects = kalloc_live();
		out.mem.kernel_object_pages = kalloc_pages();
		n = index ? -TACET_ENOENT : (long)sizeof(out.mem);
	} else if (kind == TACET_INFO_HART) {
		if (index >= nharts) {
			n = -TACET_ENOENT;
		} else {
			out.hart.hwid = harts[index].hwid;
			out.hart.timer_irqs = harts[index].timer_irqs;
			out.hart.ipis = harts[index].ipis;
			out.hart.ext_irqs = irq_hart_count((unsigned int)index);
			out.hart.syscalls = harts[index].syscalls;
			n = sizeof(out.hart);
		}
	} else if (kind == TACET_INFO_IRQ) {
		n = irq_info(index, &out);
	} else {
		n = -TACET_EINVAL;
	}
	if (n >= 0 && len < (unsigned long)n)
		n = -TACET_ERANGE;
	if (n >= 0 && copy_to_user(t->proc, ARG(t, 2), &out, (uint64_t)n) < 0)
		n = -TACET_EFAULT;
	ret(t, n);
}

typedef void (*syscall_fn)(struct thread *t);

static const syscall_fn syscalls[TACET_SYS_COUNT] = {
	[TACET_SYS_NULL] = sys_null,
	[TACET_SYS_DEBUG_WRITE] = sys_debug_write,
	[TACET_SYS_EXIT] = sys_exit,
	[TACET_SYS_YIELD] = sys_yield,
	[TACET_SYS_CALL] = sys_call,
	[TACET_SYS_RECV] = sys_recv,
	[TACET_SYS_REPLY] = sys_reply,
	[TACET_SYS_REPLY_RECV] = sys_reply_recv,
	[TACET_SYS_SIGNAL] = sys_signal,
	[TACET_SYS_WAIT] = sys_wait,
	[TACET_SYS_POLL] = sys_poll,
	[TACET_SYS_CAP_COPY] = sys_cap_copy,
	[TACET_SYS_CAP_DELETE] = sys_cap_delete,
	[TACET_SYS_CAP_INFO] = sys_cap_info,
	[TACET_SYS_CAP_GIVE] = sys_cap_give,
	[TACET_SYS_ENDPOINT_NEW] = sys_endpoint_new,
	[TACET_SYS_NTFN_NEW] = sys_ntfn_new,
	[TACET_SYS_FRAME_NEW] = sys_frame_new,
	[TACET_SYS_MAP] = sys_map,
	[TACET_SYS_UNMAP] = sys_unmap,
	[TACET_SYS_PROCESS_NEW] = sys_process_new,
	[TACET_SYS_THREAD_NEW] = sys_thread_new,
	[TACET_SYS_THREAD_SET] = sys_thread_set,
	[TACET_SYS_INFO] = sys_info,
	[TACET_SYS_CYCLES] = sys_cycles,
	[TACET_SYS_IRQ_BIND] = sys_irq_bind,
	[TACET_SYS_IRQ_ACK] = sys_irq_ack,
	[TACET_SYS_NTFN_BIND] = sys_ntfn_bind,
	[TACET_SYS_PROCESS_WATCH] = sys_process_watch,
	[TACET_SYS_IRQ_UNBIND] = sys_irq_unbind,
	[TACET_SYS_IRQ_SET_AFFINITY] = sys_irq_set_affinity,
	[TACET_SYS_IRQ_ENABLE] = sys_irq_enable,
	[TACET_SYS_TIMER_SET] = sys_timer_set,
	[TACET_SYS_FRAME_DERIVE] = sys_frame_derive,
	[TACET_SYS_SELF] = sys_self,
	[TACET_SYS_IRQ_ACK_WAIT] = sys_irq_ack_wait,
};

void syscall_dispatch(struct thread *t)
{
	unsigned long n = arch_ctx_syscall_nr(&t->ctx);

	this_hart()->syscalls++;
	if (n >= TACET_SYS_COUNT || !syscalls[n]) {
		ret(t, -TACET_ENOSYS);
		return;
	}
	syscalls[n](t);
}
