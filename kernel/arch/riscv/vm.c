/* vm.c: the kernel's Sv39 page tables. boot_pt (entry.S) is the 1 GiB-page table the harts
 * start on; kernel_pt is the final one: image W^X in 4 KiB pages, RAM and devices in the direct
 * map, the guarded stacks. Both are built by the boot hart before the others start and never
 * change afterwards, so no lock and no remote TLB shootdown. */
#include "arch.h"
#include "core/console.h"
#include "core/hart.h"
#include "lib/kstring.h"
#include "layout.h"
#include "mm/mm.h"
#include "mm/page_alloc.h"
#include "core/panic.h"
#include "riscv.h"
#include "riscv_platform.h"
#include <tacet/abi.h>

#define PT_ENTRIES    512
#define PT_INDEX_BITS 9
#define GIGA_SHIFT    30
#define MEGA_SHIFT    21
#define MAX_DEVICES   16

typedef uint64_t pte_t; /* the hardware's format, not an abstraction */

extern pte_t boot_pt[PT_ENTRIES];
extern const char _kernel_start[], _text_end[], _rodata_end[], _kernel_end[];
uint64_t kernel_satp; /* read by secondary_entry in entry.S */
static pte_t *kernel_pt;
/* The top-level entries of kernel_pt in use (all in its upper half), each noted once as
 * map_range makes it: what a new address space copies of the kernel's (arch_aspace_new). */
static uint16_t kernel_tops[PT_ENTRIES / 2];
static unsigned int nkernel_tops;
static uint64_t kernel_top_noted[PT_ENTRIES / 64];
static struct phys_range devices[MAX_DEVICES];
static int ndevices;

uintptr_t arch_phys_to_virt(uint64_t pa)
{
	return (uintptr_t)(pa + DIRECT_MAP_BASE);
}

static uint64_t kernel_gigapage_pa(void)
{
	return (boot_pt[(KERNEL_VBASE >> GIGA_SHIFT) & (PT_ENTRIES - 1)] >> PTE_PPN_SHIFT)
	       << PAGE_SHIFT;
}

static uint64_t kernel_va_to_pa(uintptr_t va)
{
	return va - KERNEL_VBASE + kernel_gigapage_pa();
}

uint64_t arch_kernel_phys_start(void)
{
	return kernel_va_to_pa((uintptr_t)_kernel_start);
}

uint64_t arch_kernel_phys_end(void)
{
	return kernel_va_to_pa((uintptr_t)_kernel_end);
}

/* perm carries PTE_U for user pages; kernel pages are global (in every address space). */
static pte_t leaf_pte(uint64_t pa, uint64_t perm)
{
	uint64_t scope = (perm & PTE_U) ? 0 : PTE_G;

	return ((pa >> PAGE_SHIFT) << PTE_PPN_SHIFT) | perm | PTE_V | PTE_A | PTE_D | scope;
}

void arch_boot_map_direct(uint64_t pa, uint64_t len)
{
	uint64_t first = pa >> GIGA_SHIFT, last = (pa + len - 1) >> GIGA_SHIFT;

	if (pa + len > DIRECT_MAP_SIZE || len == 0)
		panic("arch_boot_map_direct: %#lx+%#lx is beyond the direct map", (unsigned long)pa,
		      (unsigned long)len);
	for (uint64_t g = first; g <= last; g++)
		boot_pt[((DIRECT_MAP_BASE >> GIGA_SHIFT) + g) & (PT_ENTRIES - 1)] =
			leaf_pte(g << GIGA_SHIFT, PTE_R | PTE_W);
	sfence_vma_all();
}

static pte_t *table_at(pte_t pte)
{
	return (pte_t *)arch_phys_to_virt((pte >> PTE_PPN_SHIFT) << PAGE_SHIFT);
}

/* The entry for va at the level whose pages are 1 << shift bytes, creating tables on the way
 * if create is set (counted in *made, if not NULL); NULL if a table is missing (or cannot be
 * allocated). */
