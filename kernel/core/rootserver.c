/* rootserver.c: builds init's process from the module archive: its ELF segments, stack,
 * boot information page, the archive and DTB mapped read-only, and its first capabilities
 * (itself, a fault endpoint, the archive, the DTB, every device's MMIO). Boot hart, BKL held. */
#include "core/rootserver.h"
#include "object/account.h"
#include "arch.h"
#include "object/cap.h"
#include "core/console.h"
#include "lib/elf.h"
#include "object/endpoint.h"
#include "object/frame.h"
#include "core/bkl.h"
#include "core/hart.h"
#include "core/preempt.h"
#include "core/trace.h"
#include "irq/irq.h"
#include "lib/kstring.h"
#include "mm/mm.h"
#include "mm/page_alloc.h"
#include "lib/pci_dt.h"
#include "core/platform.h"
#include "object/process.h"
#include "object/thread.h"
#include <tacet/bootinfo.h>
#include <tacet/modules.h>

/* The boot arguments into init's bootinfo (dst of size bytes, NUL-terminated): false if they
 * did not fit and were cut (the boot says so: init would otherwise run a cut init.run= as if
 * it were whole). */
static bool copy_bootargs(char *dst, size_t size, const char *src)
{
	size_t i;

	for (i = 0; i < size - 1 && src[i]; i++)
		dst[i] = src[i];
	dst[i] = 0;
	return !src[i];
}

#define INIT_MAX_SEGMENTS 8
#define INIT_STACK_PAGES 16
#define INIT_STACK_TOP 0x0000003fff000000ul
#define INIT_PRIORITY 200

/* Devices the kernel drives itself: never handed out. */
static const char *const kernel_devices[] = {
	"riscv,plic0", "sifive,plic-1.0.0", "riscv,aclint-sswi", "riscv,aclint-mswi",
	"riscv,aclint-mtimer", "sifive,clint0", "riscv,clint0",
};

static int fail(const char *what)
{
	kprintf("tacet: cannot start init: %s\n", what);
	return -1;
}

/* What is wrong with the archive's header, or NULL: tacet_module_find tells only "not found",
 * and a corrupted archive deserves its own message. */
static const char *archive_problem(const uint8_t *archive, uint64_t size)
{
	const struct tacet_modules_header *h = (const struct tacet_modules_header *)archive;

	if (size < sizeof(*h))
		return "the module archive is shorter than its header";
	if (memcmp(h->magic, TACET_MODULES_MAGIC, sizeof(h->magic)))
		return "not a module archive (bad magic)";
	if (h->version != TACET_MODULES_VERSION)
		return "unknown module archive version";
	if (h->count > (size - sizeof(*h)) / sizeof(struct tacet_module))
		return "the module archive's table runs past its end";
	return NULL;
}

static unsigned int segment_rights(uint32_t flags)
{
	unsigned int r = 0;

	if (flags & ELF_SEG_R)
		r |= TACET_RIGHT_READ;
	if (flags & ELF_SEG_W)
		r |= TACET_RIGHT_WRITE;
	if (flags & ELF_SEG_X)
		r |= TACET_MAP_EXEC;
	return r;
}

/* Copy one segment into fresh pages and map them, a page at a time, with a preemption point
 * between every two steps (a page's allocation, each COPY_STEP of its copy, its mapping: each
 * at most ~2,500 instructions, core/bkl.h; at boot nobody waits, but the longest hold measured
 * is one of these). */
#define COPY_STEP 2048

static int load_segment(struct process *p, const uint8_t *image, const struct elf_segment *s)
{
	uint64_t first = s->vaddr & ~(PAGE_SIZE - 1), file_end = s->vaddr + s->filesz;

	for (uint64_t va = first; va < s->vaddr + s->memsz; va += PAGE_SIZE) {
		uint64_t pa = page_alloc_zeroed();
		uint8_t *dst = (uint8_t *)arch_phys_to_virt(pa);
		uint64_t from = va < s->vaddr ? s->vaddr : va;
		uint64_t to = va + PAGE_SIZE < file_end ? va + PAGE_SIZE : file_end;

		if (!pa)
			return -1;
		for (; from < to; from += COPY_STEP) {
			uint64_t n = to - from < COPY_STEP ? to - from : COPY_STEP;

			preempt_point();
			memcpy(dst + (from - va), image + s->offset + (from - s->vaddr), n);
		}
		preempt_point();
		if (arch_aspace_map(p->root, va, pa, segment_rights(s->flags)) < 0)
			return -1;
		preempt_point();
	}
	return 0;
}

