/* test_process_new.c: host unit tests of PROCESS_NEW's preemption point (kernel/object/process.c:
 * sys_process_new, with a thread, process, cspace and accounts of the test's). The call makes the
 * new process in two stretches with one point between them; at that point another "hart" ends
 * the caller (or its process with it), fills the call's slot (or fills and empties it), deletes
 * the fault endpoint's or the same_as process's capability, or takes the machine's last page,
 * or the point keeps the lock. The call then ends as if unpreempted (its process installed, the
 * fault endpoint referenced, 0), or with the error its decode gives now (an ended caller is
 * answered nothing), and nothing of the new process is left: no object, page, charge or account
 * reference (a budget's account ends, its reservation back in the caller's). The caller's
 * process counts the call (calls) across the point and not after it. Each scene runs with the
 * new process charged to the caller's account, to a budget of its own and to a same_as
 * process's account, with and without a fault endpoint. Over tests/host/fake_kernel.c and
 * fake_pages.c with the real accounts, capabilities and watch records; the rest process.c
 * reaches is faked here: the teardown's (tlb_shootdown, irq_release_owner, the root table's
 * free, reaper_free's next step) only after the call, what PROCESS_NEW never reaches fails.
 * `test_process_new PATTERN` runs the tests whose names match PATTERN only. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "arch.h"
#include "core/console.h"
#include "core/hart.h"
#include "core/platform.h"
#include "core/preempt.h"
#include "core/syscall.h"
#include "fake_kernel.h"
#include "irq/irq.h"
#include "mm/kalloc.h"
#include "mm/mm.h"
#include "mm/page_alloc.h"
#include "mm/tlb.h"
#include "mm/usercopy.h"
#include "object/account.h"
#include "object/cap.h"
#include "object/endpoint.h"
#include "object/notification.h"
#include "object/process.h"
#include "object/reaper.h"
#include "object/thread.h"

#define SLOT_NEW      5 /* where the call is to put its process */
#define SLOT_EP       6 /* the fault endpoint (WRITE) */
#define SLOT_SAME     7 /* the same_as process (WRITE) */
#define SLOT_FILLER   8 /* a notification: the wrong type for either */
#define SLOT_READ_EP  9 /* the fault endpoint, READ only */
#define EP_BADGE      0x42
#define BUDGET_PAGES  64
#define CALLER_LIMIT  (1024 * PAGE_SIZE)
#define BUDGET_MAX    ((1ul << 40) / PAGE_SIZE) /* process.c's PROCESS_BUDGET_MAX */

/* Whose account the new process is charged to. */
enum charged_to {
	CALLERS,  /* budget 0, same_as 0: the caller's */
	OWN,      /* a budget: a new account, reserved from the caller's */
	SAME_AS,  /* another process's (its capability in SLOT_SAME) */
	CHARGED_KINDS
};

static const char *const charged_names[] = { "caller's account", "own budget", "same_as" };

/* What another hart does in the window of the point (or that the point keeps the lock). */
enum hostile {
	NOTHING,
	KEEP_LOCK,      /* the point returns false: nobody else ran */
	END_THREAD,     /* the caller ends (another hart's thread_reap): TACET_THREAD_DEAD */
	END_PROCESS,    /* and its process with it: its cspace freed (release_begin) */
	FILL_SLOT,      /* another thread of the process fills the call's slot */
	FILL_AND_EMPTY, /* fills it and empties it again, both in the window */
	DELETE_EP,      /* deletes the fault endpoint's capability */
	DELETE_SAME_AS, /* deletes the same_as process's capability */
	NO_PAGES,       /* takes the machine's last page: the second stretch finds none */
	HOSTILE_KINDS
};

static const char *const hostile_names[] = {
	"nothing", "the lock kept", "end the thread", "end the process", "fill the slot",
	"fill and empty the slot", "delete the fault endpoint", "delete same_as", "no pages left",
};

/* The name in the caller's memory (copy_from_user reads host addresses here). */
static const char user_name[PROCESS_NAME_MAX] = "child";

__thread struct hart *host_current_hart;
static struct hart the_hart;

