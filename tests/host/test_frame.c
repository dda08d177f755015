/* test_frame.c: host unit tests of kernel/object/frame.c: a frame derived from a derived frame names
 * the root frame's pages at the right offset and holds a reference to the root, never to the
 * frame it came from, however long the derivation goes on (a chain would be freed by following
 * it); destroying derived frames gives the root its references back, and the root's end its
 * page and charge. And FRAME_NEW preempted (sys_frame_new, with a thread, process, cspace and
 * account of the test's): stopped at each of its preemption points in turn, where another
 * "hart" ends the caller, ends its process (its cspace freed), fills its slot, fills and
 * empties it, spends its budget or fills another slot, the call ends as without preemption or
 * with its defined error, and nothing leaks. Over the fakes of tests/host/fake_kernel.c
 * (kobj_put records the objects whose last reference went; the test destroys them) and
 * fake_pages.c (a run comes dirty, as the kernel's: FAKE_PAGES_DIRTY bytes). */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "object/account.h"
#include "object/cap.h"
#include "core/syscall.h"
#include "fake_kernel.h"
#include "object/frame.h"
#include "object/process.h"
#include "object/thread.h"
#include "mm/kalloc.h"
#include "mm/page_alloc.h"

#define DEPTH 1000 /* fake_kernel.c records up to FAKE_DESTROYED_MAX (1024) ends */

static struct frame *chain[DEPTH];
static size_t reaped; /* objects the fake kobj_put recorded that the test destroyed */

static int reset(void **state)
{
	(void)state;
	fake_kernel_reset();
	reaped = 0;
	return 0;
}

static int check_nothing_left(void **state)
{
	(void)state;
	assert_int_equal(kalloc_live(), 0);
	assert_int_equal(fake_pages_in_use(), 0);
	return 0;
}

/* A capability's reference to a new derived frame, as FRAME_DERIVE installs one. */
static struct frame *derive(struct account *a, struct frame *f, uint64_t first, uint64_t pages)
{
	struct frame *d = frame_derive(a, f, first, pages);

	assert_non_null(d);
	d->obj.refs = 1;
	return d;
}

/* Drop the capability's reference to f; destroy, in a loop as the reaper does, every frame
 * whose last reference went. */
static void drop(struct frame *f)
{
	kobj_put(&f->obj);
	while (reaped < fake_destroyed_count())
		frame_free((struct frame *)fake_destroyed(reaped++));
}

/* Device memory, 16 pages: each frame derived from the one before, one page further in and one
 * page shorter while it can, then the same page. Each is part of the root, at the offset the
 * derivations add up to, and only the root gains a reference each time. */
static void test_derived_from_derived_names_the_root(void **state)
{
	struct frame *root = frame_wrap(NULL, 0x40000000, 16, 1), *prev;
	uint64_t offset = 0;

	(void)state;
	assert_non_null(root);
	root->obj.refs = 1;
	prev = root;
	for (int i = 0; i < DEPTH; i++) {
		uint64_t first = prev->pages > 1 ? 1 : 0;

		chain[i] = derive(NULL, prev, first, prev->pages - first);
		offset += first;
		assert_ptr_equal(chain[i]->parent, root);
		assert_int_equal(chain[i]->pa, 0x40000000 + offset * PAGE_SIZE);
		assert_int_equal(chain[i]->pages, 16 - offset);
		assert_true(chain[i]->device);
		if (prev != root) /* nobody holds the one it came from */
			assert_int_equal(prev->obj.refs, 1);
		prev = chain[i];
	}
	assert_int_equal(root->obj.refs, 1 + DEPTH);
	/* each goes alone, in any order: the last first, then the first, ... */
	drop(chain[DEPTH - 1]);
	assert_int_equal(fake_destroyed_count(), 1);
	for (int i = 0; i < DEPTH - 1; i++)
		drop(chain[i]);
	assert_int_equal(fake_destroyed_count(), DEPTH);
	assert_int_equal(root->obj.refs, 1);
	drop(root);
	assert_int_equal(fake_destroyed_count(), DEPTH + 1);
}

/* RAM: the root's capability goes first; its page lives while a frame derived from a derived
 * frame names it, and goes, with every charge, with the last of them. */
static void test_ram_root_outlives_its_capability(void **state)
{
	struct account *a = account_new(NULL, 1 << 20);
	struct frame *root, *d1, *d2;

	(void)state;
	assert_non_null(a);
	root = frame_alloc(a, 1, true);
	assert_non_null(root);
	root->obj.refs = 1;
	d1 = derive(a, root, 0, 1);
	d2 = derive(a, d1, 0, 1);
	assert_ptr_equal(d2->parent, root);
	assert_int_equal(d2->pa, root->pa);
	drop(d1); /* d2 does not need it */
	drop(root);
	assert_int_equal(fake_destroyed_count(), 1);
	assert_int_equal(fake_pages_in_use(), 1);
	drop(d2);
	assert_int_equal(fake_destroyed_count(), 3);
	assert_int_equal(fake_pages_in_use(), 0);
	assert_int_equal(a->used, 0);
	account_put(a);
}

