/* process.c: processes (address space + cspace), and the calls on
 * processes (MAP, UNMAP, CAP_GIVE, PROCESS_NEW, PROCESS_WATCH). Owns all_processes
 * and each process's list of children. BKL held. Ending a process walks only its own threads
 * and children, and every unlinking is O(1): a process of n threads ends in O(n). Its end ends
 * no other process directly: its children and the processes its capabilities kept alive go
 * through the reaper's queue (reaper.h).
 *
 * MAP maps its frame a page at a time, with a preemption point between two (preempt_point,
 * core/preempt.h: 256 pages are about 35,000 instructions). At a point the lock may be
 * let go and anything may happen meanwhile. The call keeps across one only what it holds a
 * reference to: the frame (the mapping's reference, taken first: deleting its capability
 * meanwhile frees nothing) and the process p mapped into (the call's own reference, so p and
 * its account outlive the call), and its own thread t (this hart's current thread: its alive
 * reference goes only once it is off the hart, sched.c). After each point: t ended, or p
 * ended (its tables gone, with whatever was mapped so far), and the call stops with
 * TACET_EDEAD (t answered nothing); else it goes on, its pages re-checked one by one as
 * always (another MAP may have taken one: TACET_EEXIST; the budget spent: TACET_ENOMEM). A
 * call that stops unmaps what it mapped, flushes the harts running p and drops its
 * references: nothing of it stays. Meanwhile the pages mapped so far are reachable by p's
 * threads, as they would be after a loop of one-page MAPs; the mapping is recorded (for UNMAP
 * and p's end) only once whole, so an UNMAP meanwhile leaves its pages alone (it came first).
 * UNMAP takes the mappings it ends off p's list first, then unmaps their pages with a point
 * between two, and always finishes (pages left mapped without a record would outlive their
 * frame): the records and their frames' references are the call's alone meanwhile, p is
 * held by the call's reference; if p ends meanwhile, its tables go with the pages left. Then
 * one shootdown, then the frames. The walks of p's list itself (a check, then taking the
 * mappings off) stay one stretch: as long as p has mappings. Both look again only after a
 * point that let the lock go (nothing else changes what they look at), and there a call into
 * the caller's own process waits for a more urgent thread of its hart (syscall_hold_back:
 * its state kept in the thread, map_from and unmap_from say what; process_go_on goes on,
 * process_held_end if the thread ends first). Each such call is counted in p->calls, and p's
 * end is over only once none is under way (release_step's last look).
 *
 * PROCESS_NEW has one point, between the new process's two pages (process_new_point): until the
 * second stretch the process is known to no one, and the call looks again after a point that
 * let the lock go, as FRAME_NEW does (frame.c).
 *
 * A process's end unhooks it at once (release_begin: nothing reaches it any more) and gives
 * back what it held in bounded steps of the reaper (release_step), p first in the queue until
 * it is all back: its children queued to end, its endpoints ended, its mappings dropped, its
 * page tables a page a step, its capability slots CSPACE_FREE_STEP a step. While it does, p's
 * root and cspace are 0 and NULL (it is ended to every caller) and what is left is in p->left,
 * in the place of its list links, which nothing uses after the end. */
#include "object/process.h"
#include "object/process_watch.h"
#include "core/preempt.h"
#include "core/syscall.h"
#include "object/cap.h"
#include "object/account.h"
#include "arch.h"
#include "mm/kalloc.h"
#include "object/endpoint.h"
#include "object/frame.h"
#include "core/hart.h"
#include "irq/irq.h"
#include "object/notification.h"
#include "object/thread.h"
#include "core/console.h"
#include "lib/kstring.h"
#include "core/panic.h"
#include "core/platform.h"
#include "mm/page_alloc.h"
#include "mm/tlb.h"
#include "mm/usercopy.h"
#include "object/reaper.h"

struct list_node all_processes = LIST_INIT(all_processes);

/* p's creator is the process of the thread whose system call this is (the thread is current
 * until the call returns); at boot there is none. */
static void process_adopt(struct process *p)
{
	struct thread *creator = this_hart()->current;

	if (!creator)
		return;
	list_push_back(&creator->proc->children, &p->sibling);
}

