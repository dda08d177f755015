/* aia.c: the Advanced Interrupt Architecture (RISC-V AIA 1.0), S-level only: each hart's IMSIC
 * interrupt file, and the supervisor APLIC domain in MSI delivery mode for the wired lines. It
 * implements struct irqchip for kernel/irq/ (which owns the line protocol) and gives the inline
 * operations of every interrupt (arch_irq_*, arch_types.h) their registers, as plic.c does on a
 * machine with a PLIC; probe.c picks one of the two from the device tree.
 *
 * How the line protocol maps onto the AIA is written beside the inline operations
 * (arch_types.h) and in docs/interrupts.md ("Two controllers"): line N is APLIC source N,
 * forwarded as an MSI of identity N + ARCH_AIA_LINE_ID into the S-level file of the one hart
 * its target register names (the line's affinity). Each hart's file has its table of
 * identities (imsic_id.h): the IPI's the tree names (riscv,ipi-id) and every line's are taken
 * on every hart at probe, so a line keeps its identity wherever it moves; a message-signalled
 * line's is taken on every hart while it is lent (below). Every hart's file enables the wired
 * lines' identities at bring-up and never changes them: a wired line is masked at the APLIC.
 * Message-signalled lines (PCI MSI and MSI-X, lent by irq_msi.c through the chip's msi_
 * operations) follow the wired ones: lines aplic_nsrc + 1 .. aplic_nsrc + msi_count, identity
 * line + ARCH_AIA_LINE_ID taken on every hart's file, so a line keeps its identity (its data)
 * wherever it moves and only the address changes. A device writes the identity straight into
 * a file, so a message-signalled line is masked in the file, and lazily (arch.h): its identity
 * stays enabled while it is bound, the claim takes it (arch_irq_claim's aia_msi_here, or
 * aia_claim_more) and masks nothing, and the ack's unmask finds it enabled and does nothing. A
 * message claimed while the line is not IDLE is held (aia_hold, in the top half on the line's
 * hart): the identity's enable bit cleared in the file and its pending bit set again; the
 * unmask that ends the state sets the enable bit again on the line's hart, through the CSRs
 * when it runs there and through an IPI (IPI_IRQ: arch_irq_sync_hart) when it runs elsewhere,
 * and the held message signals. A move: the device writes the old file until it is
 * reprogrammed, so the old hart keeps the identity enabled and sends what it claims there on
 * to the line's file (a store to its seteipnum), where the bit the line's state gives it
 * decides: delivered, or held pending until the ack. Each hart's wanted enable bits (msi_on)
 * are written under the BKL by any hart and put into the file by the hart itself.
 * IPIs, when every hart has a file and the boot arguments say ipi=imsic, are identity
 * ARCH_AIA_IPI_ID written into the target's seteipnum (one MMIO store, no SBI call:
 * aia_ipi_send); an idle target takes it without the BKL (aia_idle_external, which aia_probe
 * patches into the idle wait), a busy one by its claim (aia_take_ipi); its IPI wait lets it alone
 * through (aia_ipi_wait). ipi.c picks them. Not the default: QEMU 7.2's IMSIC, with one host
 * thread a hart, can lose a message that lands while the target hart's own access to its file
 * (a claim, an enable or pending bit) re-evaluates the file: the identity stays pending, the
 * hart's external interrupt low, until the file's next change (docs/interrupts.md). With IPIs
 * in the files that happens within seconds; under one thread (-icount, the benchmarks) never.
 *
 * The registers, modes and hart indices are set at probe time and read-only after. Every write
 * names one line (its sourcecfg or target word, or its number in setipnum and setienum), so
 * two harts may mask and unmask different lines at once without a lock; one line's state is
 * the interrupt layer's, under the BKL. Called at boot (probe, each hart's bring-up), from
 * the top half (the claim, aia_hold) and the acknowledgements (aia_unmask), any hart, and from
 * the idle wait (aia_idle_external, no lock held); interrupts masked. */
#include "arch.h"
#include "core/console.h"
#include "lib/fdt.h"
#include "core/hart.h"
#include "irq/irq.h"
#include "irq/irqchip.h"
#include "riscv.h"
#include "riscv_platform.h"
#include "imsic_id.h"
#include "core/platform.h"
#include "lib/kstring.h"
#include <tacet/abi.h>