/* --- FRAME_NEW, preempted --------------------------------------------------------------------- */

#define SLOT_NEW   5 /* where the call is to put its frame */
#define SLOT_OTHER 6
#define BUDGET     (300 * PAGE_SIZE)

/* What another hart does in the window of one preemption point (the BKL let go). */
enum hostile {
	NOTHING,
	END_THREAD,    /* the caller ends (another hart's thread_reap): TACET_THREAD_DEAD */
	END_PROCESS,   /* and its process with it: its cspace freed (release_begin) */
	FILL_SLOT,     /* another thread of the process fills the call's slot */
	FILL_AND_EMPTY,/* fills it and empties it again, both in the window */
	SPEND_BUDGET,  /* another thread charges the account up to its limit */
	FILL_OTHER,    /* another slot filled: nothing to do with the call */
	URGENT,        /* a more urgent thread of the caller's hart ready: the call waits for it */
	HOSTILE_KINDS
};

static const char *const hostile_names[] = {
	"nothing", "end the thread", "end the process", "fill the slot", "fill and empty the slot",
	"spend the budget", "fill another slot", "a more urgent thread",
};

/* The caller and what it has: the test's own, set up as the kernel has them. */
static struct {
	struct account *acct;
	struct process proc;
	struct thread thread;
	struct frame *filler; /* a device frame another hart puts in a slot */
	enum hostile what;
	size_t at;            /* the point where it happens */
	size_t points;        /* points the call reached */
	size_t pages;         /* what the call asks for */
	uint64_t used_before; /* the account before the call */
	size_t pages_before, objects_before;
	uint64_t spent;       /* what SPEND_BUDGET charged */
	bool urgent;          /* URGENT: a more urgent thread is ready (preempt_urgent) */
	size_t held_back;     /* syscall_hold_back's calls */
	bool release;         /* the call is DEVICE_RELEASE: its points count, and at the one at
			       * `at` another hart runs meanwhile() */
	void (*meanwhile)(void);
} sc;

/* core/preempt.h's and syscall.h's, here the test's: the urgent thread, and the hold-back (the
 * kernel's also makes the thread's next call TACET_SYS_RESUME: frame_new_go_on here). */
bool preempt_urgent(const struct thread *t)
{
	assert_ptr_equal(t, &sc.thread);
	return sc.urgent;
}

void syscall_hold_back(struct thread *t)
{
	assert_ptr_equal(t, &sc.thread);
	sc.held_back++;
}

static const uint8_t zero_page[PAGE_SIZE];

static size_t frame_charge(size_t pages)
{
	return pages * PAGE_SIZE + kalloc_size(sizeof(struct frame));
}

/* The call's preemption point (core/preempt.h's, here the test's): what every point must show, then,
 * at the chosen one, what the other hart does meanwhile. */
static void point(void)
{
	struct cspace *cs = sc.proc.cspace;

	if (sc.release) {
		if (sc.points++ == sc.at && sc.meanwhile)
			sc.meanwhile();
		return;
	}

	/* charged whole, pages out, before any page is zeroed; never over the limit */
	assert_true(sc.acct->used <= sc.acct->limit);
	assert_int_equal(sc.acct->used, sc.used_before + frame_charge(sc.pages) + sc.spent);
	assert_int_equal(fake_pages_in_use(), sc.pages_before + sc.pages);
	/* and nobody can reach the frame: the call's slot is empty or holds the filler */
	if (cs)
		assert_true(!cs->slots[SLOT_NEW].obj || cs->slots[SLOT_NEW].obj == &sc.filler->obj);
	if (sc.points++ != sc.at)
		return;
	switch (sc.what) {
	case NOTHING:
		break;
	case END_PROCESS:
		cspace_free(cs); /* as release_begin, once the last thread ended */
		sc.proc.cspace = NULL;
		__attribute__((fallthrough)); /* the thread ended first */
	case END_THREAD:
		sc.thread.state = TACET_THREAD_DEAD;
		break;
	case FILL_SLOT:
		cap_install(&cs->slots[SLOT_NEW], &sc.filler->obj, TACET_RIGHTS_ALL, 0);
		break;
	case FILL_AND_EMPTY:
		cap_install(&cs->slots[SLOT_NEW], &sc.filler->obj, TACET_RIGHTS_ALL, 0);
		cap_clear(&cs->slots[SLOT_NEW]);
		break;
	case SPEND_BUDGET:
		sc.spent = sc.acct->limit - sc.acct->used;
		assert_int_equal(account_charge(sc.acct, sc.spent), 0);
		break;
	case FILL_OTHER:
		cap_install(&cs->slots[SLOT_OTHER], &sc.filler->obj, TACET_RIGHTS_ALL, 0);
		break;
	case URGENT:
		sc.urgent = true;
		break;
	default:
		fail();
	}
}

