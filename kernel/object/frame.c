/* frame.c: frame objects and the calls on them (FRAME_NEW, FRAME_DERIVE, FRAME_PIN, FRAME_UNPIN,
 * DEVICE_RELEASE). A RAM frame owns one physically contiguous run of pages (page_alloc_frame),
 * charged like its object to the account that asked; a derived frame holds a reference to the
 * root frame whose pages it names (derivation is one level deep); a RAM frame pinned for DMA
 * holds one to the device frame it is pinned to (the DMA quarantine, below). BKL held. Called
 * from the system call table, kobj.c (an object's end), rootserver.c, thread.c and the faults
 * kernel's injector (what a device is given: frame_dma_visible, frame_pins_hold). */
#include "object/frame.h"
#include "core/preempt.h"
#include "core/syscall.h"
#include "object/account.h"
#include "object/cap.h"
#include "object/process.h"
#include "mm/kalloc.h"
#include "mm/mm.h"
#include "mm/page_alloc.h"

_Static_assert(FRAME_MAX_PAGES <= PAGE_POOL_RUN_MAX, "a frame is one run of the page pool");

struct frame *frame_wrap(struct account *acct, uint64_t pa, uint64_t pages, int device)
{
	struct frame *f = kobj_new(acct, sizeof(struct frame), TACET_CAP_FRAME);

	if (!f)
		return NULL;
	f->pa = pa;
	f->pages = pages;
	f->device = device;
	list_init(&f->pin_link);
	list_init(&f->pins);
	return f;
}

struct frame *frame_alloc(struct account *acct, uint64_t pages, bool dma)
{
	struct frame *f;
	uint64_t pa;

	if (pages == 0 || pages > FRAME_MAX_PAGES)
		return NULL;
	pa = account_pages_alloc(acct, pages, dma);
	if (!pa)
		return NULL;
	f = frame_wrap(acct, pa, pages, 0);
	if (f)
		f->dma = dma;
	else
		account_pages_free(acct, pa, pages);
	return f;
}

/* The root frame whose pages f names (f itself, or its parent). */
static struct frame *root_of(struct frame *f)
{
	return f->parent ? f->parent : f;
}

struct frame *frame_derive(struct account *acct, struct frame *f, uint64_t first, uint64_t pages)
{
	struct frame *root = root_of(f);
	struct frame *d = frame_wrap(acct, f->pa + first * PAGE_SIZE, pages, f->device);

	if (d) {
		kobj_get(&root->obj);
		d->parent = root;
	}
	return d;
}

/* The DMA quarantine. Without an IOMMU, a device writes wherever its driver pointed it; a
 * driver that ends leaves its device running. So a RAM frame's physical address is given out
 * only with a pin to the device that will use it (FRAME_PIN; CAP_INFO does not give it), and
 * a frame that ends pinned keeps its pages out of the pool, charged as they were: it stays on
 * its device's root frame's pins, ended (the quarantine), until whoever holds the device with
 * TACET_RIGHT_RELEASE (init, for the drivers it starts) has made the device quiet and
 * releases it (DEVICE_RELEASE). The release also unpins the frames pinned within it that have
 * not ended (a driver handed one to another server, which deletes it later): the quiet device
 * holds no address of theirs, so their end gives their pages back; a driver that uses one
 * again pins it again. A driver that knows its device is done with a frame unpins it
 * (FRAME_UNPIN) and it ends as any frame. The pin names the device frame as the driver holds
 * it, which may be part of a root (a PCI function's BAR in the bus's window, one root for
 * every function): DEVICE_RELEASE of a frame releases only the frames pinned within its
 * range (a root's: all), so the holder of one part quiets and releases that part alone. */

/* Whether device frame a lies within b: the same root, and a's pages inside b's. */
static int within(struct frame *a, struct frame *b)
{
	return root_of(a) == root_of(b) && a->pa >= b->pa &&
	       a->pa + a->pages * PAGE_SIZE <= b->pa + b->pages * PAGE_SIZE;
}

void frame_pin(struct frame *f, struct frame *dev)
{
	kobj_get(&dev->obj);
	f->pinned_to = dev;
	list_push_back(&root_of(dev)->pins, &f->pin_link);
}

void frame_unpin(struct frame *f)
{
	list_remove(&f->pin_link);
	kobj_put(&f->pinned_to->obj);
	f->pinned_to = NULL;
}

bool frame_dma_visible(const struct frame *f)
{
	const struct frame *root = f->parent ? f->parent : f;

	return root->pinned_to != NULL;
}