/* APLIC domain registers (AIA 1.0, chapter 4) */
#define APLIC_DOMAINCFG     0x0000
#define APLIC_DOMAINCFG_IE  (1u << 8)
#define APLIC_DOMAINCFG_DM  (1u << 2) /* MSI delivery mode */
#define APLIC_SOURCECFG(n)  (0x0000 + 4 * (n))
#define APLIC_IN_CLRIP(n)   (0x1d00 + 4 * ((n) / 32)) /* read: 32 rectified inputs */
#define APLIC_SETIENUM      0x1edc
#define APLIC_SETIPNUM_LE   0x2000
#define APLIC_TARGET(n)     (0x3000 + 4 * (n))
#define APLIC_TARGET_HART   18 /* hart index at bits 31:18, guest 17:12, identity 10:0 */
#define APLIC_MAX_SOURCES   1024

/* The source modes (sourcecfg.SM) from a device tree's sense cell (1 edge rising, 2 falling,
 * 4 level high, 8 low): what the controller latches and what unmask re-pends. */
enum aplic_mode {
	APLIC_SM_INACTIVE = 0,
	APLIC_SM_EDGE_RISE = 4,
	APLIC_SM_EDGE_FALL = 5,
	APLIC_SM_LEVEL_HIGH = 6,
	APLIC_SM_LEVEL_LOW = 7,
};

/* IMSIC: the S-level file's registers, selected by siselect (CSR 0x150) and read or written
 * through sireg (0x151); the claim CSR stopei (0x15c) is arch_irq_claim's (arch_types.h) */
#define IMSIC_EIDELIVERY    0x70
#define IMSIC_EITHRESHOLD   0x72
#define IMSIC_EIP0          0x80
#define IMSIC_EIE0          0xc0
#define INTC_S_EXTERNAL     9

#define IMSIC_SETEIPNUM_LE  0x0 /* a file's first word: a store pends that identity */
#define IMSIC_FILE_SIZE     0x1000
#define IMSIC_RESERVED      8 /* a word of a file's page that reads 0 and ignores writes */
#define IMSIC_WORDS         ((IMSIC_IDS_MAX + 1) / 64) /* eip/eie words of 64 identities */
#define AIA_MSI_MAX         64 /* message-signalled lines: 768 bytes of histograms each */

static volatile uint8_t *aplic_base;
static volatile uint8_t *imsic_base; /* hart index i's file at page i */
static uint64_t imsic_size;
static uint32_t aplic_nsrc;   /* sources 1..aplic_nsrc */
static uint32_t imsic_nids;   /* identities 1..imsic_nids in each file */
static uint32_t imsic_ipi_id; /* the tree's riscv,ipi-id, 0: none */
static int hart_index[MAX_HARTS] = { [0 ... MAX_HARTS - 1] = -1 }; /* by logical hart id */
static struct imsic_ids hart_ids[MAX_HARTS]; /* each hart's file's identities, by logical id */
static uint8_t aplic_mode[APLIC_MAX_SOURCES]; /* enum aplic_mode, by line */
bool riscv_aia; /* read by arch_irq_claim (arch_types.h) */
unsigned int aia_wired_lines; /* aplic_nsrc, read by arch_irq_claim (arch_types.h) */
bool aia_ipi;   /* IPIs through the IMSIC: asked for, every hart has a file (read by ipi.c) */
static volatile uint32_t *ipi_reg[MAX_HARTS]; /* each hart's seteipnum, by logical hart id */
/* by logical hart id, each hart its own: its last claim took its IPI or sent a message on, and
 * found nothing more (aia_claim_more) */
static bool claim_took_ipi[MAX_HARTS];

static struct irqchip aia_chip; /* the operations, defined below */
static unsigned int msi_index(unsigned int irq);

static uint64_t imsic_pa;       /* hart index i's file at imsic_pa + i pages: an MSI address */
static uint32_t msi_count;      /* message-signalled lines aplic_nsrc + 1 .. + msi_count */
unsigned int aia_msi_lines;     /* msi_count, read by arch_irq_claim (arch_types.h) */
static uint64_t eie_fixed[IMSIC_WORDS]; /* every file's enables of the lines and the IPI */
/* By line - aplic_nsrc - 1, BKL: the hart whose file the line's device writes (its
 * affinity), and whether it is lent. */
static uint8_t msi_hart[AIA_MSI_MAX];
volatile uint32_t *aia_msi_claim[AIA_MSI_MAX]; /* the same hart's claim word (arch_types.h) */
static bool msi_lent[AIA_MSI_MAX];
/* By logical hart id: the message-signalled identities its file should enable (written under
 * the BKL, any hart, each word with one 64-bit store: the hart reads it without the lock; a
 * line is masked where its hart's bit is clear) and those whose pending bit it should drop
 * (atomic OR, exchanged by the hart), put into the file by arch_irq_sync_hart. */
