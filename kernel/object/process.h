/* process.h: a process is an address space (page tables) plus a capability table; threads run
 * in it. A process is on all_processes and on its creator's list of children until it ends;
 * its live threads are on its own list (thread.c keeps that one). Each link goes in O(1), so
 * ending a process costs O(its threads + its children). BKL held for all of these. */
#ifndef KERNEL_PROCESS_H
#define KERNEL_PROCESS_H

#include <stdint.h>
#include "object/cap.h"
#include "object/kobj.h"
#include "lib/list.h"

#define PROCESS_NAME_MAX 16

struct endpoint;
struct frame;

/* One frame mapped into the address space; it holds a reference, so a frame stays alive while
 * mapped even after its last capability is deleted. */
struct mapping {
	uintptr_t va;
	struct frame *frame;
	unsigned int rights;
	struct mapping *next;
};

struct process {
	struct kobj obj;
	char name[PROCESS_NAME_MAX];
	uint64_t root;            /* page table root (physical); 0 once it ended */
	struct account *acct;     /* what its memory is charged to: tables, mappings, threads,
				   * the objects it makes (a reference) */
	uint64_t table_pages;     /* page-table pages charged for its mappings (root aside) */
	struct cspace *cspace;
	unsigned int nthreads;    /* live threads */
	unsigned int ncaps;       /* capabilities naming it (see kobj_cap_removed) */
	unsigned int irq_refs;    /* interrupt lines naming it, as a binder, as the owner of
				   * their detection history or as a message-signalled line's
				   * lender (irq_bind.c); BKL */
	unsigned int calls;       /* MAP, UNMAP, FRAME_NEW and PROCESS_NEW calls under way that
				   * keep what it owns or made (its mappings, a frame charged to
				   * it, a process not yet installed) across a point: its end
				   * is over only once none is (release_step) */
	struct kobj *fault_ep;    /* endpoint told about faults (a reference), or NULL */
	struct list_node watches; /* notifications signalled when it ends: PROCESS_WATCH's
				   * records (process_watch.h), up to PROCESS_WATCHERS */
	uint64_t fault_badge;
	struct mapping *mappings; /* frames mapped with TACET_SYS_MAP */
	union {
		struct { /* until it ends (release_begin takes it off both) */
			struct list_node sibling;  /* on its creator's children until either
						    * ends: it ends with its creator, which
						    * owns it */
			struct list_node all_link; /* on all_processes */
		};
		struct process_left { /* from its end: what it gives back, a step of the
				       * reaper at a time (release_step) */
			uint64_t root;         /* its page tables (root is 0 since), or 0 */
			struct cspace *cspace; /* its slots (cspace is NULL since), or NULL */
			uint64_t pos;          /* where the step goes on: a table (its
						* arch_aspace_free_step place), then a slot */
		} left;
	};
	struct list_node children; /* the processes it created that have not ended */
	struct list_node threads; /* its live threads (struct thread's proc_link) */
	struct list_node endpoints; /* the endpoints it created (struct endpoint's owner_link) */
	int is_root_server;       /* init: its end ends the system */
	int kill_status;          /* what its threads end with when it is ended (process_end):
				   * -TACET_EDEAD, or -TACET_EFAULT after a fault (thread_end_faulted) */
};
/* 256 bytes, a kalloc size: a 100,000-process chain (preempt-teardown) fits its budget. */
_Static_assert(sizeof(struct process) <= 256, "struct process fits 256 bytes");

struct account;

/* A new process, without threads, created by the process of the thread whose system call this
 * hart runs (none at boot): it ends with its creator. It and everything it holds are charged
 * to acct. NULL when acct's limit or the machine's memory would be passed. */
struct process *process_new(struct account *acct, const char *name);
/* Map `pages` pages of physical memory at user va with TACET_RIGHT_* / TACET_MAP_EXEC rights.
 * Returns 0 or -TACET_E* (and maps nothing on failure). */
long process_map(struct process *p, uintptr_t va, uint64_t pa, uint64_t pages, unsigned int rights);
/* MAP for thread t: all of frame f at va (page aligned) in p with rights, a page at a time
 * with a preemption point between two (process.c's header says what may happen there);
 * answers t: 0 or -TACET_E*, with nothing of it mapped (-TACET_EDEAD: p ended meanwhile; t
 * ended: no answer). A thread more urgent than t on its hart may hold the call back
 * (syscall_hold_back; process_go_on). */
void process_map_frame(struct thread *t, struct process *p, uintptr_t va, struct frame *f,
		       unsigned int rights);
/* UNMAP for thread t: every frame mapped at an address in [va, va + pages pages); a frame that
 * is only partly inside the range makes it -TACET_EINVAL (nothing changes). A page at a time,
 * with a preemption point between two (process.c's header); it finishes, unless held back as
 * MAP may be; answers t. */
void process_unmap(struct thread *t, struct process *p, uintptr_t va, uint64_t pages);
/* A call keeps what p owns across its points (process_call_get), or is done with it: p's end
 * waits for that (a call at a point on another hart finishes its page and lets go). */
static inline void process_call_get(struct process *p)
{
	kobj_get(&p->obj);
	p->calls++;
}

static inline void process_call_put(struct process *p)
{
	p->calls--;
	kobj_put(&p->obj);
}
/* TACET_SYS_RESUME of a MAP or UNMAP held back (t->held_proc): the rest of it. */
void process_go_on(struct thread *t);
/* t ends with a MAP or UNMAP held back: its records stay the process's mappings (the pages
 * mapped, or not yet unmapped, are theirs), or go if the process has ended; the call's
 * reference dropped. */
void process_held_end(struct thread *t);
/* End p (nobody holds a capability to it any more, or its creator ended): every thread of it,
 * or p itself if it never had one. Through the reaper (reaper.h): at once, unless a teardown is
 * under way, which then ends p after the step that asked; so ending a process that ends the
 * processes it made, whose end ends theirs..., is a loop, not a recursion. */
void process_end(struct process *p);
/* The reaper's: what process_end asked for, unless p has ended meanwhile. */
void process_reap(struct process *p);
/* p's last thread ended (or it is ended without ever having had one): release its memory and
 * capabilities and queue the processes it created to end (process_end). The root server's end
 * powers off. From the reaper's loop only. All a process held goes back at its end, whoever
 * still holds a capability to it, in steps of the reaper's queue (process_reap): no hart runs
 * on it or finds it alive from the end on. */
void process_reap_start(struct process *p, long status);
/* At the last reference (kobj_put). */
void process_free(struct process *p);

/* Every process that has not ended (struct process's all_link). */
extern struct list_node all_processes;

/* A living process named by t's capability in slot with rights (WRITE to change it: map,
 * unmap, threads, capabilities; none to watch it), or NULL and *err (TACET_EDEAD if ended). */
struct process *process_decode(struct thread *t, unsigned long slot, uint32_t rights, long *err);
void sys_cap_give(struct thread *t);
void sys_map(struct thread *t);
void sys_unmap(struct thread *t);
void sys_process_new(struct thread *t);
void sys_process_watch(struct thread *t);
void sys_process_end(struct thread *t);

#endif