/* The caller and what it has: the test's own, set up as the kernel has them. */
static struct {
	struct account *acct;     /* the caller's process's */
	struct account *other;    /* the same_as process's */
	struct process proc;      /* the caller's process */
	struct thread thread;     /* the caller */
	struct process same;      /* the same_as process: the test holds its reference */
	struct kobj ep;           /* the fault endpoint: the test holds a reference */
	struct kobj filler;       /* a notification another hart puts in the call's slot */
	enum charged_to charged;
	bool with_ep;
	enum hostile what;
	bool calling;             /* within sys_process_new */
	size_t points;            /* points the call reached */
	bool requeued;            /* reaper_free: the teardown goes on in another step */
	size_t objects_start, pages_start;         /* before the scene */
	size_t objects_before, pages_before;       /* before the call */
	uint64_t used_before, other_used_before;   /* the accounts before the call */
	uint32_t refs_before, other_refs_before;
	uint32_t ep_refs, filler_refs, same_refs;  /* after the window (none: before the call) */
	uint64_t spent;           /* charged to the caller's account by the test */
} sc;

static const char *scene_name(void)
{
	static char name[160];

	snprintf(name, sizeof(name), "%s%s, %s at the point", charged_names[sc.charged],
		 sc.with_ep ? " with a fault endpoint" : "", hostile_names[sc.what]);
	return name;
}