static pte_t *walk_counting(pte_t *root, uintptr_t va, int shift, bool create, int *made)
{
	pte_t *table = root;

	for (int level_shift = GIGA_SHIFT; level_shift > shift; level_shift -= PT_INDEX_BITS) {
		pte_t *e = &table[(va >> level_shift) & (PT_ENTRIES - 1)];

		if (!(*e & PTE_V)) {
			uint64_t pa = create ? page_alloc_zeroed() : 0;

			if (!pa)
				return NULL;
			*e = ((pa >> PAGE_SHIFT) << PTE_PPN_SHIFT) | PTE_V;
			if (made)
				(*made)++;
		} else if (*e & (PTE_R | PTE_W | PTE_X)) {
			return NULL; /* inside a large page: not for 4 KiB user mappings */
		}
		table = table_at(*e);
	}
	return &table[(va >> shift) & (PT_ENTRIES - 1)];
}

static pte_t *walk(pte_t *root, uintptr_t va, int shift, bool create)
{
	return walk_counting(root, va, shift, create, NULL);
}

static pte_t *walk_create(pte_t *root, uintptr_t va, int shift)
{
	pte_t *e = walk(root, va, shift, true);

	if (!e)
		panic("vm: cannot map %#lx (no memory for a table, or inside a large page)",
		      (unsigned long)va);
	return e;
}

static void note_kernel_top(uintptr_t va)
{
	unsigned int i = (unsigned int)(va >> GIGA_SHIFT) & (PT_ENTRIES - 1);

	if (kernel_top_noted[i / 64] & (1UL << (i % 64)))
		return;
	if (i < PT_ENTRIES / 2)
		panic("vm: kernel mapping %#lx in the user half", (unsigned long)va);
	kernel_top_noted[i / 64] |= 1UL << (i % 64);
	kernel_tops[nkernel_tops++] = (uint16_t)i;
}

/* Map [va, va+len) to pa with perm, using the largest pages alignment allows. */
static void map_range(pte_t *root, uintptr_t va, uint64_t pa, uint64_t len, uint64_t perm)
{
	while (len) {
		int shift = PAGE_SHIFT;

		for (int s = GIGA_SHIFT; s > PAGE_SHIFT; s -= PT_INDEX_BITS) {
			if (((va | pa) & ((1UL << s) - 1)) == 0 && len >= (1UL << s)) {
				shift = s;
				break;
			}
		}
		pte_t *e = walk_create(root, va, shift);

		if (root == kernel_pt)
			note_kernel_top(va);
		if (*e & PTE_V)
			panic("vm: %#lx is mapped twice", (unsigned long)va);
		*e = leaf_pte(pa, perm);
		va += 1UL << shift;
		pa += 1UL << shift;
		len -= 1UL << shift;
	}
}

static void map_image_part(const char *start, const char *end, uint64_t perm)
{
	map_range(kernel_pt, (uintptr_t)start, kernel_va_to_pa((uintptr_t)start),
		  (uintptr_t)(end - start), perm);
}

/* The direct map of RAM: read-write, except the kernel image's own pages, which are only
 * readable there, so no writable alias of kernel text exists. */
static void map_ram(const struct phys_range *r)
{
	uint64_t ks = arch_kernel_phys_start(), ke = arch_kernel_phys_end();
	uint64_t start = r->start & ~(PAGE_SIZE - 1), end = (r->end + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);

	if (ke <= start || ks >= end) {
		map_range(kernel_pt, arch_phys_to_virt(start), start, end - start, PTE_R | PTE_W);
		return;
	}
	if (start < ks)
		map_range(kernel_pt, arch_phys_to_virt(start), start, ks - start, PTE_R | PTE_W);
	map_range(kernel_pt, arch_phys_to_virt(ks), ks, ke - ks, PTE_R);
	if (ke < end)
		map_range(kernel_pt, arch_phys_to_virt(ke), ke, end - ke, PTE_R | PTE_W);
}

void *arch_map_device(uint64_t pa, uint64_t len)
{
	uint64_t start = pa & ~(PAGE_SIZE - 1);
	uint64_t end = (pa + len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);

	if (kernel_pt) {
		map_range(kernel_pt, arch_phys_to_virt(start), start, end - start, PTE_R | PTE_W);
		sfence_vma_all();
	} else {
		if (ndevices == MAX_DEVICES)
			panic("vm: more than %d device regions", MAX_DEVICES);
		devices[ndevices++] = (struct phys_range){ start, end };
		arch_boot_map_direct(start, end - start);
	}
	return (void *)arch_phys_to_virt(pa);
}