static uint64_t msi_on[MAX_HARTS][IMSIC_WORDS];
static uint64_t msi_drop[MAX_HARTS][IMSIC_WORDS];

static volatile uint32_t *reg(uint32_t off)
{
	return (volatile uint32_t *)(aplic_base + off);
}

static void siselect_write(unsigned long sel, unsigned long v)
{
	csr_write(0x150, sel); /* siselect */
	csr_write(0x151, v);   /* sireg */
}

/* The S-level IMSIC: the one whose interrupts-extended names the harts' S external interrupt.
 * Its i-th pair is hart index i, the file at the i-th page of reg (QEMU's layout, and how the
 * APLIC's smsiaddrcfg numbers harts). Returns its node, or -1. */
static int imsic_probe(const struct fdt *fdt)
{
	for (int n = fdt_find_compatible(fdt, -1, "riscv,imsics"); n >= 0;
	     n = fdt_find_compatible(fdt, n, "riscv,imsics")) {
		uint32_t len;
		const uint8_t *ext = fdt_getprop(fdt, n, "interrupts-extended", &len);
		uint64_t pa;

		if (!ext || len < 8 || len % 8 || fdt_be32(ext + 4) != INTC_S_EXTERNAL ||
		    !fdt_node_is_enabled(fdt, n))
			continue;
		if (!fdt_prop_u32(fdt, n, "riscv,num-ids", &imsic_nids) ||
		    fdt_reg(fdt, n, 0, &pa, &imsic_size) < 0)
			return -2;
		if (!fdt_prop_u32(fdt, n, "riscv,ipi-id", &imsic_ipi_id))
			imsic_ipi_id = 0;
		for (uint32_t i = 0; i < len / 8; i++) {
			long hwid = riscv_intc_hartid(fdt, fdt_be32(ext + 8 * i));

			for (unsigned int h = 0; h < nharts; h++)
				if ((long)harts[h].hwid == hwid)
					hart_index[h] = (int)i;
		}
		if (imsic_size < (uint64_t)(len / 8) * IMSIC_FILE_SIZE)
			return -2;
		imsic_base = arch_map_device(pa, imsic_size);
		imsic_pa = pa;
		return n;
	}
	return -1;
}

/* Each source's mode from the sense cell of the devices that name it (default: level high,
 * QEMU virt's for every wired line, the PCI INTx lines included). */
static void aplic_modes(const struct fdt *fdt, uint32_t phandle)
{
	for (uint32_t n = 1; n <= aplic_nsrc; n++)
		aplic_mode[n] = APLIC_SM_LEVEL_HIGH;
	for (int n = fdt_next_node(fdt, fdt_root(fdt)); n >= 0; n = fdt_next_node(fdt, n)) {
		uint32_t len, parent;
		const uint8_t *irqs = fdt_getprop(fdt, n, "interrupts", &len);
		uint32_t line, sense;

		if (!irqs || len != 8 || !fdt_prop_u32(fdt, n, "interrupt-parent", &parent) ||
		    parent != phandle)
			continue;
		line = fdt_be32(irqs);
		sense = fdt_be32(irqs + 4);
		if (line < 1 || line > aplic_nsrc)
			continue;
		aplic_mode[line] = sense == 1   ? APLIC_SM_EDGE_RISE
				 : sense == 2 ? APLIC_SM_EDGE_FALL
				 : sense == 8 ? APLIC_SM_LEVEL_LOW
					      : APLIC_SM_LEVEL_HIGH;
	}
}

/* The supervisor APLIC domain whose MSIs go to the S-level IMSIC imsic. */
static int aplic_find(const struct fdt *fdt, int imsic)
{
	uint32_t want = 0, parent;

	fdt_prop_u32(fdt, imsic, "phandle", &want);
	for (int n = fdt_find_compatible(fdt, -1, "riscv,aplic"); n >= 0;
	     n = fdt_find_compatible(fdt, n, "riscv,aplic"))
		if (fdt_node_is_enabled(fdt, n) && fdt_prop_u32(fdt, n, "msi-parent", &parent) &&
		    parent == want)
			return n;
	return -1;
}

/* Each hart's table: the tree's IPI identity, the kernel's (the same on QEMU) and every line's
 * taken. False if the tree's counts do
 * not fit (identities the AIA does not allow, a line's identity past the file's last, or the
 * IPI's among the lines'). */
