/* inject.c: the fault injector, TACET_SYS_INJECT (enum tacet_inject_op in <tacet/abi.h>): a
 * register bit flipped in a driver thread's saved context, an instruction of its text flipped or
 * replaced, a word of its data, heap or stack replaced, an endless loop at its pc, garbage in
 * its next reply to a client, its notification unbound (its rings no longer consumed). Built only
 * into the faults kernel (build/faults, -DCONFIG_FAULTS; inject.h): the shipped and test
 * kernels answer ENOSYS. The authority is the trace capability (init gives it to `%` servers
 * only): the injector is a test server (servers/faults). BKL held, like every call; the target
 * thread is not running (EBUSY otherwise), so its context is the one saved in its TCB and
 * nothing of its process changes under the call; with TACET_INJECT_BUSY it must have been
 * taken off its hart by an interrupt (a random moment of its work, not its receive). Decode (the
 * authority, the thread, the op's arguments, the word picked and what it held) changes
 * nothing; then one store (none for TACET_INJECT_PROBE).
 *
 * A fault that would hand the driver's device an address of its making is refused (ENODEV)
 * unless the op says TACET_INJECT_DMA: a word in a frame pinned for DMA (a virtqueue's
 * descriptors and rings, a request's header: the device reads the addresses there), or a word
 * or register whose value is a DMA address (the driver's record of one). With no IOMMU on the
 * machine nothing confines a corrupted address to the driver's pages: the kernel's own memory
 * is not protected from such a fault (docs/faults.md). */
#include "inject/inject.h"
#include "arch.h"
#include "core/syscall.h"
#include "core/trace.h"
#include "mm/page_alloc.h"
#include "object/frame.h"
#include "object/notification.h"
#include "object/process.h"
#include "object/thread.h"
#include <tacet/abi.h>

#define INSN_BYTES 4
#define INSN_ALIGN 2           /* with the C extension an instruction starts at any halfword */
#define INSN_LOOP 0xa001u      /* c.j 0: `j .` in 16 bits, whatever the pc's instruction was */
#define PINS_LOOKED 64         /* is_dma_address's bound */

/* A decoded call: the thread, and the user address and kernel alias of the word it changes. */
struct inject {
	struct thread *t;
	unsigned long op, where, value;
	bool busy;     /* TACET_INJECT_BUSY: only into a thread an interrupt took off its hart */
	bool dma;      /* TACET_INJECT_DMA: what the device is given may change (decode_dma) */
	bool probe;    /* TACET_INJECT_PROBE: decode only */
	uintptr_t va;  /* the word's user address (a register fault: none) */
	void *word;    /* its kernel alias */
	unsigned long found; /* TACET_INJECT_FOUND_*: what the word or register held */
};

/* Is p a driver: a process with an interrupt line bound, or with a device's registers mapped
 * (a bus server, which hands its lines to the drivers of its functions and binds none)?
 * O(p's mappings). */
static bool is_driver(const struct process *p)
{
	if (p->irq_refs)
		return true;
	for (const struct mapping *m = p->mappings; m; m = m->next)
		if (m->frame->device)
			return true;
	return false;
}

/* Thread tid, alive, of a driver (is_driver), neither the caller's nor the root server; not
 * running, and with `busy` ready to run again where an interrupt
 * stopped it (its context is then that of a random moment of its work). all_threads is in
 * creation order, so in tid order: the walk stops at tid, O(threads older than it) (this
 * kernel's alone; a boot of the faults kernel holds a few dozen). */
static long decode_thread(struct thread *caller, unsigned long tid, bool busy,
			  struct thread **out)
{
	struct thread *t = NULL;

	for (struct list_node *n = all_threads.head.next; n != &all_threads.head; n = n->next) {
		struct thread *c = list_entry(n, struct thread, all_link.link);

		if (c->tid >= tid) {
			t = c->tid == tid ? c : NULL;
			break;
		}
	}
	if (!t)
		return TACET_ENOENT;
	if (t->state == TACET_THREAD_DEAD || !t->proc->cspace)
		return TACET_EDEAD;
	if (t->proc == caller->proc || t->proc->is_root_server || !is_driver(t->proc))
		return TACET_EPERM;
	if (t->state == TACET_THREAD_RUNNING)
		return TACET_EBUSY;
	if (busy && (t->state != TACET_THREAD_READY || !arch_ctx_interrupted(&t->ctx)))
		return TACET_EBUSY;
	*out = t;
	return 0;
}