/* process_new's two stretches, which PROCESS_NEW parts with a preemption point (a fresh page
 * for the root table and another for the cspace, each zeroed, with the object cache's and the
 * account's work, come near 5,000 instructions together). Until the second, p is known to no
 * one (on no list, named by no capability), and process_new_undo gives it all back. */
static void process_new_undo(struct process *p)
{
	if (p->root) {
		arch_aspace_free(p->root);
		account_refund(p->acct, 2 * PAGE_SIZE);
	}
	account_put(p->acct);
	kobj_free(&p->obj, sizeof(*p));
}

/* The first stretch: the object, its account's reference, the two pages' charge and its root
 * table (p->root 0 if none: kalloc zeroes the object). */
static struct process *process_new_begin(struct account *acct, const char *name)
{
	struct process *p = kobj_new(acct, sizeof(struct process), TACET_CAP_PROCESS);

	if (!p)
		return NULL;
	p->acct = acct;
	account_get(acct);
	for (size_t i = 0; i < PROCESS_NAME_MAX - 1 && name[i]; i++)
		p->name[i] = name[i];
	if (account_charge(acct, 2 * PAGE_SIZE) == 0 && !(p->root = arch_aspace_new()))
		account_refund(acct, 2 * PAGE_SIZE);
	if (!p->root) {
		process_new_undo(p);
		return NULL;
	}
	return p;
}

/* The second stretch: its cspace, and its place among the processes. 0, or -1 (p undone). */
static int process_new_end(struct process *p)
{
	p->cspace = cspace_new();
	if (!p->cspace) {
		process_new_undo(p);
		return -1;
	}
	p->kill_status = -TACET_EDEAD;
	list_init(&p->threads);
	list_init(&p->endpoints);
	list_init(&p->children);
	list_init(&p->sibling);
	list_init(&p->watches);
	list_push_back(&all_processes, &p->all_link);
	process_adopt(p);
	return 0;
}

struct process *process_new(struct account *acct, const char *name)
{
	struct process *p = process_new_begin(acct, name);

	return p && process_new_end(p) == 0 ? p : NULL;
}

/* One page, with the page tables it needs charged to p's account (room for the most a page
 * can need is asked first, what was not needed given back). 0 or -TACET_E*. Inline in both
 * loops (MAP's is up to 256 pages). */
static inline __attribute__((always_inline)) long map_page(struct process *p, uintptr_t va,
							   uint64_t pa, unsigned int rights)
{
	long made;

	if (account_charge(p->acct, ARCH_MAP_TABLES_MAX * PAGE_SIZE) < 0)
		return -TACET_ENOMEM;
	made = arch_aspace_map(p->root, va, pa, rights);
	account_refund(p->acct, (ARCH_MAP_TABLES_MAX - (made > 0 ? made : 0)) * PAGE_SIZE);
	if (made > 0)
		p->table_pages += (uint64_t)made;
	return made < 0 ? made : 0;
}

long process_map(struct process *p, uintptr_t va, uint64_t pa, uint64_t pages, unsigned int rights)
{
	uint64_t i;
	long err = 0;

	for (i = 0; i < pages; i++) {
		err = map_page(p, va + i * PAGE_SIZE, pa + i * PAGE_SIZE, rights);
		if (err)
			break;
	}
	if (err)
		while (i--)
			arch_aspace_unmap(p->root, va + i * PAGE_SIZE, NULL);
	return err;
}

/* A mapping's record (and its charge) and its frame's reference given back, once no hart can
 * reach its pages: unmapped and flushed (UNMAP, a MAP undone), or its process ended (after
 * release_begin's shootdown its tables go a table at a time, release_step, so its pages are
 * not unmapped one by one: 63 instructions a page). */
static void mapping_drop(struct process *p, struct mapping *m)
{
	kobj_put(&m->frame->obj);
	account_kfree(p->acct, m, sizeof(*m));
}

/* The pages [va, va + pages) of p unmapped, with a point before each but the call's first
 * (*first); if p ends meanwhile its tables go, with the pages left. */