bool frame_pins_hold(const struct frame *dev, uint64_t pa, unsigned int *budget)
{
	const struct frame *root = dev->parent ? dev->parent : dev;

	for (const struct list_node *l = root->pins.next; l != &root->pins && *budget;
	     l = l->next, --*budget) {
		const struct frame *f = list_entry(l, struct frame, pin_link);

		if (f->obj.type == TACET_CAP_FRAME && pa - f->pa < f->pages * PAGE_SIZE)
			return true; /* (not a release walk's cursor) */
	}
	return false;
}

/* f ended pinned: into the quarantine, its object the record. */
static void quarantine(struct frame *f)
{
	f->ended = 1;
	root_of(f->pinned_to)->quarantined_pages += f->pages;
}

void frame_free(struct frame *f)
{
	if (f->parent) {
		kobj_put(&f->parent->obj); /* the pages are the parent's */
	} else if (f->pinned_to) {
		quarantine(f); /* the object stays, as the quarantine's record */
		return;
	} else if (!f->device) {
		account_pages_free(f->obj.acct, f->pa, f->pages);
	}
	kobj_free(&f->obj, sizeof(*f));
}

/* f, pinned within the device being released: unpinned, and if it had ended (the quarantine)
 * its pages, charge and object go back; their count. */
static uint64_t release_pin(struct frame *dev, struct frame *f)
{
	uint64_t pages = f->ended ? f->pages : 0;

	frame_unpin(f);
	if (f->ended) { /* the quarantine's record, unpinned: frame_free gives it all back now */
		dev->quarantined_pages -= f->pages;
		frame_free(f);
	}
	return pages;
}

/* The release walks every pin of the device's root, its other parts' too, as many as the
 * drivers' budgets let them make: a preemption point every RELEASE_PIN_STEP pins looked at.
 * Across one, the walk keeps its place with a cursor in the list (a frame object that is none:
 * its type is not a frame's, and every walk skips it), and a reference to d (the caller's
 * capability may go meanwhile; the root is d's or d's parent's). Meanwhile frames may be
 * pinned (at the end: released too), unpinned or ended (off the list, or still on it ended:
 * released the same): every pin within d when the walk passes it is released. */
#define RELEASE_PIN_STEP 32

uint64_t frame_device_release(struct frame *d)
{
	struct frame *dev = root_of(d), cursor = { 0 };
	struct list_node *l = dev->pins.next;
	uint64_t pages = 0;
	unsigned int looked = 0;

	kobj_get(&d->obj);
	while (l != &dev->pins) {
		struct frame *f = list_entry(l, struct frame, pin_link);

		if (++looked % RELEASE_PIN_STEP == 0) {
			list_push_back(l, &cursor.pin_link); /* just before l */
			preempt_point();
			l = cursor.pin_link.next;
			list_remove(&cursor.pin_link);
			continue;
		}
		l = l->next;
		if (f->obj.type == TACET_CAP_FRAME && within(f->pinned_to, d))
			pages += release_pin(dev, f); /* not another walk's cursor, nor another part's */
	}
	kobj_put(&d->obj);
	return pages;
}

/* --- system calls (syscall.h: decode, then invoke) --- */

/* After a preemption point: the slot FRAME_NEW of t is to fill, if the call can still
 * complete; else NULL and *err, 0 if t ended meanwhile (nobody to answer) or the slot's error
 * (TACET_EEXIST: filled meanwhile). */
static struct cap *frame_new_recheck(struct thread *t, unsigned long slot, long *err)
{
	if (t->state == TACET_THREAD_DEAD) {
		*err = 0;
		return NULL;
	}
	return cap_empty_slot(t->proc->cspace, slot, err); /* t alive: its process too */
}