static bool imsic_tables(void)
{
	for (unsigned int h = 0; h < nharts; h++) {
		struct imsic_ids *ids = &hart_ids[h];

		if (hart_index[h] < 0)
			continue;
		if (imsic_ids_init(ids, imsic_nids) < 0 ||
		    (imsic_ipi_id && imsic_ids_reserve(ids, imsic_ipi_id) < 0))
			return false;
		if (!imsic_ids_taken(ids, ARCH_AIA_IPI_ID) &&
		    imsic_ids_reserve(ids, ARCH_AIA_IPI_ID) < 0)
			return false;
		for (uint32_t n = 1; n <= aplic_nsrc; n++)
			if (imsic_ids_reserve(ids, n + ARCH_AIA_LINE_ID) < 0)
				return false;
	}
	return true;
}

/* Every source of the domain inactive (masked: irq_init masks every line again), aimed at hart
 * 0's file; then the domain on, in MSI mode. */
static void aplic_setup(void)
{
	for (uint32_t n = 1; n <= aplic_nsrc; n++) {
		*reg(APLIC_SOURCECFG(n)) = APLIC_SM_INACTIVE;
		*reg(APLIC_TARGET(n)) =
			((uint32_t)hart_index[0] << APLIC_TARGET_HART) | (n + ARCH_AIA_LINE_ID);
	}
	*reg(APLIC_DOMAINCFG) = APLIC_DOMAINCFG_IE | APLIC_DOMAINCFG_DM;
}

extern char arch_idle_external_call[]; /* trap.S: arch_idle_wait's call of irq_external_idle */

/* The call (auipc ra, jalr ra) at `at` made one of `to`. Boot hart, before arch_vm_init makes
 * text read-only and before the other harts start (they fetch the new text). */
static void patch_call(char *at, void (*to)(void))
{
	long off = (long)((uintptr_t)to - (uintptr_t)at);
	uint32_t auipc = (uint32_t)((off + 0x800) & ~0xfffL) | 1u << 7 | 0x17;
	uint32_t jalr = (uint32_t)(off & 0xfff) << 20 | 1u << 15 | 1u << 7 | 0x67;
	volatile uint16_t *p = (volatile uint16_t *)at; /* 2-byte aligned: compressed code */

	p[0] = (uint16_t)auipc;
	p[1] = (uint16_t)(auipc >> 16);
	p[2] = (uint16_t)jalr;
	p[3] = (uint16_t)(jalr >> 16);
	__asm__ volatile("fence.i" : : : "memory");
}

/* The boot arguments ask for IPIs through the IMSIC (ipi=imsic). */
static bool ipi_asked(void)
{
	char arg[8];
	const char *v = platform_bootarg("ipi", arg, sizeof(arg));

	return v && strcmp(v, "imsic") == 0;
}