static inline __attribute__((always_inline)) void unmap_run(struct process *p, uintptr_t va,
							    uint64_t pages, bool *first)
{
	for (uint64_t i = 0; i < pages && p->root; i++, *first = false) {
		if (!*first)
			preempt_point();
		if (p->root)
			arch_aspace_unmap(p->root, va + i * PAGE_SIZE, NULL);
	}
}

/* A MAP that does not complete: its first `mapped` pages unmapped (unmap_run, as UNMAP's),
 * every hart running p flushed (one may have cached a page meanwhile: the frame may go once
 * its reference does), the record and its charge given back, the frame's reference dropped. */
static void map_undo(struct process *p, struct mapping *m, uint64_t mapped)
{
	bool first = true;

	unmap_run(p, m->va, mapped, &first);
	tlb_shootdown(p);
	mapping_drop(p, m);
}

/* MAP's pages of m's frame into p from page i on (the call's reference to p taken), a point
 * between two; after a point the call looks again (process.c's header) and, if a thread more
 * urgent than t is ready on this hart, waits for it (syscall_hold_back: m, p and i kept in t;
 * process_go_on goes on, process_held_end if t ends meanwhile). Only a call into t's own
 * process waits so: p's end waits for the calls that keep what p owns (p->calls), and one
 * held by a thread of p ends with that thread, where a thread of another process may wait
 * behind the very thread whose call would run p's end. Answers t. */
static void map_from(struct thread *t, struct process *p, struct mapping *m, uint64_t i)
{
	struct frame *f = m->frame;
	uint64_t pages = f->pages, pa = f->pa;
	uintptr_t va = m->va;
	unsigned int rights = m->rights;
	long err = 0;

	for (; i < pages; i++) {
		if (i && preempt_point()) { /* the lock was let go: look again */
			if (t->state == TACET_THREAD_DEAD)
				err = -TACET_EDEAD; /* nobody to answer */
			else if (!p->root)
				err = -TACET_EDEAD; /* p ended: its tables went, with what was mapped */
			if (err)
				break;
			if (p == t->proc && preempt_urgent(t)) {
				t->held_maps = m;
				t->held_proc = p;
				t->held_done = i;
				syscall_hold_back(t);
				return;
			}
		}
		err = map_page(p, va + i * PAGE_SIZE, pa + i * PAGE_SIZE, rights);
		if (err)
			break;
	}
	if (err) {
		map_undo(p, m, i);
	} else {
		m->next = p->mappings;
		p->mappings = m;
	}
	process_call_put(p); /* (its last reference, if p ended meanwhile: freed by the reaper) */
	if (t->state != TACET_THREAD_DEAD) /* ended during the call: nobody to answer */
		syscall_ret(t, err);
}

void process_map_frame(struct thread *t, struct process *p, uintptr_t va, struct frame *f,
		       unsigned int rights)
{
	struct mapping *m = account_kalloc(p->acct, sizeof(*m));

	if (!m) {
		syscall_ret(t, -TACET_ENOMEM);
		return;
	}
	*m = (struct mapping){ va, f, rights, NULL };
	kobj_get(&f->obj); /* the mapping's, from now on: f outlives the call */
	process_call_get(p); /* the call's: p, and its account, outlive it too */
	map_from(t, p, m, 0);
}

/* UNMAP's unmapping of the records gone (off p's list, the call's alone), from page i of cur
 * on, a point between two pages but before the call's first (first); then one shootdown, then
 * the frames. After a point, if t lives and a thread more urgent than it is ready on this
 * hart, the call waits for it (syscall_hold_back: gone, cur, p and i kept in t). It always
 * finishes otherwise (pages left mapped without a record would outlive their frame); if p ends
 * meanwhile, its tables go with the pages left. As MAP, only an UNMAP of t's own process waits
 * (map_from). Answers t. */
static void unmap_from(struct thread *t, struct process *p, struct mapping *gone,
		       struct mapping *cur, uint64_t i, bool first)
{
	struct mapping *m;