/* FRAME_NEW zeroes its pages one at a time, with a preemption point between two
 * (preempt_point, core/preempt.h): a 256-page frame is 1 MiB to zero, about 180,000 instructions,
 * and no kernel entry may hold the BKL that long (core/bkl.h). Its caller sees one call. At a
 * point the lock may be let go and anything may happen meanwhile; what the call keeps across
 * one, and why it is still there after:
 *  - the frame: made whole before the first page is zeroed (its pages and its object charged
 *    to the caller's account then, so the budget is never passed, whatever else the account
 *    takes or gives back meanwhile), and known to no one but the call (no capability, no
 *    reference; its pages are out of the pool) until it is installed, wholly zeroed: nobody
 *    can see, map or free it half-way;
 *  - the account: the frame object holds a reference to it (kobj_new), so it outlives the call
 *    whatever becomes of the process;
 *  - the calling thread t: this hart's current thread, whose alive reference only this hart's
 *    scheduler drops, once t is off the hart (thread_reap, sched.c): so t stays allocated, and
 *    t->proc with it (t's reference), though another hart may end t (TACET_THREAD_DEAD) and,
 *    with its last thread, its process, whose cspace then goes (release_begin).
 * Nothing else: no slot or cspace pointer is kept across a point. After each one the call
 * looks again: t dead (as entry.c's TACET_THREAD_DEAD checks) ends it with nothing answered;
 * t alive means its process has a live thread, so it has not ended and its cspace is there,
 * where the slot is looked up anew: filled meanwhile, the call fails as its decode would have
 * (TACET_EEXIST). Either way the frame is destroyed there, pages and charge given back:
 * nothing leaks, nobody saw it. The point does not run the reaper's queue (sched_reap_point
 * would take a dead caller off its hart and drop its last reference under the call): a
 * teardown another hart left half-way is finished when the call returns (syscall_dispatch).
 * Where a thread more urgent than the caller is ready on this hart after a point, the call
 * waits for it (syscall_hold_back): the frame and the pages zeroed so far are kept in the
 * thread (held_frame, held_done; still known to no one, ended with the thread by
 * thread_reap), and TACET_SYS_RESUME goes on with them (frame_new_go_on), looking again first
 * as after any point. */

/* FRAME_NEW's zeroing of f from page i on, then its capability in dst (t's a0 slot, looked up
 * again after every point: NULL until then when i > 0), with a point between two pages, after
 * which the call looks again (above) and, if a thread more urgent than t is
 * ready on this hart, waits for it (syscall_hold_back: f and i kept in t, f ended with t if t
 * ends meanwhile, thread_reap; frame_new_go_on goes on). */
static void frame_zero_from(struct thread *t, struct frame *f, unsigned long i, struct cap *dst)
{
	long err;

	for (; i < f->pages; i++) {
		if (i) {
			preempt_point();
			dst = frame_new_recheck(t, syscall_arg(t, 0), &err);
			if (!dst) {
				frame_free(f); /* nobody saw it: no reference to drop */
				t->proc->calls--;
				if (err)
					syscall_ret(t, -err);
				return;
			}
			if (preempt_urgent(t)) {
				t->held_frame = f;
				t->held_done = i;
				syscall_hold_back(t);
				return;
			}
		}
		page_zero(f->pa + i * PAGE_SIZE);
	}
	cap_install(dst, &f->obj, TACET_RIGHTS_ALL, 0);
	t->proc->calls--;
	syscall_ret(t, 0);
}

/* (slot, pages): a new RAM frame of pages contiguous zeroed pages, charged to the caller. */
void sys_frame_new(struct thread *t)
{
	unsigned long slot = syscall_arg(t, 0), pages = syscall_arg(t, 1), flags = syscall_arg(t, 2);
	long err;
	struct cap *dst = cap_empty_slot(t->proc->cspace, slot, &err);
	struct frame *f;

	if (!dst) {
		syscall_ret(t, -err);
		return;
	}
	if (flags & ~TACET_FRAME_DMA) {
		syscall_ret(t, -TACET_EINVAL);
		return;
	}
	if (pages == 0 || pages > FRAME_MAX_PAGES) {
		syscall_ret(t, -TACET_ERANGE);
		return;
	}
	f = frame_alloc(t->proc->acct, pages, flags & TACET_FRAME_DMA);
	if (!f) {
		syscall_ret(t, -TACET_ENOMEM);
		return;
	}
	t->proc->calls++; /* f is charged to it: its end waits for the call (process.h) */
	frame_zero_from(t, f, 0, dst);
}

void frame_new_go_on(struct thread *t)
{
	struct frame *f = t->held_frame;

	t->held_frame = NULL; /* the call's again: a point's recheck ends it if t ends */
	frame_zero_from(t, f, t->held_done, NULL); /* held at a point: zeroed > 0 */
}

/* FRAME_DERIVE's decode: a frame, an empty slot, and pages [first, first + pages) within it. */
static long decode_derive(struct thread *t, struct cap **src, struct cap **dst)
{
	struct cspace *cs = t->proc->cspace;
	uint64_t first = syscall_arg(t, 2), pages = syscall_arg(t, 3);
	const struct frame *f;
	long err;

	*src = cap_lookup(cs, syscall_arg(t, 0), TACET_CAP_FRAME, 0, &err);
	if (!*src)
		return err;
	*dst = cap_empty_slot(cs, syscall_arg(t, 1), &err);
	if (!*dst)
		return err;
	f = (const struct frame *)(*src)->obj;
	if (!pages || first >= f->pages || pages > f->pages - first)
		return TACET_ERANGE;
	return 0;
}