/* Every point lets the lock go: the caller looks again at each. */
bool preempt_point(void)
{
	point();
	return true;
}

static void scene_setup(size_t pages, enum hostile what, size_t at)
{
	memset(&sc, 0, sizeof(sc));
	sc.objects_before = kalloc_live();
	sc.acct = account_new(NULL, BUDGET);
	assert_non_null(sc.acct);
	sc.proc.acct = sc.acct;
	sc.proc.cspace = cspace_new();
	assert_non_null(sc.proc.cspace);
	sc.thread.proc = &sc.proc;
	sc.thread.state = TACET_THREAD_RUNNING;
	sc.filler = frame_wrap(NULL, 0x40000000, 1, 1);
	assert_non_null(sc.filler);
	sc.filler->obj.refs = 1; /* the test's own */
	sc.pages = pages;
	sc.what = what;
	sc.at = at;
	sc.used_before = sc.acct->used;
	sc.pages_before = fake_pages_in_use(); /* the cspace's page among them */
	arch_ctx_set_ret(&sc.thread.ctx, 0, SLOT_NEW);
	arch_ctx_set_ret(&sc.thread.ctx, 1, pages);
}

/* What the call left, against what it must have: its frame, whole and zeroed, in the slot
 * (unpreempted, or the window changed nothing it needs), or nothing of it anywhere. */
static void scene_check(void)
{
	struct cspace *cs = sc.proc.cspace;
	long ret = (long)arch_ctx_arg(&sc.thread.ctx, 0);
	bool done = sc.what == NOTHING || sc.what == FILL_AND_EMPTY || sc.what == SPEND_BUDGET ||
		    sc.what == FILL_OTHER || sc.what == URGENT;
	const char *what = hostile_names[sc.what];

	if (done) {
		const struct frame *f = cs ? (const struct frame *)cs->slots[SLOT_NEW].obj : NULL;
		const uint8_t *bytes;

		if (ret != 0 || !f || f == sc.filler)
			fail_msg("%s at point %zu: returned %ld, slot %p", what, sc.at, ret,
				 (const void *)f);
		/* a point between every two pages (and one more, the first look on going on, for
		 * a call that waited) */
		assert_int_equal(sc.points, sc.pages - 1 + (sc.what == URGENT));
		assert_int_equal(f->obj.refs, 1);
		assert_int_equal(f->pages, sc.pages);
		assert_null(f->parent);
		assert_false(f->device);
		bytes = (const uint8_t *)(uintptr_t)f->pa;
		for (size_t i = 0; i < sc.pages; i++)
			if (memcmp(bytes + i * PAGE_SIZE, zero_page, PAGE_SIZE))
				fail_msg("%s at point %zu: page %zu is not zeroed", what, sc.at, i);
		assert_int_equal(sc.acct->used, sc.used_before + frame_charge(sc.pages) + sc.spent);
		assert_int_equal(fake_pages_in_use(), sc.pages_before + sc.pages);
		cap_clear(&cs->slots[SLOT_NEW]); /* the caller deletes it: the frame goes */
		assert_int_equal(fake_destroyed_count(), 1);
		frame_free((struct frame *)fake_destroyed(0));
	} else {
		/* stopped at once, everything back */
		if (sc.points != sc.at + 1)
			fail_msg("%s at point %zu: went on to point %zu", what, sc.at, sc.points - 1);
		if (sc.what == FILL_SLOT) {
			assert_int_equal(ret, -TACET_EEXIST);
			assert_ptr_equal(cs->slots[SLOT_NEW].obj, &sc.filler->obj);
		} else {
			assert_int_equal(ret, SLOT_NEW); /* a dead thread is answered nothing */
			assert_true(!cs || !cs->slots[SLOT_NEW].obj);
		}
		assert_int_equal(fake_destroyed_count(), 0);
	}
	assert_int_equal(sc.acct->used, sc.used_before + sc.spent);
	assert_int_equal(fake_pages_in_use(), sc.pages_before - (cs ? 0 : 1));
	assert_int_equal(sc.proc.calls, 0); /* the call is over: the process's end need not wait */
	/* what the other hart did goes, then the scene */
	if (sc.spent)
		account_refund(sc.acct, sc.spent);
	if (cs)
		cspace_free(cs);
	assert_int_equal(sc.filler->obj.refs, 1);
	frame_free(sc.filler);
	assert_int_equal(sc.acct->refs, 1);
	account_put(sc.acct);
	assert_int_equal(kalloc_live(), sc.objects_before);
	fake_kernel_reset();
}