/* Does mapping m hold the kind of page op changes: text (executable) or data (writable RAM)? */
static bool mapping_fits(const struct mapping *m, bool text)
{
	if (text)
		return m->rights & TACET_MAP_EXEC;
	return (m->rights & TACET_RIGHT_WRITE) && !m->frame->device;
}

/* The word (INSN_BYTES of text, or 8 of data) `pick` chooses, modulo the words of every page of
 * that kind the process maps; its user address, or 0 if it maps none. */
static uintptr_t pick_word(const struct process *p, bool text, unsigned long pick)
{
	unsigned long size = text ? INSN_BYTES : sizeof(uint64_t), words = 0;

	for (const struct mapping *m = p->mappings; m; m = m->next)
		if (mapping_fits(m, text))
			words += m->frame->pages * PAGE_SIZE / size;
	if (!words)
		return 0;
	pick %= words;
	for (const struct mapping *m = p->mappings; m; m = m->next) {
		unsigned long here = mapping_fits(m, text) ? m->frame->pages * PAGE_SIZE / size : 0;

		if (pick < here)
			return m->va + pick * size;
		pick -= here;
	}
	return 0;
}

/* The mapping of p that holds user address va, or NULL. */
static const struct mapping *mapping_at(const struct process *p, uintptr_t va)
{
	for (const struct mapping *m = p->mappings; m; m = m->next)
		if (va - m->va < m->frame->pages * PAGE_SIZE)
			return m;
	return NULL;
}

/* The kernel's alias of user address va in p, mapped with `need`, or NULL. */
static void *alias_of(const struct process *p, uintptr_t va, unsigned int need)
{
	uint64_t pa;

	if (arch_aspace_lookup(p->root, va, need, &pa) < 0)
		return NULL;
	return (void *)arch_phys_to_virt(pa);
}

/* Does v lie in a frame pinned for DMA to a device p maps: an address its driver hands the
 * device? Up to PINS_LOOKED pins, its devices' together (a device's pins are as many as its
 * drivers' budgets allow; a driver of these machines has a few). */
static bool is_dma_address(const struct process *p, unsigned long v)
{
	unsigned int budget = PINS_LOOKED;

	for (const struct mapping *m = p->mappings; m && budget; m = m->next)
		if (m->frame->device && frame_pins_hold(m->frame, v, &budget))
			return true;
	return false;
}

/* What the fault would hand the driver's device: a word in a frame pinned for DMA (which the
 * device reads: descriptors, rings, headers), or an old value that is a DMA address (the
 * driver's record of one, or a register holding one); either refused unless the op allows it
 * (TACET_INJECT_DMA). */
static long decode_dma(struct inject *in, bool pinned, unsigned long old)
{
	if (pinned)
		in->found |= TACET_INJECT_FOUND_PINNED;
	if (old && is_dma_address(in->t->proc, old))
		in->found |= TACET_INJECT_FOUND_DMA_ADDRESS;
	return in->found && !in->dma ? TACET_ENODEV : 0;
}

/* The word at in->va: mapped (a hang's in text); then decode_dma (a data word's old value). */
static long decode_word(struct inject *in)
{
	const struct mapping *m = mapping_at(in->t->proc, in->va);

	in->word = alias_of(in->t->proc, in->va, TACET_RIGHT_READ);
	if (!m || !in->word || (in->op == TACET_INJECT_HANG && !(m->rights & TACET_MAP_EXEC)))
		return TACET_EFAULT;
	return decode_dma(in, frame_dma_visible(m->frame),
			  in->op == TACET_INJECT_DATA ? *(volatile uint64_t *)in->word : 0);
}

/* A register op: a register and a bit in range; then decode_dma (the register's value; the
 * pc's none). */
static long decode_reg(struct inject *in)
{
	if (in->where < 1 || in->where > TACET_INJECT_REG_PC || in->value >= 64)
		return TACET_EINVAL;
	return decode_dma(in, false,
			  in->where == TACET_INJECT_REG_PC ? 0 : in->t->ctx.regs[in->where]);
}