void arch_vm_init(const struct phys_range *ram, int nram)
{
	uint64_t root = page_alloc_zeroed();

	if (!root)
		panic("vm: no page for the kernel page table");
	kernel_pt = (pte_t *)arch_phys_to_virt(root);
	map_image_part(_kernel_start, _text_end, PTE_R | PTE_X);
	map_image_part(_text_end, _rodata_end, PTE_R);
	map_image_part(_rodata_end, _kernel_end, PTE_R | PTE_W);
	for (int i = 0; i < nram; i++)
		map_ram(&ram[i]);
	for (int i = 0; i < ndevices; i++)
		map_range(kernel_pt, arch_phys_to_virt(devices[i].start), devices[i].start,
			  devices[i].end - devices[i].start, PTE_R | PTE_W);
	kernel_satp = ARCH_SATP_SV39(root);
	sfence_vma_all();
	csr_write(satp, kernel_satp);
	sfence_vma_all();
}

/* Stack slot k of hart h: [guard (unmapped) | STACK_SIZE bytes of stack]; returns the top. */
static uintptr_t map_stack(unsigned int hart_id, int k)
{
	uintptr_t slot = STACKS_BASE +
			 ((uintptr_t)hart_id * STACK_SLOTS_PER_HART + (uintptr_t)k) * STACK_SLOT_SIZE;
	uintptr_t base = slot + STACK_SLOT_SIZE - STACK_SIZE;

	for (uintptr_t va = base; va < slot + STACK_SLOT_SIZE; va += PAGE_SIZE) {
		uint64_t pa = page_alloc_zeroed();

		if (!pa)
			return 0;
		map_range(kernel_pt, va, pa, PAGE_SIZE, PTE_R | PTE_W);
	}
	return slot + STACK_SLOT_SIZE;
}

int arch_hart_stacks_init(struct hart *h)
{
	h->kstack_top = map_stack(h->id, 0);
	h->irq_stack_top = map_stack(h->id, 1);
	h->overflow_stack_top = arch_overflow_stack_top(h->id);
	sfence_vma_all();
	return h->kstack_top && h->irq_stack_top ? 0 : -1;
}

/* --- user address spaces: the lower half is the process's, the upper half the kernel's --- */

#define KERNEL_HALF_FIRST (PT_ENTRIES / 2)

uint64_t arch_aspace_new(void)
{
	uint64_t root = page_alloc_zeroed(); /* the user half, and the kernel's unused entries */
	pte_t *pt;

	if (!root)
		return 0;
	pt = (pte_t *)arch_phys_to_virt(root);
	/* The kernel's top-level entries are all made at boot, so a copy stays complete; only
	 * those in use are copied (a few: the direct map's gigabytes, the image's, the stacks') */
	for (unsigned int k = 0; k < nkernel_tops; k++)
		pt[kernel_tops[k]] = kernel_pt[kernel_tops[k]];
	return root;
}

static uint64_t user_pte_perm(unsigned int rights)
{
	uint64_t perm = PTE_U;

	if (rights & TACET_RIGHT_READ)
		perm |= PTE_R;
	if (rights & TACET_RIGHT_WRITE)
		perm |= PTE_W | PTE_R; /* write-only is reserved in Sv39 */
	if (rights & TACET_MAP_EXEC)
		perm |= PTE_X;
	return perm;
}

int arch_aspace_map(uint64_t root, uintptr_t va, uint64_t pa, unsigned int rights)
{
	pte_t *e;
	int made = 0;

	if (va >= USER_VA_TOP || (va & (PAGE_SIZE - 1)) || (pa & (PAGE_SIZE - 1)))
		return -TACET_EINVAL;
	e = walk_counting((pte_t *)arch_phys_to_virt(root), va, PAGE_SHIFT, true, &made);
	if (!e)
		return -TACET_ENOMEM; /* (a table made before the one that failed stays, uncounted) */
	if (*e & PTE_V)
		return -TACET_EEXIST; /* (then no table was new) */
	*e = leaf_pte(pa, user_pte_perm(rights));
	return made;
}