	for (; cur && p->root; cur = cur->next, i = 0) {
		uint64_t pages = cur->frame->pages;
		uintptr_t va = cur->va;

		for (; i < pages; i++, first = false) {
			if (!first && preempt_point()) { /* the lock was let go: look again */
				if (!p->root)
					goto flush; /* p ended: its tables went, with the pages left */
				if (p == t->proc && t->state != TACET_THREAD_DEAD &&
				    preempt_urgent(t)) {
					t->held_maps = gone;
					t->held_cur = cur;
					t->held_proc = p;
					t->held_done = i;
					syscall_hold_back(t);
					return;
				}
			}
			arch_aspace_unmap(p->root, va + i * PAGE_SIZE, NULL);
		}
	}
flush:
	/* No hart may still reach a page when its frame can be freed (a stale write into a free
	 * page would corrupt the free list), so: page tables, then every TLB, then the frames. */
	tlb_shootdown(p);
	while ((m = gone)) {
		gone = m->next;
		mapping_drop(p, m);
	}
	process_call_put(p);
	if (t->state != TACET_THREAD_DEAD)
		syscall_ret(t, 0);
}

void process_unmap(struct thread *t, struct process *p, uintptr_t va, uint64_t pages)
{
	uintptr_t end = va + pages * PAGE_SIZE;
	struct mapping **mp, *m, *gone = NULL;

	for (m = p->mappings; m; m = m->next)
		if (m->va >= va && m->va < end && m->va + m->frame->pages * PAGE_SIZE > end) {
			syscall_ret(t, -TACET_EINVAL);
			return;
		}
	/* off the list first: from here on only this call reaches them */
	for (mp = &p->mappings; (m = *mp);) {
		if (m->va >= va && m->va < end) {
			*mp = m->next;
			m->next = gone;
			gone = m;
		} else {
			mp = &m->next;
		}
	}
	process_call_get(p); /* the call's: p, and its account, outlive the points */
	unmap_from(t, p, gone, gone, 0, true);
}

void process_go_on(struct thread *t)
{
	struct process *p = t->held_proc;
	struct mapping *maps = t->held_maps, *cur = t->held_cur;

	/* the call's again (held at a point: done > 0 or past UNMAP's first page) */
	t->held_proc = NULL;
	t->held_maps = t->held_cur = NULL;
	if (t->resume_nr == TACET_SYS_MAP)
		map_from(t, p, maps, t->held_done);
	else
		unmap_from(t, p, maps, cur, t->held_done, false);
}

void process_held_end(struct thread *t)
{
	struct process *p = t->held_proc;
	struct mapping *m;

	/* A MAP's mapping so far, or what an UNMAP had yet to unmap, stays p's: a mapping of its
	 * own, unmapped by a later UNMAP or p's end (what is not mapped of it is no matter). If p
	 * has ended, its tables are going (and no hart runs it): the records go now. */
	while ((m = t->held_maps)) {
		t->held_maps = m->next;
		if (p->root) {
			m->next = p->mappings;
			p->mappings = m;
		} else {
			mapping_drop(p, m);
		}
	}
	t->held_cur = NULL;
	t->held_proc = NULL;
	process_call_put(p);
}

/* The end's part that is done at once (bounded: the shootdown asks each hart once, and a
 * process owns at most one line a device): no hart runs on p from here on, nobody finds it
 * alive (root 0 and cspace NULL: process_decode, MAP), and a driver's lines are free for the
 * next one. The rest it held is left for release_step. */
static void release_begin(struct process *p)
{
	/* a thread of p ended from another hart may still be in user mode there */
	tlb_shootdown(p);
	list_remove(&p->all_link);
	list_remove(&p->sibling); /* its creator no longer has to end it */
	irq_release_owner(p); /* a driver's end frees its lines for the next one */
	process_watch_fire(&p->watches, false); /* (process_reap_start has told them) */
	p->left.root = p->root; /* (the links' place: nothing reaches them any more) */
	p->root = 0; /* from now on anyone activating it gets the kernel's tables */
	p->left.cspace = p->cspace;
	p->cspace = NULL;
	p->left.pos = 0;
}