/* The op's arguments, and the word it changes (none for a reply's garbage or an unbinding). */
static long decode_op(struct inject *in)
{
	const struct process *p = in->t->proc;

	switch (in->op) {
	case TACET_INJECT_REPLY:
		return in->value ? 0 : TACET_EINVAL;
	case TACET_INJECT_DEAF:
		if (in->value)
			return TACET_EINVAL;
		return in->t->bound_ntfn ? 0 : TACET_ENOENT;
	case TACET_INJECT_REG:
		return decode_reg(in);
	case TACET_INJECT_TEXT_FLIP:
	case TACET_INJECT_TEXT_SET:
		if ((in->op == TACET_INJECT_TEXT_FLIP && in->value >= 32) || in->value >> 32)
			return TACET_EINVAL;
		in->va = pick_word(p, true, in->where);
		break;
	case TACET_INJECT_DATA:
		in->va = pick_word(p, false, in->where);
		break;
	case TACET_INJECT_HANG:
		if (in->value)
			return TACET_EINVAL;
		in->va = arch_ctx_pc(&in->t->ctx);
		if (in->va & (INSN_ALIGN - 1))
			return TACET_EFAULT;
		break;
	default:
		return TACET_EINVAL;
	}
	if (!in->va)
		return TACET_ENOENT;
	return decode_word(in);
}

static void invoke(struct inject *in)
{
	unsigned long *regs = in->t->ctx.regs;

	switch (in->op) {
	case TACET_INJECT_REG:
		if (in->where == TACET_INJECT_REG_PC)
			in->t->ctx.sepc ^= 1ul << in->value;
		else
			regs[in->where] ^= 1ul << in->value;
		return;
	case TACET_INJECT_TEXT_FLIP:
		*(volatile uint32_t *)in->word ^= 1u << in->value;
		break;
	case TACET_INJECT_TEXT_SET:
		*(volatile uint32_t *)in->word = (uint32_t)in->value;
		break;
	case TACET_INJECT_DATA:
		*(volatile uint64_t *)in->word = in->value;
		return;
	case TACET_INJECT_HANG:
		*(volatile uint16_t *)in->word = INSN_LOOP;
		break;
	case TACET_INJECT_REPLY:
		in->t->inject_reply = in->value;
		return;
	case TACET_INJECT_DEAF: /* as the thread's end unbinds it */
		notification_unbind(in->t);
		return;
	}
	/* its next fetch sees the word (arch_user_text_changed says which harts' fetches) */
	arch_user_text_changed();
}

/* splitmix64's finaliser: a word of garbage from the fault's value and the word's index. */
static unsigned long garbage_word(unsigned long value, unsigned long i)
{
	uint64_t z = value + (i + 1) * 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (unsigned long)(z ^ (z >> 31));
}

const unsigned long *inject_reply_words(struct thread *t, const unsigned long *w,
					unsigned long tag, unsigned long *buf)
{
	unsigned long value = t->inject_reply;

	if (!value)
		return w;
	t->inject_reply = 0;
	for (unsigned long i = 0; i < TACET_MSG_WORDS; i++)
		buf[i] = i < TACET_TAG_WORDS(tag) ? garbage_word(value, i) : w[i];
	return buf;
}

void sys_inject(struct thread *t)
{
	unsigned long op = syscall_arg(t, 0);
	struct inject in = { .op = op & ~TACET_INJECT_FLAGS, .busy = op & TACET_INJECT_BUSY,
			     .dma = op & TACET_INJECT_DMA, .probe = op & TACET_INJECT_PROBE,
			     .where = syscall_arg(t, 3), .value = syscall_arg(t, 4) };
	long err = trace_authorized(t->proc, syscall_arg(t, 1)) ? 0 : TACET_EPERM;

	if (!err)
		err = decode_thread(t, syscall_arg(t, 2), in.busy, &in.t);
	if (!err)
		err = decode_op(&in);
	if (err) {
		syscall_ret(t, -err);
		return;
	}
	if (!in.probe)
		invoke(&in);
	arch_ctx_set_ret(&t->ctx, 1, in.found);
	syscall_ret(t, in.op == TACET_INJECT_REG ? (long)in.where : (long)in.va);
}