static int give(struct process *p, unsigned int slot, struct kobj *obj, uint32_t rights)
{
	long err;
	struct cap *c = obj ? cap_empty_slot(p->cspace, slot, &err) : NULL;

	if (!c)
		return -1;
	cap_install(c, obj, rights, 0);
	return 0;
}

static uint64_t pages_of(uint64_t pa, uint64_t len)
{
	return ((pa + len + PAGE_SIZE - 1) >> PAGE_SHIFT) - (pa >> PAGE_SHIFT);
}

/* A preemption point after each name: each is a walk of the node's properties (~1,500
 * instructions). */
static int is_kernel_device(const struct fdt *fdt, int node)
{
	for (size_t i = 0; i < sizeof(kernel_devices) / sizeof(kernel_devices[0]); i++) {
		if (fdt_node_is_compatible(fdt, node, kernel_devices[i]))
			return 1;
		preempt_point();
	}
	return 0;
}

/* One bootinfo entry: a frame over [pa, pa + len) if len, an IRQ handler capability if irq. */
static void add_device(struct process *p, struct tacet_bootinfo *bi, const char *compat,
		       uint64_t pa, uint64_t len, uint32_t irq)
{
	struct tacet_bootinfo_device *d = &bi->devices[bi->ndevices];
	unsigned int index = (unsigned int)bi->ndevices;

	if (bi->ndevices == TACET_BOOTINFO_MAX_DEVICES)
		return;
	if (len && give(p, TACET_SLOT_FIRST_DEVICE + index,
			(struct kobj *)frame_wrap(NULL, pa & ~(PAGE_SIZE - 1), pages_of(pa, len), 1),
			TACET_RIGHT_READ | TACET_RIGHT_WRITE | TACET_RIGHT_RELEASE) < 0)
		return;
	d->slot = len ? TACET_SLOT_FIRST_DEVICE + index : 0;
	for (size_t i = 0; i < sizeof(d->compatible) - 1 && compat[i]; i++)
		d->compatible[i] = compat[i];
	d->paddr = pa;
	d->size = len;
	d->irq = irq;
	if (irq && give(p, TACET_SLOT_FIRST_IRQ + index, (struct kobj *)irq_desc_get(irq),
			TACET_RIGHT_WRITE) == 0)
		d->irq_slot = TACET_SLOT_FIRST_IRQ + index;
	bi->ndevices++;
}

/* A PCIe host bridge: besides its ECAM registers, its address windows (`ranges`) as frames and
 * the controller lines its INTx pins reach (`interrupt-map`) as IRQ handler capabilities, for the
 * PCI server to hand out per device. */
static void give_pci_host(struct process *p, struct tacet_bootinfo *bi, int node)
{
	static const char *const spaces[] = {
		[PCI_SPACE_CONFIG] = "tacet,pci-config", [PCI_SPACE_IO] = "tacet,pci-io",
		[PCI_SPACE_MMIO32] = "tacet,pci-mmio32", [PCI_SPACE_MMIO64] = "tacet,pci-mmio64",
	};
	const struct fdt *fdt = &platform.fdt;
	struct tacet_bootinfo_device *line[8] = { 0 };
	uint32_t seen[8] = { 0 };
	unsigned int nseen = 0;
	struct pci_range range;
	struct pci_imap im;
	struct pci_imap_entry e;

	for (uint32_t n = 0; pci_dt_range(fdt, node, n, &range); n++) {
		preempt_point();
		add_device(p, bi, spaces[range.space], range.cpu_addr, range.size, 0);
	}
	preempt_point();
	if (!pci_dt_imap_open(fdt, node, &im))
		return;
	for (uint32_t n = 0; pci_dt_imap_at(&im, n, &e); n++) {
		unsigned int i;

		preempt_point();
		for (i = 0; i < nseen && seen[i] != e.irq; i++)
			;
		if (i == nseen && nseen < 8) {
			seen[nseen++] = e.irq;
			if (bi->ndevices < TACET_BOOTINFO_MAX_DEVICES)
				line[i] = &bi->devices[bi->ndevices];
			add_device(p, bi, "tacet,pci-intx", 0, 0, e.irq);
		}
		if (i < nseen && line[i] && e.pin >= 1 && e.pin <= 4)
			line[i]->pci_routes |= 1u << (4 * (e.dev & 3) + e.pin - 1);
	}
}