/* An assertion that names the scene and both values. */
#define SCENE_EQ(a, b)                                                                       \
	do {                                                                                 \
		long long a_ = (long long)(a), b_ = (long long)(b);                           \
		if (a_ != b_)                                                                \
			fail_msg("%s: %s is %lld, not %lld (%s)", scene_name(), #a, a_, b_, #b);  \
	} while (0)

/* --- the rest of the kernel process.c reaches --------------------------------------------- */

/* The root table: one page of its own (the kernel's shares the kernel half). */
uint64_t arch_aspace_new(void)
{
	assert_true(sc.calling);
	return page_alloc_zeroed();
}

void arch_aspace_free(uint64_t root)
{
	page_free(root);
}

/* The teardown's, after the call: the installed process's end (process_free). */
bool arch_aspace_free_step(uint64_t root, uint64_t *pos)
{
	assert_false(sc.calling);
	*pos = 0;
	page_free(root);
	return true;
}

void tlb_shootdown(struct process *p)
{
	(void)p;
	assert_false(sc.calling);
}

void irq_release_owner(struct process *p)
{
	(void)p;
	assert_false(sc.calling);
}

void reaper_free(struct kobj *o)
{
	(void)o;
	assert_false(sc.calling);
	sc.requeued = true;
}

/* The caller's memory is the host's: src a host address, 0 unmapped. */
long copy_from_user(struct process *p, void *dst, uintptr_t src, uint64_t len)
{
	assert_ptr_equal(p, &sc.proc);
	if (!src)
		return -TACET_EFAULT;
	memcpy(dst, (const void *)src, len);
	return 0;
}

/* What PROCESS_NEW never reaches: MAP's and UNMAP's, a process's or a thread's end, the
 * reaper's queue, an urgent thread's wait, a watch's signal. */
#define NEVER(what) fail_msg("%s reached by PROCESS_NEW (%s)", what, scene_name())

void arch_aspace_deactivate(uint64_t root)
{
	(void)root;
	NEVER("arch_aspace_deactivate");
}

int arch_aspace_map(uint64_t root, uintptr_t va, uint64_t pa, unsigned int rights)
{
	(void)root, (void)va, (void)pa, (void)rights;
	NEVER("arch_aspace_map");
	return -TACET_EINVAL;
}

int arch_aspace_unmap(uint64_t root, uintptr_t va, uint64_t *pa)
{
	(void)root, (void)va, (void)pa;
	NEVER("arch_aspace_unmap");
	return -TACET_EINVAL;
}

uintptr_t arch_user_top(void)
{
	NEVER("arch_user_top");
	return 0;
}

void endpoint_end(struct endpoint *ep)
{
	(void)ep;
	NEVER("endpoint_end");
}

bool klog_allowed(struct ratelimit *r, const char *what)
{
	(void)r, (void)what;
	NEVER("klog_allowed");
	return false;
}

void klog_flush_all(void)
{
	NEVER("klog_flush_all");
}

void kprintf(const char *fmt, ...)
{
	NEVER(fmt);
}

void platform_poweroff(int code)
{
	(void)code;
	NEVER("platform_poweroff");
	abort(); /* fail_msg() leaves the test; this only tells the compiler */
}

void reaper_end(struct kobj *o)
{
	(void)o;
	NEVER("reaper_end");
}

void reaper_end_first(struct kobj *o)
{
	(void)o;
	NEVER("reaper_end_first");
}

void syscall_hold_back(struct thread *t)
{
	(void)t;
	NEVER("syscall_hold_back");
}

bool preempt_urgent(const struct thread *t)
{
	(void)t;
	NEVER("preempt_urgent");
	return false;
}

void thread_reap(struct thread *t, long status)
{
	(void)t, (void)status;
	NEVER("thread_reap");
}

struct thread *notification_signal(struct notification *n, uint64_t bits)
{
	(void)n, (void)bits;
	NEVER("notification_signal");
	return NULL;
}

/* --- the scenes ----------------------------------------------------------------------------- */

/* The account the new process is charged to (the scene's, or p's own for a budget). */
static struct account *charged_account(const struct process *p)
{
	switch (sc.charged) {
	case CALLERS:
		return sc.acct;
	case SAME_AS:
		return sc.other;
	default:
		return p ? p->acct : NULL;
	}
}

/* What the first stretch charges: the object and the two pages (root table, cspace). */
static uint64_t process_charge(void)
{
	return kalloc_size(sizeof(struct process)) + 2 * PAGE_SIZE;
}

/* The call's preemption point (core/preempt.h's, here the test's): what the first stretch
 * must have left, then what the other hart does meanwhile. */
bool preempt_point(void)
{
	struct cspace *cs = sc.proc.cspace;

	assert_true(sc.calling);
	sc.points++;
	SCENE_EQ(sc.proc.calls, 1); /* the caller's process's end waits for the call */
	/* the first stretch: the object (and a budget's account) and the root table, charged;
	 * the cspace not yet; nobody knows the process */
	SCENE_EQ(fake_pages_in_use(), sc.pages_before + 1);
	SCENE_EQ(kalloc_live(), sc.objects_before + 1 + (sc.charged == OWN));
	switch (sc.charged) {
	case CALLERS:
		SCENE_EQ(sc.acct->used, sc.used_before + process_charge());
		break;
	case OWN: /* the reservation; the account the caller's child (a reference) */
		SCENE_EQ(sc.acct->used, sc.used_before + BUDGET_PAGES * PAGE_SIZE);
		SCENE_EQ(sc.acct->refs, sc.refs_before + 1);
		break;
	default:
		SCENE_EQ(sc.acct->used, sc.used_before);
		SCENE_EQ(sc.other->used, sc.other_used_before + process_charge());
		SCENE_EQ(sc.other->refs, sc.other_refs_before + 2); /* the object's and p's */
	}
	assert_true(list_empty(&all_processes));
	assert_true(list_empty(&sc.proc.children));
	assert_null(cs->slots[SLOT_NEW].obj);
	switch (sc.what) {
	case NOTHING:
		break;
	case KEEP_LOCK:
		return false;
	case END_PROCESS:
		cspace_free(cs); /* as release_begin, once the last thread ended */
		sc.proc.cspace = NULL;
		__attribute__((fallthrough)); /* the thread ended first */
	case END_THREAD:
		sc.thread.state = TACET_THREAD_DEAD;
		break;
	case FILL_SLOT:
		cap_install(&cs->slots[SLOT_NEW], &sc.filler, TACET_RIGHTS_ALL, 0);
		break;
	case FILL_AND_EMPTY:
		cap_install(&cs->slots[SLOT_NEW], &sc.filler, TACET_RIGHTS_ALL, 0);
		cap_clear(&cs->slots[SLOT_NEW]);
		break;
	case DELETE_EP:
		cap_clear(&cs->slots[SLOT_EP]);
		break;
	case DELETE_SAME_AS:
		cap_clear(&cs->slots[SLOT_SAME]);
		break;
	case NO_PAGES:
		fake_pages_set_limit(fake_pages_in_use());
		break;
	default:
		fail();
	}
	sc.ep_refs = sc.ep.refs;
	sc.filler_refs = sc.filler.refs;
	sc.same_refs = sc.same.obj.refs;
	return true;
}

/* The caller, its process, cspace and account (and the same_as process, the fault endpoint,
 * the filler: each the test's, each named by a capability of the caller). The call's
 * arguments: the slot, the fault endpoint if asked, the name, the budget or same_as. */
static void scene_setup(enum charged_to charged, bool with_ep, enum hostile what)
{
	struct cspace *cs;

	memset(&sc, 0, sizeof(sc));
	sc.charged = charged;
	sc.with_ep = with_ep;
	sc.what = what;
	sc.objects_start = kalloc_live();
	sc.pages_start = fake_pages_in_use();
	sc.acct = account_new(NULL, CALLER_LIMIT);
	sc.other = account_new(NULL, CALLER_LIMIT);
	assert_non_null(sc.acct);
	assert_non_null(sc.other);
	sc.proc.obj = (struct kobj){ .type = TACET_CAP_PROCESS, .refs = 1 };
	sc.proc.acct = sc.acct;
	sc.proc.cspace = cs = cspace_new();
	assert_non_null(cs);
	list_init(&sc.proc.children);
	sc.thread.proc = &sc.proc;
	sc.thread.state = TACET_THREAD_RUNNING;
	the_hart.current = &sc.thread;
	host_current_hart = &the_hart;
	sc.same.obj = (struct kobj){ .type = TACET_CAP_PROCESS, .refs = 1 };
	sc.same.acct = sc.other; /* account_new's reference is its */
	sc.ep = (struct kobj){ .type = TACET_CAP_ENDPOINT, .refs = 1 };
	sc.filler = (struct kobj){ .type = TACET_CAP_NOTIFICATION, .refs = 1 };
	cap_install(&cs->slots[SLOT_EP], &sc.ep, TACET_RIGHTS_ALL, EP_BADGE);
	cap_install(&cs->slots[SLOT_READ_EP], &sc.ep, TACET_RIGHT_READ, EP_BADGE);
	cap_install(&cs->slots[SLOT_SAME], &sc.same.obj, TACET_RIGHTS_ALL, 0);
	cap_install(&cs->slots[SLOT_FILLER], &sc.filler, TACET_RIGHTS_ALL, 0);
	assert_true(list_empty(&all_processes));

	arch_ctx_set_ret(&sc.thread.ctx, 0, SLOT_NEW);
	arch_ctx_set_ret(&sc.thread.ctx, 1, with_ep ? SLOT_EP : 0);
	arch_ctx_set_ret(&sc.thread.ctx, 2, (uintptr_t)user_name);
	arch_ctx_set_ret(&sc.thread.ctx, 3, charged == OWN ? BUDGET_PAGES : 0);
	arch_ctx_set_ret(&sc.thread.ctx, 4, charged == SAME_AS ? SLOT_SAME : 0);
}

/* The call, from a state the test notes to compare with after. */
static long call(void)
{
	sc.objects_before = kalloc_live();
	sc.pages_before = fake_pages_in_use();
	sc.used_before = sc.acct->used;
	sc.refs_before = sc.acct->refs;
	sc.other_used_before = sc.other->used;
	sc.other_refs_before = sc.other->refs;
	sc.ep_refs = sc.ep.refs;
	sc.filler_refs = sc.filler.refs;
	sc.same_refs = sc.same.obj.refs;
	sc.calling = true;
	sys_process_new(&sc.thread);
	sc.calling = false;
	fake_pages_set_limit(SIZE_MAX);
	SCENE_EQ(sc.proc.calls, 0); /* the call is over: the process's end need not wait */
	return (long)arch_ctx_arg(&sc.thread.ctx, 0);
}

/* The call made its process: whole, in the slot, on the lists, charged, holding the fault
 * endpoint. Then the caller deletes it and it ends as the reaper ends it (process_free, a step
 * at a time), giving everything back. */
static void check_installed(void)
{
	struct cspace *cs = sc.proc.cspace;
	struct process *p = (struct process *)cs->slots[SLOT_NEW].obj;
	struct account *a;

	if (!p || p->obj.type != TACET_CAP_PROCESS)
		fail_msg("%s: slot %d holds %p, no process", scene_name(), SLOT_NEW, (void *)p);
	a = charged_account(p);
	SCENE_EQ(p->obj.refs, 1);
	SCENE_EQ(cs->slots[SLOT_NEW].rights, TACET_RIGHTS_ALL);
	assert_string_equal(p->name, user_name);
	assert_true(p->root != 0);
	assert_non_null(p->cspace);
	assert_ptr_equal(all_processes.next, &p->all_link);
	assert_ptr_equal(sc.proc.children.next, &p->sibling);
	assert_true(list_empty(&p->threads));
	assert_true(list_empty(&p->watches));
	SCENE_EQ(p->kill_status, -TACET_EDEAD);
	SCENE_EQ(p->calls, 0);
	assert_ptr_equal(p->fault_ep, sc.with_ep ? &sc.ep : NULL);
	SCENE_EQ(p->fault_badge, sc.with_ep ? EP_BADGE : 0);
	SCENE_EQ(sc.ep.refs, sc.ep_refs + sc.with_ep); /* p's reference */
	SCENE_EQ(fake_pages_in_use(), sc.pages_before + 2);
	SCENE_EQ(kalloc_live(), sc.objects_before + 1 + (sc.charged == OWN));
	SCENE_EQ(a->used, process_charge() + (sc.charged == CALLERS ? sc.used_before :
					     sc.charged == SAME_AS ? sc.other_used_before : 0));
	if (sc.charged == OWN) {
		assert_ptr_equal(a->parent, sc.acct);
		SCENE_EQ(a->limit, BUDGET_PAGES * PAGE_SIZE);
		SCENE_EQ(a->refs, 2); /* the object's and p's: the call's own went */
		SCENE_EQ(sc.acct->used, sc.used_before + BUDGET_PAGES * PAGE_SIZE);
	}

	cap_clear(&cs->slots[SLOT_NEW]);
	SCENE_EQ(fake_destroyed_count(), 1);
	assert_ptr_equal(fake_destroyed(0), &p->obj);
	do {
		sc.requeued = false;
		process_free(p);
	} while (sc.requeued);
	assert_true(list_empty(&all_processes));
	assert_true(list_empty(&sc.proc.children));
}

/* What the call's end leaves, whatever it was, against what was there before it: no object,
 * page, charge or reference of the new process; the caller's capabilities changed only by
 * the other hart's acts. Then the scene goes, everything back. */
static void scene_end(void)
{
	struct cspace *cs = sc.proc.cspace;

	assert_true(list_empty(&all_processes));
	assert_true(list_empty(&sc.proc.children));
	SCENE_EQ(kalloc_live(), sc.objects_before);
	SCENE_EQ(fake_pages_in_use(), sc.pages_before - (sc.what == END_PROCESS));
	SCENE_EQ(sc.acct->used, sc.used_before);
	SCENE_EQ(sc.acct->refs, sc.refs_before);
	SCENE_EQ(sc.other->used, sc.other_used_before);
	SCENE_EQ(sc.other->refs, sc.other_refs_before);
	SCENE_EQ(sc.ep.refs, sc.ep_refs);
	SCENE_EQ(sc.filler.refs, sc.filler_refs);
	SCENE_EQ(sc.same.obj.refs, sc.same_refs);

	if (cs) {
		if (sc.what != FILL_SLOT)
			assert_null(cs->slots[SLOT_NEW].obj);
		cspace_free(cs);
	}
	SCENE_EQ(sc.ep.refs, 1);
	SCENE_EQ(sc.filler.refs, 1);
	SCENE_EQ(sc.same.obj.refs, 1);
	account_refund(sc.acct, sc.spent);
	SCENE_EQ(sc.acct->refs, 1);
	SCENE_EQ(sc.other->refs, 1);
	account_put(sc.acct);
	account_put(sc.other);
	SCENE_EQ(kalloc_live(), sc.objects_start);
	SCENE_EQ(fake_pages_in_use(), sc.pages_start);
	fake_kernel_reset();
}

/* PROCESS_NEW with `what` at its point, every way of charging the process, with and without a
 * fault endpoint where `what` allows: the answer (0, nothing for a dead caller, or the error
 * -err) and what is left. */
static void process_new_preempted(enum hostile what, long err)
{
	for (int charged = 0; charged < CHARGED_KINDS; charged++) {
		for (int with_ep = 0; with_ep < 2; with_ep++) {
			long ret;

			if ((what == DELETE_EP && !with_ep) ||
			    (what == DELETE_SAME_AS && charged != SAME_AS))
				continue;
			scene_setup((enum charged_to)charged, with_ep, what);
			ret = call();
			SCENE_EQ(sc.points, 1);
			if (what == END_THREAD || what == END_PROCESS)
				SCENE_EQ(ret, SLOT_NEW); /* answered nothing: a0 as it was */
			else
				SCENE_EQ(ret, -err);
			if (!err && what != END_THREAD && what != END_PROCESS)
				check_installed();
			else if (what == FILL_SLOT)
				assert_ptr_equal(sc.proc.cspace->slots[SLOT_NEW].obj, &sc.filler);
			scene_end();
		}
	}
}

static int reset(void **state)
{
	(void)state;
	fake_kernel_reset();
	return 0;
}

static int check_nothing_left(void **state)
{
	(void)state;
	assert_int_equal(kalloc_live(), 0);
	assert_int_equal(fake_pages_in_use(), 0);
	return 0;
}

/* Nothing happens at the point (the lock let go): the process installed, 0. */
static void test_nothing_at_the_point_installs(void **state)
{
	(void)state;
	process_new_preempted(NOTHING, 0);
}

/* The point keeps the lock: nothing to look at again; installed. */
static void test_point_keeping_the_lock_installs(void **state)
{
	(void)state;
	process_new_preempted(KEEP_LOCK, 0);
}

/* The caller ended at the point: nothing answered, the process undone. */
static void test_thread_ended_answers_nothing(void **state)
{
	(void)state;
	process_new_preempted(END_THREAD, 0);
}

/* With a budget, the caller ended at the point: the new account ends with the process, its
 * reservation back in the caller's account (test_thread_ended_answers_nothing checks it among
 * the rest; here on its own). */
static void test_thread_ended_with_a_budget_ends_its_account(void **state)
{
	(void)state;
	for (int with_ep = 0; with_ep < 2; with_ep++) {
		scene_setup(OWN, with_ep, END_THREAD);
		SCENE_EQ(call(), SLOT_NEW);
		SCENE_EQ(sc.acct->used, sc.used_before); /* the reservation back */
		SCENE_EQ(sc.acct->refs, sc.refs_before); /* the child account's reference gone */
		SCENE_EQ(kalloc_live(), sc.objects_before); /* and the account itself */
		scene_end();
	}
}

/* The caller's process ended too (its cspace gone): nothing answered, nothing looked up. */
static void test_process_ended_answers_nothing(void **state)
{
	(void)state;
	process_new_preempted(END_PROCESS, 0);
}

/* The call's slot filled at the point: TACET_EEXIST, the filler left in it. */
static void test_slot_filled_is_eexist(void **state)
{
	(void)state;
	process_new_preempted(FILL_SLOT, TACET_EEXIST);
}

/* Filled and emptied again in the window: the slot is empty, the call goes on. */
static void test_slot_filled_and_emptied_installs(void **state)
{
	(void)state;
	process_new_preempted(FILL_AND_EMPTY, 0);
}

/* The fault endpoint's capability deleted at the point: the lookup's error (TACET_EEMPTY),
 * the endpoint's references as the delete left them. */
static void test_fault_endpoint_deleted_is_the_lookups_error(void **state)
{
	(void)state;
	process_new_preempted(DELETE_EP, TACET_EEMPTY);
}

/* The same_as process's capability deleted at the point: the lookup's error. */
static void test_same_as_deleted_is_the_lookups_error(void **state)
{
	(void)state;
	process_new_preempted(DELETE_SAME_AS, TACET_EEMPTY);
}

/* No page left for the cspace after the point: TACET_ENOMEM, the first stretch undone. */
static void test_no_page_for_the_second_stretch_is_enomem(void **state)
{
	(void)state;
	process_new_preempted(NO_PAGES, TACET_ENOMEM);
}

/* The errors no point is reached for: the decode's, and the first stretch's (the budget's
 * reservation, the charge, the root table's page). */
static void test_errors_before_the_point(void **state)
{
	static const struct {
		unsigned long a[5]; /* a2: 1 for the name, 0 unmapped */
		long ret;
		uint64_t spent;     /* charged to the caller's account first */
		bool no_page;       /* the machine has no page left */
	} cases[] = {
		{ { 0, 0, 1, 0, 0 }, -TACET_EBADSLOT, 0, false },
		{ { CSPACE_SLOTS, 0, 1, 0, 0 }, -TACET_EBADSLOT, 0, false },
		{ { SLOT_FILLER, 0, 1, 0, 0 }, -TACET_EEXIST, 0, false },
		{ { SLOT_NEW, CSPACE_SLOTS, 1, 0, 0 }, -TACET_EBADSLOT, 0, false },
		{ { SLOT_NEW, SLOT_NEW + 20, 1, 0, 0 }, -TACET_EEMPTY, 0, false },
		{ { SLOT_NEW, SLOT_FILLER, 1, 0, 0 }, -TACET_ETYPE, 0, false },
		{ { SLOT_NEW, SLOT_READ_EP, 1, 0, 0 }, -TACET_EPERM, 0, false },
		{ { SLOT_NEW, SLOT_EP, 0, 0, 0 }, -TACET_EFAULT, 0, false },
		{ { SLOT_NEW, 0, 1, BUDGET_MAX + 1, 0 }, -TACET_ERANGE, 0, false },
		{ { SLOT_NEW, 0, 1, 1, SLOT_SAME }, -TACET_EINVAL, 0, false },
		{ { SLOT_NEW, 0, 1, 0, SLOT_FILLER }, -TACET_ETYPE, 0, false },
		{ { SLOT_NEW, 0, 1, 0, SLOT_NEW + 20 }, -TACET_EEMPTY, 0, false },
		/* the budget not left in the caller's account; too small for the process */
		{ { SLOT_NEW, 0, 1, CALLER_LIMIT / PAGE_SIZE + 1, 0 }, -TACET_ENOMEM, 0, false },
		{ { SLOT_NEW, SLOT_EP, 1, 1, 0 }, -TACET_ENOMEM, 0, false },
		/* the object fits the caller's account, the two pages do not */
		{ { SLOT_NEW, 0, 1, 0, 0 }, -TACET_ENOMEM, CALLER_LIMIT - PAGE_SIZE, false },
		/* no page for the root table */
		{ { SLOT_NEW, 0, 1, 0, 0 }, -TACET_ENOMEM, 0, true },
		{ { SLOT_NEW, SLOT_EP, 1, 4, 0 }, -TACET_ENOMEM, 0, true },
		{ { SLOT_NEW, 0, 1, 0, SLOT_SAME }, -TACET_ENOMEM, 0, true },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long ret;

		scene_setup(CALLERS, false, NOTHING);
		for (int j = 0; j < 5; j++)
			arch_ctx_set_ret(&sc.thread.ctx, j, cases[i].a[j]);
		if (cases[i].a[2])
			arch_ctx_set_ret(&sc.thread.ctx, 2, (uintptr_t)user_name);
		sc.spent = cases[i].spent;
		if (sc.spent)
			assert_int_equal(account_charge(sc.acct, sc.spent), 0);
		if (cases[i].no_page)
			fake_pages_set_limit(fake_pages_in_use());
		ret = call();
		if (ret != cases[i].ret || sc.points)
			fail_msg("case %zu: returned %ld, not %ld, after %zu points", i, ret,
				 cases[i].ret, sc.points);
		scene_end();
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_nothing_at_the_point_installs, reset,
						check_nothing_left),
		cmocka_unit_test_setup_teardown(test_point_keeping_the_lock_installs, reset,
						check_nothing_left),
		cmocka_unit_test_setup_teardown(test_thread_ended_answers_nothing, reset,
						check_nothing_left),
		cmocka_unit_test_setup_teardown(test_thread_ended_with_a_budget_ends_its_account,
						reset, check_nothing_left),
		cmocka_unit_test_setup_teardown(test_process_ended_answers_nothing, reset,
						check_nothing_left),
		cmocka_unit_test_setup_teardown(test_slot_filled_is_eexist, reset,
						check_nothing_left),
		cmocka_unit_test_setup_teardown(test_slot_filled_and_emptied_installs, reset,
						check_nothing_left),
		cmocka_unit_test_setup_teardown(test_fault_endpoint_deleted_is_the_lookups_error,
						reset, check_nothing_left),
		cmocka_unit_test_setup_teardown(test_same_as_deleted_is_the_lookups_error, reset,
						check_nothing_left),
		cmocka_unit_test_setup_teardown(test_no_page_for_the_second_stretch_is_enomem,
						reset, check_nothing_left),
		cmocka_unit_test_setup_teardown(test_errors_before_the_point, reset,
						check_nothing_left),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
