/* process.c: processes (address space + cspace) and user-memory access. Owns all_processes
 * and each process's list of children. BKL held. Ending a process walks only its own threads
 * and children, and every unlinking is O(1): a process of n threads ends in O(n). Its end ends
 * no other process directly: its children and the processes its capabilities kept alive go
 * through the reaper's queue (reaper.h). */
#include "object/process.h"
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
#include "object/reaper.h"

struct list_node all_processes = LIST_INIT(all_processes);

/* After unmapping in p, or before p's memory goes: no hart that runs one of p's threads may
 * keep a stale translation. Ask each to flush and wait until all have (they do it in their IPI
 * handler, or while they spin for the BKL this hart holds). BKL held. */
static void tlb_shootdown(struct process *p)
{
	struct hart *me = this_hart();
	uint32_t asked = 0;

	for (unsigned int h = 0; h < nharts; h++) {
		if (&harts[h] == me || !harts[h].current || harts[h].current->proc != p)
			continue;
		__atomic_store_n(&harts[h].tlb_flush_pending, 1, __ATOMIC_RELEASE);
		hart_signal(&harts[h], IPI_TLB);
		asked |= 1u << h;
	}
	for (unsigned int h = 0; h < nharts; h++)
		if (asked & (1u << h))
			while (__atomic_load_n(&harts[h].tlb_flush_pending, __ATOMIC_ACQUIRE))
				;
}

/* p's creator is the process of the thread whose system call this is (the thread is current
 * until the call returns); at boot there is none. */
static void process_adopt(struct process *p)
{
	struct thread *creator = this_hart()->current;

	if (!creator)
		return;
	list_push_back(&creator->proc->children, &p->sibling);
}

/* Its root table and its cspace: a page each, charged to p's account. 0 or -1. */
static int process_new_memory(struct process *p)
{
	if (account_charge(p->acct, 2 * PAGE_SIZE) < 0)
		return -1;
	p->root = arch_aspace_new();
	p->cspace = cspace_new();
	if (p->root && p->cspace)
		return 0;
	if (p->root)
		arch_aspace_free(p->root);
	if (p->cspace)
		cspace_free(p->cspace);
	account_refund(p->acct, 2 * PAGE_SIZE);
	return -1;
}

struct process *process_new(struct account *acct, const char *name)
{
	struct process *p = kobj_new(acct, sizeof(struct process), TACET_CAP_PROCESS);

	if (!p)
		return NULL;
	p->acct = acct;
	account_get(acct);
	if (process_new_memory(p) < 0) {
		account_put(acct);
		kobj_free(&p->obj, sizeof(*p));
		return NULL;
	}
	for (size_t i = 0; i < PROCESS_NAME_MAX - 1 && name[i]; i++)
		p->name[i] = name[i];
	list_init(&p->threads);
	list_init(&p->endpoints);
	list_init(&p->children);
	list_init(&p->sibling);
	list_push_back(&all_processes, &p->all_link);
	process_adopt(p);
	return p;
}

/* One page, with the page tables it needs charged to p's account (room for the most a page
 * can need is asked first, what was not needed given back). 0 or -TACET_E*. */
static long map_page(struct process *p, uintptr_t va, uint64_t pa, unsigned int rights)
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

long process_map_frame(struct process *p, uintptr_t va, struct frame *f, unsigned int rights)
{
	struct mapping *m = account_kalloc(p->acct, sizeof(*m));
	long err;

	if (!m)
		return -TACET_ENOMEM;
	err = process_map(p, va, f->pa, f->pages, rights);
	if (err) {
		account_kfree(p->acct, m, sizeof(*m));
		return err;
	}
	kobj_get(&f->obj);
	*m = (struct mapping){ va, f, rights, p->mappings };
	p->mappings = m;
	return 0;
}

static void unmap_pages(struct process *p, struct mapping *m)
{
	for (uint64_t i = 0; i < m->frame->pages; i++)
		arch_aspace_unmap(p->root, m->va + i * PAGE_SIZE, NULL);
}

/* A mapping of a process no hart runs any more (it ended): no shootdown needed. */
static void unmap_one(struct process *p, struct mapping *m)
{
	unmap_pages(p, m);
	kobj_put(&m->frame->obj);
	account_kfree(p->acct, m, sizeof(*m));
}

long process_unmap(struct process *p, uintptr_t va, uint64_t pages)
{
	uintptr_t end = va + pages * PAGE_SIZE;
	struct mapping **mp, *m;

	for (m = p->mappings; m; m = m->next)
		if (m->va >= va && m->va < end && m->va + m->frame->pages * PAGE_SIZE > end)
			return -TACET_EINVAL;
	struct mapping *gone = NULL;

	for (mp = &p->mappings; (m = *mp);) {
		if (m->va >= va && m->va < end) {
			*mp = m->next;
			unmap_pages(p, m);
			m->next = gone;
			gone = m;
		} else {
			mp = &m->next;
		}
	}
	/* No hart may still reach a page when its frame can be freed (a stale write into a free
	 * page would corrupt the free list), so: page tables, then every TLB, then the frames. */
	tlb_shootdown(p);
	while ((m = gone)) {
		gone = m->next;
		kobj_put(&m->frame->obj);
		account_kfree(p->acct, m, sizeof(*m));
	}
	return 0;
}