/* A call that waited for the urgent thread: held back at the point after page at + 1, its
 * frame in its thread (whole, charged, pages out, nobody's), nothing answered; then it goes on
 * (TACET_SYS_RESUME) with no urgent thread left. */
static void held_then_resumed(void)
{
	struct frame *f = sc.thread.held_frame;

	assert_int_equal(sc.held_back, 1);
	if (!f || sc.thread.held_done != sc.at + 1)
		fail_msg("held at point %zu: frame %p, %lu pages zeroed", sc.at, (void *)f,
			 sc.thread.held_done);
	assert_int_equal(f->pages, sc.pages);
	assert_int_equal(f->obj.refs, 0);
	assert_null(sc.proc.cspace->slots[SLOT_NEW].obj);
	assert_int_equal((long)arch_ctx_arg(&sc.thread.ctx, 0), SLOT_NEW); /* nothing answered */
	assert_int_equal(sc.acct->used, sc.used_before + frame_charge(sc.pages));
	assert_int_equal(fake_pages_in_use(), sc.pages_before + sc.pages);
	assert_int_equal(sc.proc.calls, 1); /* held: still under way */
	sc.urgent = false; /* it ran; the caller runs again */
	frame_new_go_on(&sc.thread);
	assert_null(sc.thread.held_frame);
	assert_int_equal(sc.held_back, 1);
}

static void frame_new_preempted(size_t pages, enum hostile what, size_t at)
{
	scene_setup(pages, what, at);
	sys_frame_new(&sc.thread);
	if (what == URGENT)
		held_then_resumed();
	scene_check();
}

/* Not preempted (or preempted with nothing happening): the frame, zeroed, with a point between
 * every two pages and none for one page. */
static void test_frame_new_unpreempted(void **state)
{
	(void)state;
	frame_new_preempted(1, NOTHING, SIZE_MAX);
	frame_new_preempted(2, NOTHING, SIZE_MAX);
	frame_new_preempted(FRAME_MAX_PAGES, NOTHING, SIZE_MAX);
}

/* Each hostile act at each of the 255 points of a 256-page FRAME_NEW, and at the one point of
 * a 2-page one. */
static void test_frame_new_every_point(void **state)
{
	(void)state;
	for (int what = END_THREAD; what < HOSTILE_KINDS; what++) {
		frame_new_preempted(2, (enum hostile)what, 0);
		for (size_t at = 0; at < FRAME_MAX_PAGES - 1; at++)
			frame_new_preempted(FRAME_MAX_PAGES, (enum hostile)what, at);
	}
}

/* The errors no point is reached for: the slot (bad, full), the size, the budget (the whole
 * charge up front, so a frame that does not fit fails before a page is zeroed). */
static void test_frame_new_errors(void **state)
{
	static const struct {
		unsigned long slot, pages;
		long ret;
	} cases[] = {
		{ 0, 1, -TACET_EBADSLOT },
		{ CSPACE_SLOTS, 1, -TACET_EBADSLOT },
		{ SLOT_OTHER, 1, -TACET_EEXIST },
		{ SLOT_NEW, 0, -TACET_ERANGE },
		{ SLOT_NEW, FRAME_MAX_PAGES + 1, -TACET_ERANGE },
		{ SLOT_NEW, ~0ul, -TACET_ERANGE },
		{ SLOT_NEW, FRAME_MAX_PAGES, -TACET_ENOMEM }, /* with only 100 pages left */
	};
	const uint64_t spent = BUDGET - 100 * PAGE_SIZE;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		scene_setup(0, NOTHING, SIZE_MAX);
		cap_install(&sc.proc.cspace->slots[SLOT_OTHER], &sc.filler->obj, TACET_RIGHTS_ALL, 0);
		if (cases[i].ret == -TACET_ENOMEM)
			assert_int_equal(account_charge(sc.acct, spent), 0);
		arch_ctx_set_ret(&sc.thread.ctx, 0, cases[i].slot);
		arch_ctx_set_ret(&sc.thread.ctx, 1, cases[i].pages);
		sys_frame_new(&sc.thread);
		assert_int_equal(sc.points, 0);
		assert_int_equal((long)arch_ctx_arg(&sc.thread.ctx, 0), cases[i].ret);
		assert_null(sc.proc.cspace->slots[SLOT_NEW].obj);
		assert_int_equal(fake_pages_in_use(), sc.pages_before);
		if (cases[i].ret == -TACET_ENOMEM) {
			assert_int_equal(sc.acct->used, spent);
			account_refund(sc.acct, spent);
		}
		assert_int_equal(sc.acct->used, 0);
		cspace_free(sc.proc.cspace);
		assert_int_equal(fake_destroyed_count(), 0);
		frame_free(sc.filler);
		account_put(sc.acct);
		assert_int_equal(kalloc_live(), sc.objects_before);
	}
}