/* Children ended, endpoints ended and mappings dropped a step: a few hundred instructions. */
#define RELEASE_STEP 4

/* One step of giving back what an ended process held, each bounded whatever the process made
 * (a process of 30,000 one-page mappings, or of sparse mappings with 1,000 table pages, would
 * otherwise be one step of millions of instructions): up to RELEASE_STEP of its children queued
 * to end (each after p, in the order they were made), its endpoints ended (their clients learn
 * it is gone), its mappings' records and frames' references dropped (no hart runs on its
 * tables since the shootdown), then a table page (arch_aspace_free_step), then
 * CSPACE_FREE_STEP of its slots. True when nothing is left (charges given back). */
static bool release_step(struct process *p)
{
	unsigned int n = 0;

	if (!list_empty(&p->children) || !list_empty(&p->endpoints) || p->mappings) {
		for (; n < RELEASE_STEP && !list_empty(&p->children); n++) {
			struct process *q = list_entry(p->children.next, struct process, sibling);

			list_remove(&q->sibling);
			process_end(q);
		}
		for (; n < RELEASE_STEP && !list_empty(&p->endpoints); n++)
			endpoint_end(list_entry(p->endpoints.next, struct endpoint, owner_link));
		for (; n < RELEASE_STEP && p->mappings; n++) {
			struct mapping *m = p->mappings;

			p->mappings = m->next;
			mapping_drop(p, m);
		}
		return false;
	}
	if (p->left.root) {
		if (!arch_aspace_free_step(p->left.root, &p->left.pos))
			return false;
		p->left.root = 0;
		p->left.pos = 0;
		account_refund(p->acct, (p->table_pages + 1) * PAGE_SIZE);
		p->table_pages = 0;
		return false;
	}
	if (p->left.cspace) {
		if (!cspace_free_step(p->left.cspace, &p->left.pos))
			return false;
		p->left.cspace = NULL;
		account_refund(p->acct, PAGE_SIZE);
	}
	/* a call at a point on another hart still keeps some of it (its thread ended, or p did):
	 * that hart waits for the lock and finishes its page first, then lets go of it all; until
	 * then p's end is not over (a leak check after it would find those pages missing) */
	return !p->calls;
}

void process_free(struct process *p)
{
	if (p->cspace) /* it never had a thread: never ended */
		release_begin(p);
	if (!release_step(p)) {
		reaper_free(&p->obj); /* the next step later: nobody names it, nobody waits */
		return;
	}
	/* only a thread of p creates children, and p's last thread ended them (process_reap_start) */
	KASSERT(list_empty(&p->children), "process_free: %s still has children", p->name);
	if (p->fault_ep)
		kobj_put(p->fault_ep);
	account_put(p->acct);
	kobj_free(&p->obj, sizeof(*p));
}

void process_end(struct process *p)
{
	reaper_end(&p->obj); /* its reference keeps p until its last thread's end is over */
}

void process_reap(struct process *p)
{
	struct thread *t;

	if (list_empty(&p->threads)) {
		if (p->cspace) /* it never had a thread and has not ended: its creator ended */
			process_reap_start(p, -TACET_EDEAD);
		else if (!release_step(p)) /* ended: what it held goes back, a step at a time */
			reaper_end_first(&p->obj);
		return;
	}
	/* one thread a step of the reaper, oldest first, with a preemption point between two (one
	 * step for 100,001 threads would be 58 million instructions): the end takes its
	 * thread off the list and the last one ends p (process_reap_start); while threads are left p goes
	 * back to the head of the queue (its reference with it), so ends are reported in the
	 * order they were before. A thread of p still running elsewhere may make more meanwhile,
	 * behind the ones there were: it ends among those, so the list ends too. A thread already
	 * queued to end ends with the status it was queued with. */
	t = list_entry(p->threads.next, struct thread, proc_link);
	thread_reap(t, t->obj.queued ? t->exit_status : p->kill_status);
	if (!list_empty(&p->threads))
		reaper_end_first(&p->obj);
}