static long copy_user(struct process *p, uintptr_t uva, void *kbuf, uint64_t len, int to_user)
{
	while (len) {
		uint64_t pa, chunk = PAGE_SIZE - (uva & (PAGE_SIZE - 1));
		unsigned int need = to_user ? TACET_RIGHT_WRITE : TACET_RIGHT_READ;

		if (chunk > len)
			chunk = len;
		if (arch_aspace_lookup(p->root, uva, need, &pa) < 0)
			return -TACET_EFAULT;
		if (to_user)
			memcpy((void *)arch_phys_to_virt(pa), kbuf, chunk);
		else
			memcpy(kbuf, (void *)arch_phys_to_virt(pa), chunk);
		uva += chunk;
		kbuf = (char *)kbuf + chunk;
		len -= chunk;
	}
	return 0;
}

long copy_from_user(struct process *p, void *dst, uintptr_t src, uint64_t len)
{
	if (src + len < src || src + len > arch_user_top())
		return -TACET_EFAULT;
	return copy_user(p, src, dst, len, 0);
}

long copy_to_user(struct process *p, uintptr_t dst, const void *src, uint64_t len)
{
	if (dst + len < dst || dst + len > arch_user_top())
		return -TACET_EFAULT;
	return copy_user(p, dst, (void *)src, len, 1);
}

/* The page tables and the root, and their charge. */
static void process_free_aspace(struct process *p)
{
	if (!p->root)
		return;
	arch_aspace_free(p->root);
	p->root = 0; /* from now on anyone activating it gets the kernel's tables */
	account_refund(p->acct, (p->table_pages + 1) * PAGE_SIZE);
	p->table_pages = 0;
}

/* The last thread ended: give back its memory and capabilities. The struct lives on while
 * capabilities or threads still name it. */
void process_release(struct process *p)
{
	/* a thread of p killed from another hart may still be in user mode there */
	tlb_shootdown(p);
	list_remove(&p->all_link);
	list_remove(&p->sibling); /* its creator no longer has to end it */
	irq_release_owner(p); /* a driver's end frees its lines for the next one */
	while (!list_empty(&p->endpoints)) /* its clients learn it is gone */
		endpoint_end(list_entry(p->endpoints.next, struct endpoint, owner_link));
	while (p->mappings) {
		struct mapping *m = p->mappings;

		p->mappings = m->next;
		unmap_one(p, m);
	}
	/* No hart runs on p's tables any more (the shootdown above moved every one that did to
	 * the kernel's, and p has no thread to go back to): they go now, not with the struct. */
	process_free_aspace(p);
	if (p->cspace) {
		struct cspace *cs = p->cspace;

		p->cspace = NULL;
		account_refund(p->acct, PAGE_SIZE);
		cspace_free(cs); /* may drop the last reference to p itself: nothing after this */
	}
}

void process_free(struct process *p)
{
	/* only a thread of p creates children, and p's last thread ended them (process_end) */
	KASSERT(list_empty(&p->children), "process_free: %s still has children", p->name);
	if (p->cspace)
		process_release(p);
	process_free_aspace(p);
	if (p->fault_ep)
		kobj_put(p->fault_ep);
	for (int i = 0; i < PROCESS_WATCHERS; i++)
		if (p->watchers[i].ntfn)
			kobj_put(p->watchers[i].ntfn);
	account_put(p->acct);
	kobj_free(&p->obj, sizeof(*p));
}

void process_kill(struct process *p)
{
	reaper_end(&p->obj); /* its reference keeps p until its last thread's end is over */
}

void process_reap(struct process *p)
{
	struct thread *t;

	if (list_empty(&p->threads)) {
		if (p->cspace) /* it never had a thread and has not ended: its creator ended */
			process_end(p, -TACET_EDEAD);
		return;
	}
	/* each end takes its thread off the list; the last one ends p (process_end); a thread
	 * already queued to end ends with the status it was queued with */
	while (!list_empty(&p->threads)) {
		t = list_entry(p->threads.next, struct thread, proc_link);
		thread_end(t, t->obj.queued ? t->exit_status : -TACET_EDEAD);
	}
}

void process_end(struct process *p, long status)
{
	struct process *q;

	kprintf("tacet: process %s ended (status %ld)\n", p->name, status);
	if (p->is_root_server) {
		kprintf("tacet: init ended; powering off\n");
		platform_poweroff(status == 0 ? 0 : PANIC_EXIT_CODE + 2);
	}
	arch_aspace_deactivate(p->root); /* its page tables go in process_release */
	for (int i = 0; i < PROCESS_WATCHERS; i++) {
		struct kobj *n = p->watchers[i].ntfn;

		if (!n)
			continue;
		p->watchers[i].ntfn = NULL;
		notification_signal((struct notification *)n, p->watchers[i].badge);
		kobj_put(n);
	}
	/* what it created goes with it (this also breaks capability cycles among them), each
	 * after p, from the reaper's queue */
	while (!list_empty(&p->children)) {
		q = list_entry(p->children.next, struct process, sibling);
		list_remove(&q->sibling);
		process_kill(q);
	}
	process_release(p);
}