int aia_probe(const struct fdt *fdt)
{
	int imsic = imsic_probe(fdt), aplic;
	uint32_t phandle = 0;
	uint64_t pa, size;

	if (imsic == -1)
		return 0; /* no AIA: the PLIC's machine */
	aplic = imsic >= 0 ? aplic_find(fdt, imsic) : -1;
	if (imsic < 0 || aplic < 0 || fdt_reg(fdt, aplic, 0, &pa, &size) < 0 ||
	    !fdt_prop_u32(fdt, aplic, "riscv,num-sources", &aplic_nsrc) ||
	    aplic_nsrc >= APLIC_MAX_SOURCES || hart_index[0] < 0) {
		kprintf("tacet: bad device tree: malformed IMSIC or APLIC node\n");
		return -1;
	}
	if (aplic_nsrc + ARCH_AIA_LINE_ID > imsic_nids)
		aplic_nsrc = imsic_nids - ARCH_AIA_LINE_ID; /* no more lines than identities */
	if (!imsic_tables()) {
		kprintf("tacet: bad device tree: the IMSIC's identities (%u, IPI %u) do not fit %u "
			"lines\n", imsic_nids, imsic_ipi_id, aplic_nsrc);
		return -1;
	}
	fdt_prop_u32(fdt, aplic, "phandle", &phandle);
	aplic_modes(fdt, phandle);
	aplic_base = arch_map_device(pa, size);
	plic_priority_reg = reg(APLIC_SOURCECFG(0)); /* masking: sourcecfg 0 (arch_types.h) */
	/* plic_line_priority[] stays 0: unmasking is the AIA's (arch_types.h) */
	riscv_aia = true;
	aia_ipi = ipi_asked();
	for (unsigned int h = 0; h < nharts; h++) {
		if (hart_index[h] < 0)
			aia_ipi = false; /* a hart the IMSIC cannot reach would never be woken */
		else
			ipi_reg[h] = (volatile uint32_t *)(imsic_base + IMSIC_FILE_SIZE * hart_index[h] +
							   IMSIC_SETEIPNUM_LE);
	}
	aplic_setup();
	if (aia_ipi) /* an idle hart takes its IPI as the ACLINT's, without the BKL */
		patch_call(arch_idle_external_call, aia_idle_external);
	for (uint32_t id = 0; id <= imsic_nids; id += 64) /* the lines', and the IPIs': */
		eie_fixed[id / 64] = hart_ids[0].taken[id / 64] &
				     ~(imsic_ipi_id != ARCH_AIA_IPI_ID && imsic_ipi_id / 64 == id / 64
					       ? 1ULL << (imsic_ipi_id % 64)
					       : 0);
	msi_count = imsic_nids - ARCH_AIA_LINE_ID - aplic_nsrc;
	if (msi_count > AIA_MSI_MAX)
		msi_count = AIA_MSI_MAX;
	if (aplic_nsrc + msi_count >= APLIC_MAX_SOURCES) /* masking stores to sourcecfg[line] */
		msi_count = APLIC_MAX_SOURCES - 1 - aplic_nsrc;
	aia_wired_lines = aplic_nsrc;
	aia_msi_lines = msi_count;
	aia_chip.nr_irqs = aplic_nsrc;
	aia_chip.nr_msi = msi_count;
	irqchip_register(&aia_chip);
	return 1;
}

/* Hart h's claim word (struct arch_hart's irq_claim): a reserved word of its file, which reads
 * 0 and ignores writes. */
static volatile uint32_t *claim_word(unsigned int h)
{
	return (volatile uint32_t *)(imsic_base + IMSIC_FILE_SIZE * hart_index[h] + IMSIC_RESERVED);
}

/* Line irq's device writes hart h's file (BKL held): msi_hart, and the claim's copy. */
static void msi_set_hart(unsigned int irq, unsigned int h)
{
	msi_hart[msi_index(irq)] = (uint8_t)h;
	aia_msi_claim[msi_index(irq)] = claim_word(h);
}

/* This hart's file: delivery on, threshold 0 (every identity), nothing pending, the lines'
 * identities and the kernel's IPI's enabled (not the tree's IPI identity if it is another: no
 * one sends it); its claims go on to stopei
 * (struct arch_hart's irq_claim is the file's reserved word, which reads 0). On the hart
 * itself, at its bring-up. */
void aia_init_hart(struct hart *h)
{
	if (!aplic_base || hart_index[h->id] < 0)
		return;
	siselect_write(IMSIC_EIDELIVERY, 0);
	siselect_write(IMSIC_EITHRESHOLD, 0);
	for (uint32_t id = 0; id <= imsic_nids; id += 64) {
		siselect_write(IMSIC_EIP0 + id / 32, 0);
		siselect_write(IMSIC_EIE0 + id / 32, eie_fixed[id / 64]);
	}
	siselect_write(IMSIC_EIDELIVERY, 1);
	h->arch.irq_claim = claim_word(h->id);
}

/* IPIs through the IMSIC (ipi.c's arch_ipi_send when aia_ipi): the identity into the target
 * hart's file. Any hart, any context. */
void aia_ipi_send(const struct hart *target)
{
	/* the request words written before must be visible before the device store */
	__asm__ volatile("fence w, o" : : : "memory");
	*ipi_reg[target->id] = ARCH_AIA_IPI_ID;
}

static void msi_send_on(unsigned int irq);

/* The hold's mask of message-signalled line irq, claimed on its own hart me (aia_hold): its
 * enable bit cleared in this file and in msi_on. BKL held. */
static inline __attribute__((always_inline)) void msi_mask_here(unsigned int me, unsigned int irq)
{
	uint32_t id = irq + ARCH_AIA_LINE_ID;
	uint64_t bit = 1ULL << (id % 64), *want = &msi_on[me][id / 64];

	csr_write(0x150, IMSIC_EIE0 + 2 * (id / 64));
	csr_clear(0x151, bit);
	*(volatile uint64_t *)want = *want & ~bit; /* one store: the BKL orders the writers */
}