/* (src, dst, first, pages): a frame naming part of src's pages. */
void sys_frame_derive(struct thread *t)
{
	struct cap *src = NULL, *dst = NULL;
	long err = decode_derive(t, &src, &dst);
	struct frame *f;

	if (err) {
		syscall_ret(t, -err);
		return;
	}
	f = frame_derive(t->proc->acct, (struct frame *)src->obj, syscall_arg(t, 2),
			 syscall_arg(t, 3));
	if (!f) {
		syscall_ret(t, -TACET_ENOMEM);
		return;
	}
	cap_install(dst, &f->obj, src->rights, 0); /* no more rights than the whole had */
	syscall_ret(t, 0);
}

/* --- the DMA pin (the quarantine's rule, above) --- */

/* The frame named by t's argument i (rights asked), or NULL and *err. */
static struct frame *decode_frame(struct thread *t, int i, uint32_t rights, long *err)
{
	struct cap *c = cap_lookup(t->proc->cspace, syscall_arg(t, i), TACET_CAP_FRAME, rights, err);

	return c ? (struct frame *)c->obj : NULL;
}

/* FRAME_PIN's decode: a frame, and a device frame (WRITE); for a RAM frame, WRITE on it too (a
 * device writes it), made for DMA (TACET_EINVAL: docs/drivers.md, "A wrong length") and no pin
 * to a device outside the one it is pinned to (TACET_EBUSY). */
static long decode_pin(struct thread *t, struct frame **f, struct frame **dev)
{
	struct cspace *cs = t->proc->cspace;
	long err;
	struct cap *fc = cap_lookup(cs, syscall_arg(t, 0), TACET_CAP_FRAME, 0, &err);
	struct cap *dc = fc ? cap_lookup(cs, syscall_arg(t, 1), TACET_CAP_FRAME, TACET_RIGHT_WRITE,
					 &err) : NULL;
	struct frame *root;

	if (!dc)
		return err;
	*f = (struct frame *)fc->obj;
	*dev = (struct frame *)dc->obj;
	root = root_of(*f);
	if (!(*dev)->device)
		return TACET_EINVAL; /* RAM is no device */
	if (root->device)
		return 0; /* MMIO: its address is no secret, and it needs no pin */
	if (!cap_has_rights(fc, TACET_RIGHT_WRITE))
		return TACET_EPERM;
	if (!root->dma)
		return TACET_EINVAL; /* not made for DMA: among the kernel's pages and servers' */
	if (root->pinned_to && !within(*dev, root->pinned_to))
		return TACET_EBUSY;
	return 0;
}

/* (frame, device) -> 0; a1 = physical address, a2 = pages. A device frame (MMIO) gives its
 * address without a pin; a RAM frame is pinned (its root) to the device frame as named. */
void sys_frame_pin(struct thread *t)
{
	struct frame *f = NULL, *dev = NULL, *root;
	long err = decode_pin(t, &f, &dev);

	if (err) {
		syscall_ret(t, -err);
		return;
	}
	root = root_of(f);
	if (!root->device && !root->pinned_to)
		frame_pin(root, dev);
	arch_ctx_set_ret(&t->ctx, 1, f->pa);
	arch_ctx_set_ret(&t->ctx, 2, f->pages);
	syscall_ret(t, 0);
}

/* (frame, device) -> 0: the device is done with the frame (WRITE on both, as to pin it). Only
 * with the device it is pinned to (or a frame it lies within): whoever else holds the frame, a
 * client that lent it to a driver, could otherwise unpin it while the device writes, and the
 * frame would end straight to the pool (TACET_EPERM). */
void sys_frame_unpin(struct thread *t)
{
	long err;
	struct frame *f = decode_frame(t, 0, TACET_RIGHT_WRITE, &err);
	struct frame *dev = f ? decode_frame(t, 1, TACET_RIGHT_WRITE, &err) : NULL;
	struct frame *root = f ? root_of(f) : NULL;

	if (!dev) {
		syscall_ret(t, -err);
		return;
	}
	if (root->pinned_to && !within(root->pinned_to, dev)) {
		syscall_ret(t, -TACET_EPERM); /* only who drives the device says it is done */
		return;
	}
	if (root->pinned_to)
		frame_unpin(root);
	syscall_ret(t, 0);
}

/* (device) -> the pages released: the part of its root's quarantine pinned within it back to
 * the pool (TACET_RIGHT_RELEASE). */
void sys_device_release(struct thread *t)
{
	long err;
	struct frame *d = decode_frame(t, 0, TACET_RIGHT_RELEASE, &err);

	if (!d || !root_of(d)->device) {
		syscall_ret(t, d ? -TACET_EINVAL : -err);
		return;
	}
	syscall_ret(t, (long)frame_device_release(d));
}