/* --- the DMA quarantine ------------------------------------------------------------------- */

/* Slots of the quarantine tests' caller. */
#define Q_DEV  10 /* a device frame: READ, WRITE and, if asked, RELEASE */
#define Q_RAM  11 /* a 4-page RAM frame */
#define Q_DEV2 12 /* another device */
/* ... and the parts test's: a PCI bus's window, a root frame for every function, and parts */
#define Q_WIN      13 /* the window: READ, WRITE, RELEASE (the bus server's) */
#define Q_A        14 /* function A's part, derived from it (RELEASE kept) */
#define Q_B        15 /* function B's part */
#define Q_A_DRIVER 16 /* A's part as its driver holds it: no RELEASE */
#define Q_A_PAGE   17 /* a page derived from the driver's part */
#define Q_RAM2     18 /* a 2-page RAM frame, B's driver's DMA */
#define Q_LAST     Q_RAM2

static long call4(void (*sys)(struct thread *), unsigned long a0, unsigned long a1,
		  unsigned long a2, unsigned long a3)
{
	arch_ctx_set_ret(&sc.thread.ctx, 0, a0);
	arch_ctx_set_ret(&sc.thread.ctx, 1, a1);
	arch_ctx_set_ret(&sc.thread.ctx, 2, a2);
	arch_ctx_set_ret(&sc.thread.ctx, 3, a3);
	sys(&sc.thread);
	return (long)arch_ctx_arg(&sc.thread.ctx, 0);
}

static long call(void (*sys)(struct thread *), unsigned long a0, unsigned long a1)
{
	return call4(sys, a0, a1, 0, 0);
}

/* Destroy, as the reaper does, every object whose last reference went. */
static void reap(void)
{
	while (reaped < fake_destroyed_count())
		frame_free((struct frame *)fake_destroyed(reaped++));
}

static struct frame *q_setup(uint32_t dev_rights)
{
	struct frame *dev, *dev2, *ram;

	memset(&sc, 0, sizeof(sc));
	sc.objects_before = kalloc_live();
	dev = frame_wrap(NULL, 0x10001000, 1, 1);
	dev2 = frame_wrap(NULL, 0x10002000, 1, 1);
	sc.acct = account_new(NULL, BUDGET);
	sc.proc.acct = sc.acct;
	sc.proc.cspace = cspace_new();
	sc.thread.proc = &sc.proc;
	sc.thread.state = TACET_THREAD_RUNNING;
	ram = frame_alloc(sc.acct, 4, true);
	assert_non_null(ram);
	cap_install(&sc.proc.cspace->slots[Q_DEV], &dev->obj, dev_rights, 0);
	cap_install(&sc.proc.cspace->slots[Q_DEV2], &dev2->obj, dev_rights, 0);
	cap_install(&sc.proc.cspace->slots[Q_RAM], &ram->obj, TACET_RIGHTS_ALL, 0);
	return dev;
}

static void q_teardown(void)
{
	for (unsigned int i = Q_DEV; i <= Q_LAST; i++)
		cap_clear(&sc.proc.cspace->slots[i]);
	reap();
	cspace_free(sc.proc.cspace);
	account_put(sc.acct);
	assert_int_equal(kalloc_live(), sc.objects_before);
	fake_kernel_reset();
	reaped = 0;
}

/* A pinned frame that ends keeps its pages, charged, in its device's quarantine until the
 * device's holder releases it; the address is given with the pin, never by CAP_INFO. */