void process_reap_start(struct process *p, long status)
{
	static struct ratelimit ends = KLOG_LIMIT_INIT;

	if (p->is_root_server)
		klog_flush_all(); /* every line accounted before the power-off */
	if (p->is_root_server || klog_allowed(&ends, "process end"))
		kprintf("tacet: process %s ended (status %ld)\n", p->name, status);
	if (p->is_root_server) {
		kprintf("tacet: init ended; powering off\n");
		platform_poweroff(status == 0 ? 0 : PANIC_EXIT_CODE + 2);
	}
	arch_aspace_deactivate(p->root); /* its page tables go in release_step */
	process_watch_fire(&p->watches, true); /* at most PROCESS_WATCHERS */
	/* what it created goes with it (this also breaks capability cycles among them), each
	 * after p, from the reaper's queue; the rest of what it held, a step at a time from the
	 * head of the queue (release_step) */
	release_begin(p);
	reaper_end_first(&p->obj);
}

/* --- system calls (syscall.h: decode, then invoke) --- */

struct process *process_decode(struct thread *t, unsigned long slot, uint32_t rights, long *err)
{
	struct cap *c = cap_lookup(t->proc->cspace, slot, TACET_CAP_PROCESS, rights, err);
	struct process *p = c ? (struct process *)c->obj : NULL;

	if (p && !p->cspace) {
		*err = TACET_EDEAD;
		return NULL;
	}
	return p;
}

/* PROCESS_END: (process) -> 0: the process a WRITE capability names ends, every thread of it
 * with -TACET_EDEAD, through the reaper as at its last capability's end (a supervisor's end of
 * a server that stopped answering). */
void sys_process_end(struct thread *t)
{
	long err;
	struct process *p = process_decode(t, syscall_arg(t, 0), TACET_RIGHT_WRITE, &err);

	if (!p) {
		syscall_ret(t, -err);
		return;
	}
	syscall_ret(t, 0); /* before: the caller may be one of the threads that end */
	process_end(p);
}

/* CAP_GIVE's decode: a living process (WRITE), a capability of the caller's, an empty slot of
 * the process's. */
static long decode_give(struct thread *t, struct cap **src, struct cap **dst)
{
	long err;
	struct process *p = process_decode(t, syscall_arg(t, 0), TACET_RIGHT_WRITE, &err);

	if (!p)
		return err;
	*src = cap_lookup(t->proc->cspace, syscall_arg(t, 1), TACET_CAP_NULL, 0, &err);
	if (!*src)
		return err;
	*dst = cap_empty_slot(p->cspace, syscall_arg(t, 2), &err);
	return *dst ? 0 : err;
}

/* (process, src, dst, rights): a copy of src, rights & mask, into the process's slot dst. */
void sys_cap_give(struct thread *t)
{
	struct cap *src = NULL, *dst = NULL;
	long err = decode_give(t, &src, &dst);

	if (err) {
		syscall_ret(t, -err);
		return;
	}
	cap_install(dst, src->obj, src->rights & syscall_arg(t, 3), src->badge);
	syscall_ret(t, 0);
}

/* MAP's decode: a living process (WRITE), a frame whose rights cover the mapping's, rights that
 * make sense (some access, nothing unknown, never write and execute), a page-aligned range
 * inside user space. */
