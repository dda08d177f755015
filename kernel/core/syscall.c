/* syscall.c: the system call table, and the calls that belong to no kernel object (the null
 * call, debug output, yield, the cycle counter, the system information for `ps`, `harts`,
 * `irqs` and `mem`, and a supervisor's look at its server: TACET_INFO_PROCESS). Every other call
 * lives beside its object (syscall.h). BKL held. */
#include "core/syscall.h"
#include "object/account.h"
#include "arch.h"
#include "object/cap.h"
#include "core/console.h"
#include "object/endpoint.h"
#include "object/frame.h"
#include "core/hart.h"
#include "core/preempt.h"
#include "irq/irq.h"
#include "core/trace.h"
#include "inject/inject.h"
#include "core/timer.h"
#include "mm/kalloc.h"
#include "lib/kstring.h"
#include "mm/mm.h"
#include "object/notification.h"
#include "mm/page_alloc.h"
#include "mm/usercopy.h"
#include "object/process.h"
#include "core/sched.h"
#include "object/reaper.h"
#include <tacet/abi.h>

#define DEBUG_WRITE_MAX 4096
#define DEBUG_WRITE_CHUNK 128

#define ARG(t, i) syscall_arg((t), (i))

static void sys_null(struct thread *t)
{
	syscall_ret(t, 0);
}

static void sys_debug_write(struct thread *t)
{
	uintptr_t buf = ARG(t, 0);
	unsigned long len = ARG(t, 1);
	char chunk[DEBUG_WRITE_CHUNK];

	if (len > DEBUG_WRITE_MAX) {
		syscall_ret(t, -TACET_ERANGE);
		return;
	}
	if (!len) /* a sync: the caller goes on once everything logged before is written out */
		console_sync_after_unlock();
	for (unsigned long done = 0; done < len; done += DEBUG_WRITE_CHUNK) {
		unsigned long n = len - done < DEBUG_WRITE_CHUNK ? len - done : DEBUG_WRITE_CHUNK;

		if (done) {
			/* a 4 KiB write is 60,000 instructions: a point between two chunks. The
			 * chunks logged stay logged; t alive means its process and address space are
			 * (frame.c's header says why) */
			preempt_point();
			if (t->state == TACET_THREAD_DEAD)
				return; /* nobody to answer */
		}
		if (copy_from_user(t->proc, chunk, buf + done, n) < 0) {
			syscall_ret(t, -TACET_EFAULT);
			return;
		}
		/* up to the chunk's first NUL, as the kernel's "%.*s" always wrote it */
		console_write(chunk, strnlen(chunk, n), 1); /* written out after the BKL's release */
	}
	syscall_ret(t, (long)len);
}

static void sys_yield(struct thread *t)
{
	sched_yield();
	syscall_ret(t, 0);
}