int arch_aspace_unmap(uint64_t root, uintptr_t va, uint64_t *pa)
{
	pte_t *e;

	if (va >= USER_VA_TOP || (va & (PAGE_SIZE - 1)))
		return -TACET_EINVAL;
	e = walk((pte_t *)arch_phys_to_virt(root), va, PAGE_SHIFT, false);
	if (!e || !(*e & PTE_V))
		return -TACET_ENOENT;
	if (pa)
		*pa = (*e >> PTE_PPN_SHIFT) << PAGE_SHIFT;
	*e = 0;
	sfence_vma_all();
	return 0;
}

int arch_aspace_lookup(uint64_t root, uintptr_t va, unsigned int need, uint64_t *pa)
{
	pte_t *e;
	uint64_t want = user_pte_perm(need);

	if (va >= USER_VA_TOP)
		return -TACET_EFAULT;
	e = walk((pte_t *)arch_phys_to_virt(root), va & ~(PAGE_SIZE - 1), PAGE_SHIFT, false);
	if (!e || !(*e & PTE_V) || (*e & want) != want)
		return -TACET_EFAULT;
	*pa = ((*e >> PTE_PPN_SHIFT) << PAGE_SHIFT) | (va & (PAGE_SIZE - 1));
	return 0;
}

/* A user table entry: valid, and a table (no R/W/X), in the user half of a root or below. */
static bool is_table(pte_t e)
{
	return (e & PTE_V) && !(e & (PTE_R | PTE_W | PTE_X));
}

/* The table page entry *e names back to the pool, and the entry cleared. */
static void free_table_at(pte_t *e)
{
	page_free((*e >> PTE_PPN_SHIFT) << PAGE_SHIFT);
	*e = 0;
}

/* Frees the page tables of the user half (not the frames they mapped) and the root: the steps
 * of a process's end, all at once (a process whose making failed: a root and no more). */
void arch_aspace_free(uint64_t root)
{
	uint64_t pos = 0;

	while (!arch_aspace_free_step(root, &pos))
		;
}

/* arch_aspace_free_step's place: root entry i's middle table's entry j, as
 * i * (PT_ENTRIES + 1) + j, where j == PT_ENTRIES is the middle table itself. */
#define FREE_SCAN 32 /* entries looked at a step, at most */

bool arch_aspace_free_step(uint64_t root, uint64_t *pos)
{
	pte_t *pt = (pte_t *)arch_phys_to_virt(root);

	_Static_assert(GIGA_SHIFT - PT_INDEX_BITS == PAGE_SHIFT + PT_INDEX_BITS, "Sv39: 3 levels");
	for (int looked = 0; looked < FREE_SCAN; looked++) {
		uint64_t i = *pos / (PT_ENTRIES + 1), j = *pos % (PT_ENTRIES + 1);
		pte_t *mid;

		if (i >= KERNEL_HALF_FIRST) {
			page_free(root);
			return true;
		}
		if (!is_table(pt[i])) {
			*pos = (i + 1) * (PT_ENTRIES + 1);
			continue;
		}
		mid = table_at(pt[i]);
		(*pos)++;
		if (j == PT_ENTRIES) { /* its leaf tables are gone: the middle table goes */
			free_table_at(&pt[i]);
			return false;
		}
		if (is_table(mid[j])) {
			free_table_at(&mid[j]);
			return false;
		}
	}
	return false;
}

_Static_assert(ARCH_SATP_SV39(0) == SATP_MODE_SV39 && PAGE_SHIFT == 12, "ARCH_SATP_SV39");

void arch_aspace_kernel(void)
{
	if (csr_read(satp) != kernel_satp) {
		csr_write(satp, kernel_satp);
		sfence_vma_all();
	}
}

void arch_tlb_flush_local(void)
{
	sfence_vma_all();
}

void arch_aspace_deactivate(uint64_t root)
{
	if (csr_read(satp) == ARCH_SATP_SV39(root))
		arch_aspace_activate(0);
}