/* Every enabled /soc device with registers, but the kernel's own, as a frame capability; a
 * preemption point between two steps (each reads a property or two: ~1,000 to 3,000
 * instructions; the reader checks every tag it reads). /soc's cells are read once: fdt_reg
 * would walk the tree from its root for each device's parent. */
static void give_devices(struct process *p, struct tacet_bootinfo *bi)
{
	const struct fdt *fdt = &platform.fdt;
	int soc = platform.soc;
	uint32_t ac, sc;

	if (soc < 0 || !fdt_bus_cells(fdt, soc, &ac, &sc))
		return;
	for (int n = fdt_first_child(fdt, soc); n >= 0; n = fdt_next_sibling(fdt, n)) {
		const char *compat = fdt_prop_string(fdt, n, "compatible");
		uint64_t pa, len;
		uint32_t irq = 0;

		preempt_point();
		if (!compat || !fdt_node_is_enabled(fdt, n) || is_kernel_device(fdt, n) ||
		    fdt_reg_cells(fdt, n, ac, sc, 0, &pa, &len) < 0)
			continue;
		fdt_irq(fdt, n, &irq);
		preempt_point();
		add_device(p, bi, compat, pa, len, irq);
		if (fdt_node_is_compatible(fdt, n, "pci-host-ecam-generic"))
			give_pci_host(p, bi, n);
	}
}

/* The boot information page, mapped read-only at TACET_BOOTINFO_VADDR; returns the number of
 * devices given, or -1. */
static int map_bootinfo(struct process *p, uint64_t archive_size)
{
	uint64_t pa = page_alloc_zeroed();
	struct tacet_bootinfo *bi = (struct tacet_bootinfo *)arch_phys_to_virt(pa);

	_Static_assert(sizeof(struct tacet_bootinfo) <= PAGE_SIZE, "bootinfo fits a page");
	if (!pa)
		return -1;
	bi->magic = TACET_BOOTINFO_MAGIC;
	bi->nharts = nharts;
	bi->timebase_hz = platform.timebase_hz;
	bi->modules_vaddr = TACET_MODULES_VADDR;
	bi->modules_size = archive_size;
	bi->dtb_size = platform.fdt.size;
	if (!copy_bootargs(bi->bootargs, sizeof(bi->bootargs), platform.bootargs))
		kprintf("tacet: the boot arguments are longer than %lu bytes: init gets the first "
			"%lu, the rest is cut\n", (unsigned long)sizeof(bi->bootargs) - 1,
			(unsigned long)sizeof(bi->bootargs) - 1);
	give_devices(p, bi);
	if (arch_aspace_map(p->root, TACET_BOOTINFO_VADDR, pa, TACET_RIGHT_READ) < 0)
		return -1;
	return (int)bi->ndevices;
}

/* Mapped a page at a time with a preemption point between two (the module archive is
 * megabytes: in one go, the longest hold of a boot). A failure powers off: nothing to undo. */
static int map_read_only(struct process *p, unsigned int slot, uintptr_t va, uint64_t pa,
			 uint64_t len)
{
	struct frame *f = frame_wrap(NULL, pa & ~(PAGE_SIZE - 1), pages_of(pa, len), 1);

	if (!f || give(p, slot, &f->obj, TACET_RIGHT_READ) < 0)
		return -1;
	for (uint64_t i = 0; va && i < f->pages; i++) {
		preempt_point();
		if (process_map(p, va + i * PAGE_SIZE, f->pa + i * PAGE_SIZE, 1, TACET_RIGHT_READ))
			return -1;
	}
	return 0;
}