/* stopei swapped with zero: the top identity pending and enabled here, its pending bit
 * cleared (QEMU clears it on the write, not the read), as a line: the identity less
 * ARCH_AIA_LINE_ID (none pending: 0 - 1). */
static unsigned int imsic_claim(void)
{
	unsigned int irq;

	__asm__ volatile("csrrw %0, 0x15c, zero\n\tsrliw %0, %0, 16\n\taddiw %0, %0, %1"
			 : "=r"(irq)
			 : "i"(-ARCH_AIA_LINE_ID)
			 : "memory");
	return irq;
}

/* The claim found this hart's IPI ("line" 0): it is handled as the software interrupt's trap
 * would (hart_handle_ipi), with the scheduler pass that trap always makes (need_resched: the
 * external interrupt's ways out skip it otherwise), then the claim goes on. Returns the next
 * line (a message-signalled one through aia_claim_more), or none (0 - 1) with claim_took_ipi
 * set for the empty claim's account (aia_claim_took_ipi). Interrupts masked, BKL held (every
 * claim's caller). */
unsigned int aia_take_ipi(void)
{
	struct hart *me = this_hart();
	unsigned int irq;

	do {
		me->need_resched = true;
		hart_handle_ipi();
		irq = imsic_claim();
	} while (!irq);
	claim_took_ipi[me->id] = irq == (unsigned int)-ARCH_AIA_LINE_ID;
	/* above the wired lines but not none (0 - 1 + 1 is 0): a message-signalled line */
	return irq + 1 > aia_wired_lines + 1 ? aia_claim_more(irq) : irq;
}

/* aia_claim_more's rest: the claim took the message of a line routed to another hart (sent
 * before the line moved): sent on to the line's file (msi_send_on), and the claim goes on,
 * taking IPIs and sending on such messages, until a wired line, this hart's own message
 * (masked here) or nothing (claim_took_ipi set then, as aia_take_ipi does). */
static __attribute__((noinline)) unsigned int claim_rest(unsigned int irq)
{
	struct hart *me = this_hart();

	for (;;) {
		unsigned int i = irq - aplic_nsrc - 1;

		if (!irq) {
			me->need_resched = true;
			hart_handle_ipi();
		} else if (i < msi_count && msi_hart[i] != me->id) {
			msi_send_on(irq);
		} else {
			return irq;
		}
		irq = imsic_claim();
		claim_took_ipi[me->id] = irq == (unsigned int)-ARCH_AIA_LINE_ID;
	}
}

/* The claim (arch_irq_claim, aia_take_ipi) found what is neither a wired line nor this hart's
 * IPI: a message-signalled line's identity: on the line's own hart, the line, unmasked (an
 * edge: masked only if the top half holds it, aia_hold); on another, sent on to the line's
 * file, and the claim goes on (claim_rest); or nothing (0 - 1). Returns the next line, or
 * none. Interrupts masked, BKL held (every claim's caller). The common case, this hart's own
 * message, is a leaf. */
unsigned int aia_claim_more(unsigned int irq)
{
	unsigned int i = irq - aplic_nsrc - 1;

	if (i < msi_count && msi_hart[i] == this_hart()->id)
		return irq;
	return claim_rest(irq);
}

/* arch_idle_wait's call for an external interrupt alone when IPIs come through the IMSIC
 * (aia_probe patches its call of irq_external_idle into one of this): this hart's IPI, the top
 * identity whenever it is pending (identity 1: nothing outranks it, so the claim that follows
 * the look takes it), is taken as the ACLINT's software interrupt is, hart_handle_ipi() without
 * the BKL; anything else, or anything more, goes on to irq_external_idle. Idle, interrupts
 * masked, no lock held. */
void aia_idle_external(void)
{
	unsigned long top = csr_read(0x15c); /* stopei, read only: claims nothing */

	if (top >> 16 == ARCH_AIA_IPI_ID) {
		csr_write(0x15c, 0); /* the claim: identity 1's pending bit cleared */
		hart_handle_ipi();
		if (!arch_irq_external_pending())
			return;
	}
	irq_external_idle();
}

bool aia_claim_took_ipi(void)
{
	unsigned int id = this_hart()->id;
	bool took = claim_took_ipi[id];

	claim_took_ipi[id] = false;
	return took;
}

/* arch_ipi_wait on the IMSIC: asleep until this hart's IPI (a line's identity pending here does
 * not end it: the threshold lets the IPI's alone signal), or a software interrupt this hart
 * raised itself (arch_ipi_raise_self), both taken. Interrupts masked. */