static long decode_map(struct thread *t, struct process **p, struct frame **f)
{
	unsigned long rights = syscall_arg(t, 3), need;
	uintptr_t va = syscall_arg(t, 2);
	const unsigned long known = TACET_RIGHT_READ | TACET_RIGHT_WRITE | TACET_MAP_EXEC;
	struct cap *fc;
	long err;

	*p = process_decode(t, syscall_arg(t, 0), TACET_RIGHT_WRITE, &err);
	if (!*p)
		return err;
	fc = cap_lookup(t->proc->cspace, syscall_arg(t, 1), TACET_CAP_FRAME, 0, &err);
	if (!fc)
		return err;
	*f = (struct frame *)fc->obj;
	need = rights & (TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (rights & TACET_MAP_EXEC)
		need |= TACET_RIGHT_READ;
	if ((rights & ~known) || !(rights & known))
		return TACET_EINVAL;
	if ((rights & TACET_RIGHT_WRITE) && (rights & TACET_MAP_EXEC))
		return TACET_EINVAL; /* W^X */
	if (!cap_has_rights(fc, (uint32_t)need))
		return TACET_EPERM;
	if (va & (PAGE_SIZE - 1))
		return TACET_EALIGN;
	if (va + (*f)->pages * PAGE_SIZE > arch_user_top() || va + (*f)->pages * PAGE_SIZE < va)
		return TACET_EINVAL;
	return 0;
}

/* (process, frame, va, rights) */
void sys_map(struct thread *t)
{
	struct process *p = NULL;
	struct frame *f = NULL;
	long err = decode_map(t, &p, &f);

	if (err) {
		syscall_ret(t, -err);
		return;
	}
	process_map_frame(t, p, syscall_arg(t, 2), f, (unsigned int)syscall_arg(t, 3));
}

/* (process, va, pages) */
void sys_unmap(struct thread *t)
{
	long err;
	struct process *p = process_decode(t, syscall_arg(t, 0), TACET_RIGHT_WRITE, &err);
	uintptr_t va = syscall_arg(t, 1);
	unsigned long pages = syscall_arg(t, 2);

	if (!p)
		syscall_ret(t, -err);
	else if (va & (PAGE_SIZE - 1))
		syscall_ret(t, -TACET_EALIGN);
	else if (pages > arch_user_top() / PAGE_SIZE || va + pages * PAGE_SIZE > arch_user_top())
		syscall_ret(t, -TACET_EINVAL);
	else
		process_unmap(t, p, va, pages);
}

/* PROCESS_NEW's budget: pages, at most 2^40 bytes' worth (so that the byte count cannot wrap). */
#define PROCESS_BUDGET_MAX ((1ul << 40) / PAGE_SIZE)

/* PROCESS_NEW's decode: an empty slot, a fault endpoint (WRITE) if one is named, a readable
 * name (copied into name; NULL: not again, after the point), a budget in range. */
static long decode_process_new(struct thread *t, struct cap **dst, struct cap **ep, char *name)
{
	long err;

	*dst = cap_empty_slot(t->proc->cspace, syscall_arg(t, 0), &err);
	if (!*dst)
		return err;
	*ep = NULL;
	if (syscall_arg(t, 1)) {
		*ep = cap_lookup(t->proc->cspace, syscall_arg(t, 1), TACET_CAP_ENDPOINT,
				 TACET_RIGHT_WRITE, &err);
		if (!*ep)
			return err;
	}
	if (name && copy_from_user(t->proc, name, syscall_arg(t, 2), PROCESS_NAME_MAX - 1) < 0)
		return TACET_EFAULT;
	if (syscall_arg(t, 3) > PROCESS_BUDGET_MAX)
		return TACET_ERANGE;
	if (syscall_arg(t, 4)) { /* same_as: a process, ended or not; then no budget of its own */
		if (!cap_lookup(t->proc->cspace, syscall_arg(t, 4), TACET_CAP_PROCESS,
				TACET_RIGHT_WRITE, &err))
			return err;
		if (syscall_arg(t, 3))
			return TACET_EINVAL;
	}
	return 0;
}

/* PROCESS_NEW's point, between process_new's two stretches. What the call keeps across it: p,
 * known to no one, holding a reference to its account; and its thread t (this hart's current
 * thread, kept allocated as FRAME_NEW's is: frame.c), whose process counts the call (calls)
 * meanwhile, so that its end waits for p's charge to come back. After a point that let the
 * lock go, the call looks again as its decode did, but for the name (copied already): t ended
 * (nothing to answer, 0 in *err) or a capability it names changed (the decode's error: the
 * slot filled, the fault endpoint or the same_as process gone) undoes p. Then the decode's
 * capabilities again in *dst and *ep. The account stays the one chosen before the point (a
 * same_as slot given another process meanwhile does not move p's charge). Whether to go on. */
static bool process_new_point(struct thread *t, struct process *p, struct cap **dst,
			      struct cap **ep, long *err)
{
	t->proc->calls++;
	if (preempt_point())
		*err = t->state == TACET_THREAD_DEAD ? 0 : decode_process_new(t, dst, ep, NULL);
	t->proc->calls--;
	if (*err || t->state == TACET_THREAD_DEAD) {
		process_new_undo(p);
		return false;
	}
	return true;
}

/* (slot, fault endpoint or 0, name, budget in pages or 0: the caller's account, same_as: a
 * process whose account it shares, or 0). Sharing is how a supervisor restarts a server
 * without laundering its memory: what the dead instances made and gave away stays
 * charged to the one account, so the new instance has only what is left of the budget. */
void sys_process_new(struct thread *t)
{
	char name[PROCESS_NAME_MAX] = { 0 };
	struct cap *dst = NULL, *ep = NULL;
	long err = decode_process_new(t, &dst, &ep, name);
	uint64_t budget = syscall_arg(t, 3);
	struct account *acct;
	struct process *p;

	if (err) {
		syscall_ret(t, -err);
		return;
	}
	/* its own account, reserved from the caller's, or another process's, or the caller's */
	if (syscall_arg(t, 4))
		acct = ((struct process *)t->proc->cspace->slots[syscall_arg(t, 4)].obj)->acct;
	else
		acct = budget ? account_new(t->proc->acct, budget * PAGE_SIZE) : t->proc->acct;
	p = acct ? process_new_begin(acct, name) : NULL;
	if (budget && acct)
		account_put(acct); /* p holds it now (or it ends here, its reservation back) */
	if (p && !process_new_point(t, p, &dst, &ep, &err)) {
		if (err)
			syscall_ret(t, -err);
		return;
	}
	if (!p || process_new_end(p) < 0) {
		syscall_ret(t, -TACET_ENOMEM);
		return;
	}
	if (ep) {
		kobj_get(ep->obj);
		p->fault_ep = ep->obj;
		p->fault_badge = ep->badge;
	}
	cap_install(dst, &p->obj, TACET_RIGHTS_ALL, 0);
	syscall_ret(t, 0);
}

/* PROCESS_WATCH's decode: a notification (WRITE) and a badge that can be signalled; for a watch
 * (badge not 0) a living process (no right needed to watch), and room for the record if the
 * notification does not watch it yet (*w, its record, else NULL); for badge 0 any process. */
static long decode_watch(struct thread *t, struct process **p, struct notification **n,
			 struct process_watch **w)
{
	uint64_t badge = syscall_arg(t, 2);
	struct cap *c;
	long err;

	c = cap_lookup(t->proc->cspace, syscall_arg(t, 0), TACET_CAP_PROCESS, 0, &err);
	if (!c)
		return err;
	*p = (struct process *)c->obj;
	c = cap_lookup(t->proc->cspace, syscall_arg(t, 1), TACET_CAP_NOTIFICATION,
		       TACET_RIGHT_WRITE, &err);
	if (!c)
		return err;
	*n = (struct notification *)c->obj;
	if (badge >> 63)
		return TACET_EINVAL;
	*w = process_watch_find(&(*p)->watches, *n);
	if (!badge)
		return 0;
	if (!(*p)->cspace)
		return TACET_EDEAD;
	return *w || process_watch_room(&(*p)->watches) ? 0 : TACET_EBUSY;
}

/* (process, notification, badge): signal badge on the notification when the process ends; a
 * notification watches a process once (a new badge replaces the last); badge 0 ends its watch.
 * The watch ends with either (process_watch.h): it keeps neither alive. */
void sys_process_watch(struct thread *t)
{
	struct process *p = NULL;
	struct notification *n = NULL;
	struct process_watch *w = NULL;
	uint64_t badge = syscall_arg(t, 2);
	long err = decode_watch(t, &p, &n, &w);

	if (!err && badge && !w && !(w = process_watch_new(t->proc->acct)))
		err = TACET_ENOMEM;
	if (err) {
		syscall_ret(t, -err);
		return;
	}
	if (!badge) {
		if (w)
			process_watch_free(w);
	} else if (w->ntfn) {
		w->badge = badge;
	} else {
		process_watch_link(w, &p->watches, n, badge);
	}
	syscall_ret(t, 0);
}