static void test_pinned_frame_ends_in_quarantine(void **state)
{
	struct frame *dev = q_setup(TACET_RIGHT_READ | TACET_RIGHT_WRITE | TACET_RIGHT_RELEASE);
	struct frame *ram = (struct frame *)sc.proc.cspace->slots[Q_RAM].obj;
	uint64_t pa = ram->pa, used;

	(void)state;
	assert_int_equal(call(sys_cap_info, Q_RAM, 0), TACET_CAP_FRAME);
	assert_int_equal(arch_ctx_arg(&sc.thread.ctx, 3), 0); /* no address without a pin */
	assert_int_equal(call(sys_frame_pin, Q_RAM, Q_DEV), 0);
	assert_int_equal(arch_ctx_arg(&sc.thread.ctx, 1), pa);
	assert_int_equal(arch_ctx_arg(&sc.thread.ctx, 2), 4);
	assert_int_equal(call(sys_frame_pin, Q_RAM, Q_DEV), 0);       /* again: the same pin */
	assert_int_equal(call(sys_frame_pin, Q_RAM, Q_DEV2), -TACET_EBUSY); /* another device */
	assert_int_equal(call(sys_frame_pin, Q_RAM, Q_RAM), -TACET_EINVAL); /* nor its own frame */
	assert_int_equal(call(sys_frame_pin, Q_DEV, Q_RAM), -TACET_EINVAL); /* RAM is no device */
	used = sc.acct->used;
	cap_clear(&sc.proc.cspace->slots[Q_RAM]); /* its process ends, say */
	while (reaped < fake_destroyed_count())
		frame_free((struct frame *)fake_destroyed(reaped++));
	assert_int_equal(fake_pages_in_use(), 1 + 4); /* the cspace's page and the frame's */
	assert_int_equal(sc.acct->used, used);        /* still charged */
	assert_int_equal(dev->quarantined_pages, 4);
	assert_int_equal(call(sys_device_release, Q_DEV, 0), 4);
	assert_int_equal(fake_pages_in_use(), 1);
	assert_int_equal(sc.acct->used, 0);
	assert_int_equal(dev->quarantined_pages, 0);
	assert_int_equal(dev->obj.refs, 1); /* the pin's reference went with the release */
	assert_int_equal(call(sys_device_release, Q_DEV, 0), 0); /* nothing left */
	q_teardown();
}

/* Unpinned (the driver says the device is done), a frame ends as any other; a release needs
 * TACET_RIGHT_RELEASE, which a driver's device capability lacks. */
static void test_unpinned_frame_goes_and_release_needs_the_right(void **state)
{
	struct frame *dev = q_setup(TACET_RIGHT_READ | TACET_RIGHT_WRITE);

	(void)state;
	assert_int_equal(call(sys_frame_pin, Q_RAM, Q_DEV), 0);
	/* only the device it is pinned to unpins it: not another, not the frame itself */
	assert_int_equal(call(sys_frame_unpin, Q_RAM, Q_DEV2), -TACET_EPERM);
	assert_int_equal(call(sys_frame_unpin, Q_RAM, Q_RAM), -TACET_EPERM);
	assert_int_equal(call(sys_frame_unpin, Q_RAM, 0), -TACET_EBADSLOT);
	assert_int_equal(call(sys_frame_unpin, Q_RAM, Q_DEV), 0);
	assert_int_equal(dev->obj.refs, 1);
	cap_clear(&sc.proc.cspace->slots[Q_RAM]);
	while (reaped < fake_destroyed_count())
		frame_free((struct frame *)fake_destroyed(reaped++));
	assert_int_equal(fake_pages_in_use(), 1);
	assert_int_equal(dev->quarantined_pages, 0);
	assert_int_equal(call(sys_device_release, Q_DEV, 0), -TACET_EPERM);
	q_teardown();
}

/* A frame pinned by a driver that outlives the driver's device's release (the driver handed
 * it to another server, which deletes it later): the release unpins it (the quiet device holds
 * no address of it; another device's release leaves it pinned), and its end gives its pages
 * and charge back, never to a quarantine nobody will release again. Pinned again, it is
 * quarantined again. */
static void test_frame_ending_after_release_goes_back(void **state)
{
	struct frame *dev = q_setup(TACET_RIGHT_READ | TACET_RIGHT_WRITE | TACET_RIGHT_RELEASE);
	struct frame *ram = (struct frame *)sc.proc.cspace->slots[Q_RAM].obj;

	(void)state;
	assert_int_equal(call(sys_frame_pin, Q_RAM, Q_DEV), 0);
	assert_int_equal(call(sys_device_release, Q_DEV2, 0), 0);
	assert_ptr_equal(ram->pinned_to, dev); /* another device's release: still pinned */
	assert_int_equal(call(sys_device_release, Q_DEV, 0), 0); /* nothing had ended */
	assert_null(ram->pinned_to);
	assert_int_equal(dev->obj.refs, 1); /* the pin's reference went */
	assert_int_equal(call(sys_frame_pin, Q_RAM, Q_DEV2), 0); /* a new driver's pin */
	assert_int_equal(call(sys_device_release, Q_DEV2, 0), 0);
	cap_clear(&sc.proc.cspace->slots[Q_RAM]); /* the other server deletes it */
	reap();
	assert_int_equal(fake_pages_in_use(), 1); /* the cspace's page only */
	assert_int_equal(dev->quarantined_pages, 0);
	assert_int_equal(sc.acct->used, 0);
	q_teardown();
}