static void sys_cycles(struct thread *t)
{
	syscall_ret(t, (long)arch_cycles());
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

/* Decode: the process in caller t's slot, a capability with WRITE (its supervisor's). */
static long decode_info_process(struct thread *t, unsigned long slot, struct process **p)
{
	long err;
	struct cap *c = cap_lookup(t->proc->cspace, slot, TACET_CAP_PROCESS, TACET_RIGHT_WRITE,
				   &err);

	if (!c)
		return -err;
	*p = (struct process *)c->obj;
	return 0;
}

/* The process in slot `index` (WRITE): its first live thread's preemptions and state
 * (TACET_INFO_PROCESS), O(1): the first thread on its list, the oldest; and the oldest
 * interrupts it holds, of a shared line and of one it has alone (a walk of the lines, only for
 * a process some name). */
static long info_process(struct thread *t, unsigned long index, void *out)
{
	struct tacet_process_info *pi = out;
	struct process *p = NULL;
	const struct thread *first;
	long err = decode_info_process(t, index, &p);

	if (err)
		return err;
	pi->threads = p->nthreads;
	pi->irq_held = pi->irq_held_own = 0;
	if (p->irq_refs)
		irq_held_by(p, &pi->irq_held, &pi->irq_held_own);
	pi->state = TACET_THREAD_DEAD;
	if (list_empty(&p->threads))
		return sizeof(*pi);
	first = list_entry(p->threads.next, struct thread, proc_link);
	pi->preemptions = first->preemptions;
	pi->state = first->state;
	pi->tid = first->tid;
	pi->hart = first->hart;
	return sizeof(*pi);
}

static void sys_info(struct thread *t)
{
	union {
		struct tacet_thread_info thread;
		struct tacet_mem_info mem;
		struct tacet_hart_info hart;
		struct tacet_irq_info irq;
		struct tacet_irq_hist irq_hist;
		struct tacet_clock_info clock;
		struct tacet_process_info process;
	} out;
	unsigned long kind = ARG(t, 0), index = ARG(t, 1), len = ARG(t, 3);
	bool authority = trace_authorized(t->proc, ARG(t, 4));
	long n;

	if (kind == TACET_INFO_TRACE) { /* its own copy: more than out holds */
		syscall_ret(t, authority ? trace_info(t->proc, index, ARG(t, 2), len)
					 : -TACET_EPERM);
		return;
	}
	memset(&out, 0, sizeof(out));
	if (kind == TACET_INFO_THREAD) {
		n = info_thread(index, &out);
	} else if (kind == TACET_INFO_MEM) {
		out.mem.total_pages = mm_total_pages();
		out.mem.free_pages = mm_free_pages();
		out.mem.kernel_objects = kalloc_live();
		out.mem.kernel_object_pages = kalloc_pages();
		mm_sides(&out.mem.low_end, &out.mem.dma_start, &out.mem.sides_met);
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
			out.hart.bkl_hold_max = harts[index].bkl_hold_max;
			out.hart.bkl_hold_cause = harts[index].bkl_hold_cause;
			out.hart.bkl_hold_call = harts[index].bkl_hold_call;
			out.hart.bkl_wait_max = harts[index].bkl_wait_max;
			for (unsigned int k = 0; k < TACET_IRQ_HIST_BUCKETS; k++)
				out.hart.bkl_wait_hist[k] = bkl_waits[index].hist[k];
			out.hart.bkl_wait_total = bkl_waits[index].total;
			out.hart.bkl_wait_slept = bkl_waits[index].slept;
			n = sizeof(out.hart);
		}
	} else if (kind == TACET_INFO_IRQ) {
		n = irq_info(index, &out, authority ? NULL : t->proc);
	} else if (kind == TACET_INFO_IRQ_HIST) {
		n = irq_hist_info(index, &out, authority ? NULL : t->proc);
	} else if (kind == TACET_INFO_CLOCK) {
		n = timer_clock_info(index, &out);
	} else if (kind == TACET_INFO_PROCESS) {
		n = info_process(t, index, &out);
	} else {
		n = -TACET_EINVAL;
	}
	if (n >= 0 && len < (unsigned long)n)
		n = -TACET_ERANGE;
	if (n >= 0 && copy_to_user(t->proc, ARG(t, 2), &out, (uint64_t)n) < 0)
		n = -TACET_EFAULT;
	syscall_ret(t, n);
}

/* (op, trace): TACET_SYS_TRACE, with the trace authority in slot `trace`. */
static void sys_trace(struct thread *t)
{
	if (!trace_authorized(t->proc, ARG(t, 1))) {
		syscall_ret(t, -TACET_EPERM);
		return;
	}
	syscall_ret(t, trace_control(ARG(t, 0)));
}


static void sys_resume(struct thread *t);

const syscall_fn syscall_table[TACET_SYS_COUNT] = {
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
	[TACET_SYS_RESUME] = sys_resume,
	[TACET_SYS_PROCESS_EXIT] = sys_process_exit,
	[TACET_SYS_FRAME_PIN] = sys_frame_pin,
	[TACET_SYS_FRAME_UNPIN] = sys_frame_unpin,
	[TACET_SYS_DEVICE_RELEASE] = sys_device_release,
	[TACET_SYS_ENDPOINT_WATCH] = sys_endpoint_watch,
	[TACET_SYS_TRACE] = sys_trace,
	[TACET_SYS_IRQ_MSI_NEW] = sys_irq_msi_new,
	[TACET_SYS_IRQ_MSI_FREE] = sys_irq_msi_free,
	[TACET_SYS_PROCESS_END] = sys_process_end,
	[TACET_SYS_INJECT] = INJECT_SYSCALL,
};

/* (syscall.h) For a teardown the call left (or found): its result is kept (whatever else the
 * call returned is in t's other registers already). The scheduler runs the more urgent thread
 * on the way out. */
void syscall_hold_back(struct thread *t)
{
	if (t->state != TACET_THREAD_RUNNING)
		return; /* blocked or ended by the call: it does not return now anyway */
	if (t->resuming)
		return; /* the call held itself back already (sys_resume clears it first) */
	t->resuming = true;
	t->resume_nr = arch_ctx_syscall_nr(&t->ctx);
	t->resume_ret = arch_ctx_arg(&t->ctx, 0);
	arch_ctx_set_syscall_nr(&t->ctx, TACET_SYS_RESUME);
	arch_ctx_restart_syscall(&t->ctx);
}

/* The call again: the rest of the teardown (held back again if a more urgent thread is ready
 * again), then its own number and result back; or the rest of FRAME_NEW's zeroing, of MAP's
 * mapping or of UNMAP's unmapping. */
static void sys_resume(struct thread *t)
{
	if (!t->resuming) {
		syscall_ret(t, -TACET_ENOSYS);
		return;
	}
	t->resuming = false;
	arch_ctx_set_syscall_nr(&t->ctx, t->resume_nr);
	if (t->held_frame)
		frame_new_go_on(t);
	else if (t->held_proc)
		process_go_on(t);
	else
		syscall_ret(t, (long)t->resume_ret);
}