void aia_ipi_wait(void)
{
	unsigned long enabled = csr_read(sie);

	siselect_write(IMSIC_EITHRESHOLD, ARCH_AIA_IPI_ID + 1);
	csr_write(sie, SIE_SSIE | SIE_SEIE);
	__asm__ volatile("wfi" : : : "memory");
	csr_write(sie, enabled);
	csr_write(0x150, IMSIC_EIP0); /* siselect: the IPI's pending bit, cleared */
	csr_clear(0x151, 1UL << ARCH_AIA_IPI_ID);
	siselect_write(IMSIC_EITHRESHOLD, 0);
	csr_clear(sip, SIP_SSIP);
}

static void msi_unmask(unsigned int irq);

/* Active again in its mode; pended if a level source asserts now (its MSI went out when it
 * fired, and QEMU's pending bit does not follow the input down, so it is never left set) or,
 * for an edge source, always (an edge that came while the line was inactive was ignored: the
 * pend stands for it); then enabled, and forwarded at once if pending. */
void aia_unmask(unsigned int irq)
{
	uint32_t mode = aplic_mode[irq];

	if (irq > aplic_nsrc) {
		msi_unmask(irq);
		return;
	}
	*reg(APLIC_SOURCECFG(irq)) = mode;
	if (mode == APLIC_SM_EDGE_RISE || mode == APLIC_SM_EDGE_FALL ||
	    (*reg(APLIC_IN_CLRIP(irq)) & (1u << (irq % 32))))
		*reg(APLIC_SETIPNUM_LE) = irq;
	*reg(APLIC_SETIENUM) = irq;
}

/* --- message-signalled lines --- */

static unsigned int msi_index(unsigned int irq)
{
	return irq - aplic_nsrc - 1;
}

static uint32_t msi_id(unsigned int irq)
{
	return irq + ARCH_AIA_LINE_ID;
}

/* This hart's file: its enables of the message-signalled identities as msi_on says, and the
 * pending bits msi_drop names cleared, each one that was set counted spurious. Interrupts
 * masked, on the hart itself; any lock or none (msi_on is read whole, each word once). */
void arch_irq_sync_hart(void)
{
	unsigned int me = this_hart()->id;
	uint32_t first = aplic_nsrc + 1 + ARCH_AIA_LINE_ID, last = first + msi_count - 1;

	if (!riscv_aia || hart_index[me] < 0)
		return;
	for (uint32_t w = first / 64; w <= last / 64; w++) {
		uint64_t drop = __atomic_exchange_n(&msi_drop[me][w], 0, __ATOMIC_ACQUIRE);
		uint64_t on = __atomic_load_n(&msi_on[me][w], __ATOMIC_ACQUIRE);

		siselect_write(IMSIC_EIE0 + 2 * w, eie_fixed[w] | on);
		if (drop) {
			unsigned int n = 0;

			csr_write(0x150, IMSIC_EIP0 + 2 * w);
			for (uint64_t held = csr_read(0x151) & drop; held; held &= held - 1)
				n++;
			csr_clear(0x151, drop);
			irq_spurious_add(n);
		}
	}
}

/* Line irq is enabled in hart h's file (not masked there). BKL held. */
static bool msi_enabled(unsigned int h, unsigned int irq)
{
	uint32_t id = msi_id(irq);

	return msi_on[h][id / 64] >> (id % 64) & 1;
}

/* Hart h's file is to enable (on) or not the identity of line irq: at once on this hart,
 * else at h's next IPI. BKL held. */
static void msi_enable_on(unsigned int h, unsigned int irq, bool on)
{
	uint32_t id = msi_id(irq);
	uint64_t bit = 1ULL << (id % 64), *want = &msi_on[h][id / 64];

	__atomic_thread_fence(__ATOMIC_RELEASE);
	*(volatile uint64_t *)want = on ? *want | bit : *want & ~bit; /* one store, as above */
	if (h == this_hart()->id) {
		csr_write(0x150, IMSIC_EIE0 + 2 * (id / 64));
		if (on)
			csr_set(0x151, bit);
		else
			csr_clear(0x151, bit);
	} else {
		hart_signal(&harts[h], IPI_IRQ);
	}
}

/* Unmask (aia_unmask's branch): enabled in its hart's file; held pending there, it signals.
 * Enabled already (nothing was held since the last unmask: the common ack), nothing to do. */
static void msi_unmask(unsigned int irq)
{
	unsigned int h = msi_hart[msi_index(irq)];

	if (!msi_enabled(h, irq))
		msi_enable_on(h, irq, true);
}