/* A PCI bus's window: one 4-page root frame for every function, function A's part its pages
 * 0-1, B's 2-3, each derived by the bus server (which holds the window with RELEASE). A's
 * driver pins the 4-page RAM frame to its copy of A's part (no RELEASE), B's driver the 2-page
 * one to B's part; both drivers end, their frames in the window's quarantine (6 pages). A
 * derived frame has its source's rights: nothing derived from the driver's copy releases. */
static struct frame *parts_scene(void)
{
	struct cap *slots;
	struct frame *win, *ram2;

	q_setup(TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	slots = sc.proc.cspace->slots;
	win = frame_wrap(NULL, 0x40000000, 4, 1);
	ram2 = frame_alloc(sc.acct, 2, true);
	assert_non_null(ram2);
	cap_install(&slots[Q_WIN], &win->obj,
		    TACET_RIGHT_READ | TACET_RIGHT_WRITE | TACET_RIGHT_RELEASE, 0);
	cap_install(&slots[Q_RAM2], &ram2->obj, TACET_RIGHTS_ALL, 0);
	assert_int_equal(call4(sys_frame_derive, Q_WIN, Q_A, 0, 2), 0);
	assert_int_equal(call4(sys_frame_derive, Q_WIN, Q_B, 2, 2), 0);
	assert_int_equal(call4(sys_cap_copy, Q_A, Q_A_DRIVER, TACET_RIGHTS_ALL, 0), 0);
	assert_int_equal(call4(sys_frame_derive, Q_A_DRIVER, Q_A_PAGE, 1, 1), 0);
	assert_int_equal(call(sys_device_release, Q_A_DRIVER, 0), -TACET_EPERM);
	assert_int_equal(call(sys_device_release, Q_A_PAGE, 0), -TACET_EPERM); /* not gained */

	assert_int_equal(call(sys_frame_pin, Q_RAM, Q_A_DRIVER), 0);
	assert_int_equal(arch_ctx_arg(&sc.thread.ctx, 1), ((struct frame *)slots[Q_RAM].obj)->pa);
	assert_int_equal(call(sys_frame_pin, Q_RAM, Q_A_PAGE), 0); /* within A: still A's pin */
	assert_int_equal(call(sys_frame_pin, Q_RAM, Q_B), -TACET_EBUSY);   /* another function */
	assert_int_equal(call(sys_frame_pin, Q_RAM, Q_WIN), -TACET_EBUSY); /* more than A */
	assert_int_equal(call(sys_frame_pin, Q_RAM2, Q_B), 0);
	for (unsigned int i = Q_A_DRIVER; i <= Q_A_PAGE; i++)
		cap_clear(&slots[i]); /* A's driver ends: its part stays, the pin's */
	cap_clear(&slots[Q_RAM]);
	cap_clear(&slots[Q_RAM2]);
	reap();
	assert_int_equal(fake_pages_in_use(), 1 + 4 + 2); /* the cspace's page, the frames' */
	assert_int_equal(win->quarantined_pages, 6);
	return win;
}

/* B's part released (B's function made quiet by the bus server): B's 2 pages back, A's 4 still
 * in quarantine however often B's part is released; then A's part, derived anew as the bus
 * server does at A's end, gives back A's, and the part A's driver pinned to goes with them. */
static void test_release_of_a_part_leaves_the_others(void **state)
{
	struct frame *win = parts_scene();
	size_t ended;

	(void)state;
	assert_int_equal(call(sys_device_release, Q_B, 0), 2);
	assert_int_equal(fake_pages_in_use(), 1 + 4);
	assert_int_equal(win->quarantined_pages, 4);
	assert_int_equal(call(sys_device_release, Q_B, 0), 0);
	assert_int_equal(fake_pages_in_use(), 1 + 4);
	cap_clear(&sc.proc.cspace->slots[Q_A]);
	reap();
	ended = fake_destroyed_count();
	assert_int_equal(call4(sys_frame_derive, Q_WIN, Q_A, 0, 2), 0);
	assert_int_equal(call(sys_device_release, Q_A, 0), 4);
	assert_int_equal(fake_pages_in_use(), 1);
	assert_int_equal(win->quarantined_pages, 0);
	assert_int_equal(fake_destroyed_count(), ended + 1); /* the part the pin kept */
	q_teardown();
}

/* The window's root released: every part's frames back. */
static void test_root_release_releases_every_part(void **state)
{
	struct frame *win = parts_scene();

	(void)state;
	assert_int_equal(call(sys_device_release, Q_WIN, 0), 6);
	assert_int_equal(fake_pages_in_use(), 1);
	assert_int_equal(win->quarantined_pages, 0);
	assert_int_equal(sc.acct->used, 2 * kalloc_size(sizeof(struct frame))); /* A, B: parts */
	q_teardown();
}

/* A release of many pins, in steps: DEVICE_RELEASE looks at RELEASE_PIN_STEP (32) pins between
 * two preemption points, where another hart may act: here it pins one more frame to the device
 * (after the walk's place: released too), ends one still ahead (quarantined: released, its
 * pages back), and ends one the walk has unpinned already (gone at once). Every pin within the
 * device is released, once; the frames of another device keep theirs; the count is the ended
 * ones' pages. */
#define MANY 100

static struct {
	struct frame *dev, *dev2, *living[MANY], *late, *other;
} many;

static void release_meanwhile(void)
{
	many.late = frame_alloc(sc.acct, 1, true);
	assert_non_null(many.late);
	frame_pin(many.late, many.dev);
	frame_free(many.living[MANY - 1]); /* ahead of the walk: ends pinned, quarantined */
	many.living[MANY - 1] = NULL;
	assert_null(many.living[0]->pinned_to); /* passed: unpinned already */
	frame_free(many.living[0]);
	many.living[0] = NULL;
}

static void test_release_in_steps(void **state)
{
	uint64_t used;

	(void)state;
	many.dev = q_setup(TACET_RIGHT_READ | TACET_RIGHT_WRITE | TACET_RIGHT_RELEASE);
	many.dev2 = (struct frame *)sc.proc.cspace->slots[Q_DEV2].obj;
	for (int i = 0; i < MANY; i++) {
		many.living[i] = frame_alloc(sc.acct, 1, true);
		assert_non_null(many.living[i]);
		frame_pin(many.living[i], many.dev);
	}
	for (int i = 0; i < 10; i++) { /* ten ended before the release: quarantined */
		struct frame *f = frame_alloc(sc.acct, 2, true);

		assert_non_null(f);
		frame_pin(f, many.dev);
		frame_free(f);
	}
	many.other = frame_alloc(sc.acct, 1, true);
	frame_pin(many.other, many.dev2);
	assert_int_equal(many.dev->quarantined_pages, 20);
	sc.release = true;
	sc.at = 1;
	sc.meanwhile = release_meanwhile;
	assert_int_equal(call(sys_device_release, Q_DEV, 0), 20 + 1);
	assert_int_equal(sc.points, (MANY + 10 + 1) / 32); /* a point every 32 pins looked at */
	assert_int_equal(many.dev->quarantined_pages, 0);
	assert_int_equal(many.dev->obj.refs, 1); /* every pin's reference went, and the walk's */
	assert_true(list_empty(&many.dev->pins));
	assert_null(many.late->pinned_to); /* pinned meanwhile, behind the walk: released */
	for (int i = 1; i < MANY - 1; i++)
		assert_null(many.living[i]->pinned_to);
	assert_ptr_equal(many.other->pinned_to, many.dev2); /* another device's: still pinned */
	assert_int_equal(call(sys_device_release, Q_DEV2, 0), 0);
	for (int i = 1; i < MANY - 1; i++)
		frame_free(many.living[i]);
	frame_free(many.late);
	frame_free(many.other);
	used = sc.acct->used;
	assert_int_equal(used, 4 * PAGE_SIZE + kalloc_size(sizeof(struct frame))); /* Q_RAM's */
	q_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_derived_from_derived_names_the_root, reset,
						check_nothing_left),
		cmocka_unit_test_setup_teardown(test_ram_root_outlives_its_capability, reset,
						check_nothing_left),
		cmocka_unit_test_setup_teardown(test_frame_new_unpreempted, reset, check_nothing_left),
		cmocka_unit_test_setup_teardown(test_frame_new_every_point, reset, check_nothing_left),
		cmocka_unit_test_setup_teardown(test_frame_new_errors, reset, check_nothing_left),
		cmocka_unit_test_setup_teardown(test_pinned_frame_ends_in_quarantine, reset,
						check_nothing_left),
		cmocka_unit_test_setup_teardown(test_unpinned_frame_goes_and_release_needs_the_right,
						reset, check_nothing_left),
		cmocka_unit_test_setup_teardown(test_frame_ending_after_release_goes_back, reset,
						check_nothing_left),
		cmocka_unit_test_setup_teardown(test_release_of_a_part_leaves_the_others, reset,
						check_nothing_left),
		cmocka_unit_test_setup_teardown(test_root_release_releases_every_part, reset,
						check_nothing_left),
		cmocka_unit_test_setup_teardown(test_release_in_steps, reset, check_nothing_left),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