/* Memory the kernel keeps out of init's account: its own objects, and what object caches lose
 * to partly filled pages (accounts are charged what objects take, not whole pages). */
#define KERNEL_RESERVE_SHIFT 4 /* 1/16 of the free pages */

/* init's process, with the root account: every page free now but the kernel's reserve. Every
 * server's budget is taken from it. */
static struct process *root_process(void)
{
	uint64_t pages = mm_free_pages() - (mm_free_pages() >> KERNEL_RESERVE_SHIFT);
	struct account *root = account_new(NULL, pages * PAGE_SIZE);
	struct process *p;

	preempt_point();
	p = root ? process_new(root, "init") : NULL;
	if (root)
		account_put(root); /* p holds it now */
	preempt_point();
	kprintf("tacet: init's account: %lu pages\n", (unsigned long)pages);
	return p;
}

int rootserver_start(void)
{
	uint64_t size = platform.initrd_end - platform.initrd_start, entry, stack;
	const uint8_t *archive = (const uint8_t *)arch_phys_to_virt(platform.initrd_start);
	const struct tacet_module *m;
	struct elf_segment segs[INIT_MAX_SEGMENTS];
	struct process *p;
	struct thread *t;
	const char *why;
	int nsegs, ndevices;

	if (!platform.initrd_start)
		return fail("no boot module archive (QEMU -initrd)");
	if (platform.initrd_start & (PAGE_SIZE - 1))
		return fail("the module archive is not page aligned");
	why = archive_problem(archive, size);
	if (why)
		return fail(why);
	preempt_point();
	m = tacet_module_find(archive, size, "init");
	if (!m)
		return fail("no module \"init\" in the archive");
	nsegs = elf_parse(archive + m->offset, m->size, arch_user_top(), segs, INIT_MAX_SEGMENTS,
			  &entry, &why);
	if (nsegs < 0)
		return fail(why);
	preempt_point();
	p = root_process();
	if (!p)
		return fail("out of memory");
	p->is_root_server = 1;
	preempt_point();
	for (int i = 0; i < nsegs; i++)
		if (load_segment(p, archive + m->offset, &segs[i]) < 0)
			return fail("out of memory (segments)");
	stack = INIT_STACK_TOP - INIT_STACK_PAGES * PAGE_SIZE;
	for (uint64_t va = stack; va < INIT_STACK_TOP; va += PAGE_SIZE) {
		uint64_t pa = page_alloc_zeroed();

		preempt_point();
		if (!pa || arch_aspace_map(p->root, va, pa, TACET_RIGHT_READ | TACET_RIGHT_WRITE) < 0)
			return fail("out of memory (stack)");
		preempt_point();
	}
	ndevices = map_bootinfo(p, size);
	if (ndevices < 0 ||
	    map_read_only(p, TACET_SLOT_MODULES, TACET_MODULES_VADDR, platform.initrd_start, size) < 0 ||
	    map_read_only(p, TACET_SLOT_DTB, 0, platform.dtb_pa, platform.fdt.size) < 0 ||
	    give(p, TACET_SLOT_SELF_PROCESS, &p->obj, TACET_RIGHTS_ALL) < 0 ||
	    give(p, TACET_SLOT_TRACE, trace_authority(), TACET_RIGHTS_ALL) < 0 ||
	    give(p, TACET_SLOT_FAULT_EP, (struct kobj *)endpoint_new(p), TACET_RIGHTS_ALL) < 0)
		return fail("out of memory (boot information)");
	preempt_point();
	t = thread_new(p, entry, INIT_STACK_TOP, TACET_BOOTINFO_VADDR, INIT_PRIORITY, 0);
	if (!t || give(p, TACET_SLOT_SELF_THREAD, &t->obj, TACET_RIGHTS_ALL) < 0)
		return fail("out of memory (thread)");
	kprintf("tacet: init loaded: %d segments, entry %#lx, %d devices\n", nsegs,
		(unsigned long)entry, ndevices);
	return 0;
}