/* arch_irq_hold: message-signalled line irq, claimed on its own hart (claim_rest sends on the
 * others) while it was not IDLE: masked in this file (and in msi_on, so the next unmask
 * enables it again) and pending here again, for that unmask to deliver. More messages before
 * then set the same pending bit: one interrupt. In the top half, BKL held. */
void aia_hold(unsigned int irq)
{
	uint32_t id = msi_id(irq);

	msi_mask_here(this_hart()->id, irq);
	csr_write(0x150, IMSIC_EIP0 + 2 * (id / 64));
	csr_set(0x151, 1ULL << (id % 64));
}

/* The claim took line irq's identity on another hart than the line's (a message its device
 * sent before it was moved): sent on to the line's file, where the line's state decides
 * (delivered, or held until the ack). */
static void msi_send_on(unsigned int irq)
{
	__asm__ volatile("fence w, o" : : : "memory");
	*(volatile uint32_t *)(imsic_base + IMSIC_FILE_SIZE * hart_index[msi_hart[msi_index(irq)]] +
			       IMSIC_SETEIPNUM_LE) = msi_id(irq);
}

static uint64_t aia_msi_address(unsigned int irq, unsigned int hart)
{
	(void)irq;
	return imsic_pa + IMSIC_FILE_SIZE * (uint64_t)hart_index[hart] + IMSIC_SETEIPNUM_LE;
}

static long aia_msi_alloc(unsigned int hart, uint64_t *addr, uint32_t *data)
{
	unsigned int i, irq;

	if (hart_index[hart] < 0)
		return -TACET_EINVAL; /* no file there */
	for (i = 0; i < msi_count && msi_lent[i]; i++)
		;
	if (i == msi_count)
		return -TACET_ENOMEM;
	irq = aplic_nsrc + 1 + i;
	for (unsigned int h = 0; h < nharts; h++)
		if (hart_index[h] >= 0)
			imsic_ids_reserve(&hart_ids[h], msi_id(irq));
	msi_lent[i] = true;
	msi_set_hart(irq, hart);
	*addr = aia_msi_address(irq, hart);
	*data = msi_id(irq);
	return irq;
}

/* Disabled in every file, what is pending in any dropped (counted there). */
static void aia_msi_free(unsigned int irq)
{
	unsigned int i = msi_index(irq);
	uint32_t id = msi_id(irq);

	for (unsigned int h = 0; h < nharts; h++) {
		if (hart_index[h] < 0)
			continue;
		__atomic_fetch_or(&msi_drop[h][id / 64], 1ULL << (id % 64), __ATOMIC_RELAXED);
		msi_enable_on(h, irq, false);
		imsic_ids_free(&hart_ids[h], id);
	}
	arch_irq_sync_hart(); /* this hart's drop now (msi_enable_on left it to the sync) */
	msi_lent[i] = false;
}

/* The line's MSIs go to hart's file from the next one on: one in flight is already in the old
 * file, where that hart claims it, so none is lost. A message-signalled line: its device
 * writes the new file once reprogrammed (the caller's part); the old file keeps the identity
 * enabled meanwhile and sends on what it claims (claim_rest); the new one enables it if
 * the line is not masked (held). */
static void aia_set_affinity(unsigned int irq, unsigned int hart)
{
	unsigned int i = msi_index(irq), old;

	if (hart_index[hart] < 0)
		return;
	if (irq <= aplic_nsrc) {
		*reg(APLIC_TARGET(irq)) =
			((uint32_t)hart_index[hart] << APLIC_TARGET_HART) | (irq + ARCH_AIA_LINE_ID);
		return;
	}
	old = msi_hart[i];
	if (old == hart)
		return;
	msi_set_hart(irq, hart);
	if (msi_enabled(old, irq))
		msi_enable_on(hart, irq, true); /* not masked: enabled where it goes */
	msi_enable_on(old, irq, true);
}

/* An IMSIC orders identities by number, not by a programmable priority. */
static void aia_set_priority(unsigned int irq, unsigned int prio)
{
	(void)irq;
	(void)prio;
}

static struct irqchip aia_chip = {
	.name = "aia: aplic in msi mode, an imsic file a hart",
	.set_affinity = aia_set_affinity,
	.set_priority = aia_set_priority,
	.msi_alloc = aia_msi_alloc,
	.msi_address = aia_msi_address,
	.msi_free = aia_msi_free,
};
