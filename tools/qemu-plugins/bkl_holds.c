/* bkl_holds.c: a QEMU TCG plugin that measures the test kernel's BKL holds per hart, in the
 * instructions each hart itself retires (docs/benchmarks.md, "BKL holds per hart").
 *
 * Why: under -icount the cycle counter the kernel reads is one count of every hart's retired
 * instructions, and QEMU 7.2 runs the harts round robin on one host thread, switching when a
 * hart waits (wfi) or its slice ends at the next timer deadline. A slice that ends while a hart
 * holds the BKL lets the other harts run their turns, user code included, and all of it lands in
 * the holder's measured hold (kernel/core/bkl.h). The kernel cannot see those turns; QEMU 7.2
 * has no per-hart instruction counter to read. This plugin counts each vCPU's own instructions.
 *
 * How: the test kernel (build/test/kernel.bin) marks where a hold's stretch starts, ends, ends
 * and starts again (bkl_yield keeping the lock), and where a hart's longest stretch starts to
 * count (sched_start_hart): one HINT instruction each, `slti x0, x0, N`
 * (kernel/test/ktest_marks.h). At translation every instruction whose bytes are a marker gets an
 * execution callback; every other instruction an inline add to one counter of instructions
 * executed, and every translation block a callback naming the vCPU that runs it. Under -icount
 * QEMU runs one vCPU at a time on one thread (QEMU refuses MTTCG with icount), so what the
 * counter gained since the last block callback belongs to the vCPU that ran that block: each
 * vCPU's count is exact at every marker, whatever the position of the marker in its block. An
 * instruction that leaves its block early is counted once: an MMIO access that QEMU replays as
 * a block of its own under -icount (that block is translated for memory callbacks only, so
 * neither its inline add nor its block callback exist), or one that takes an exception (counted
 * though it does not retire: one instruction more per fault). A count of whole blocks at their
 * start would count the rest of each such block twice: over a stress_procs boot, 1,078,289
 * instructions more than were executed.
 *
 * Output, at QEMU's exit, into the file given as out=PATH: one line per vCPU
 *   vcpu=I longest=N stretches=N from=0xADDR to=0xADDR retired=N open=0|1 anomalies=N
 * longest: the most instructions the vCPU retired itself from a start marker to the next end
 * marker, counted from its last reset marker; stretches: how many ended since then; from/to:
 * the addresses of that stretch's start and end markers (bkl_unlock is inline: its address is
 * the release's caller); retired: all the vCPU retired (marker instructions included); open: a
 * stretch still open at exit; anomalies: an end without a start, or a start while open (0 in a
 * kernel whose markers are right). With detail=on, then, for each vCPU's longest stretch, one
 *   path vcpu=I tb=0xADDR runs=N
 * line per translation block it ran (the block holding the start marker excepted): where the
 * hold went (look the addresses up in build/test/kernel.syms).
 *
 * Usage: qemu-system-riscv64 -icount shift=0,... -plugin build/bkl_holds.so,out=PATH ...
 * Built by the Makefile with the host cc (-shared -fPIC). QEMU 7.2 as Debian ships it supports
 * plugins but ships no header: the API's declarations are the repository's own
 * (qemu_plugin_api.h). */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../kernel/test/ktest_marks.h"

#include "qemu_plugin_api.h"

/* --- the markers --- */
/* `slti x0, x0, n`: imm[11:0] rs1=x0 funct3=010 (SLTI) rd=x0 opcode=0010011 (OP-IMM) */
#define SLTI_X0(n) (((uint32_t)(n) << 20) | (2u << 12) | 0x13u)

enum kind { MARK_RESET, MARK_START, MARK_END, MARK_RESTART };

/* A marker's place in the kernel, kept for as long as QEMU runs (its callback's data). */
struct site {
	uint64_t vaddr;
	enum kind kind;
};

#define MAX_SITES 1024
static struct site sites[MAX_SITES];
static unsigned int nsites;

/* detail=on: the start addresses of the translation blocks a stretch ran, in order (at most
 * PATH_MAX_TBS; the block that holds the start marker is not among them). */
#define PATH_MAX_TBS (1u << 18)
struct path {
	uint64_t *tb;
	size_t len;
	bool cut; /* longer than PATH_MAX_TBS */
};

#define MAX_VCPUS 64
struct vcpu {
	uint64_t retired;    /* what this vCPU retired, as of the last crediting */
	uint64_t since;      /* retired at the open stretch's start marker */
	bool open;           /* a stretch is open */
	uint64_t longest;    /* the longest stretch since the last reset marker */
	uint64_t stretches;  /* stretches ended since the last reset marker */
	uint64_t from, to;   /* the longest's start and end markers' addresses */
	uint64_t open_from;  /* the open stretch's start marker's address */
	uint64_t anomalies;  /* end without start, start while open */
	struct path cur, best; /* detail=on: the blocks the open and the longest stretch ran */
};
static struct vcpu vcpus[MAX_VCPUS];
static unsigned int nvcpus;  /* the highest vCPU index seen + 1 */
static bool too_many_vcpus;

/* Every instruction executed (but the markers, which their callback counts), all vCPUs: the
 * inline adds' counter. One thread runs every vCPU under -icount: no two write it at once. */
static uint64_t executed;
static uint64_t credited;   /* executed when the running vCPU was last credited */
static unsigned int running; /* the vCPU that executed what executed - credited holds */

static const char *out_path;
static bool detail;

/* vcpu runs now: what the counter gained since the last crediting was the previous runner's. */
static inline struct vcpu *credit(unsigned int vcpu)
{
	vcpus[running].retired += executed - credited;
	credited = executed;
	if (vcpu >= MAX_VCPUS) {
		too_many_vcpus = true;
		vcpu = 0; /* reported at exit; the counts are then meaningless */
	}
	if (vcpu >= nvcpus)
		nvcpus = vcpu + 1;
	running = vcpu;
	return &vcpus[vcpu];
}

static void tb_exec(unsigned int vcpu, void *udata)
{
	struct vcpu *c = credit(vcpu);

	if (detail && c->open) {
		if (!c->cur.tb)
			c->cur.tb = malloc(PATH_MAX_TBS * sizeof(uint64_t));
		if (c->cur.tb && c->cur.len < PATH_MAX_TBS)
			c->cur.tb[c->cur.len++] = (uint64_t)(uintptr_t)udata;
		else
			c->cur.cut = true;
	}
}

static void stretch_end(struct vcpu *c, uint64_t at, uint64_t vaddr)
{
	uint64_t len;

	if (!c->open) {
		c->anomalies++;
		return;
	}
	len = at - c->since;
	c->open = false;
	c->stretches++;
	if (len > c->longest) {
		struct path p = c->best;

		c->longest = len;
		c->from = c->open_from;
		c->to = vaddr;
		c->best = c->cur;
		c->cur = p;
	}
}

static void stretch_start(struct vcpu *c, uint64_t at, uint64_t vaddr)
{
	if (c->open)
		c->anomalies++;
	c->open = true;
	c->since = at;
	c->open_from = vaddr;
	c->cur.len = 0;
	c->cur.cut = false;
}

static void marker_exec(unsigned int vcpu, void *udata)
{
	const struct site *s = udata;
	struct vcpu *c = credit(vcpu);
	uint64_t at = c->retired; /* what this vCPU retired before the marker */

	c->retired++; /* the marker itself (it has no inline add) */
	switch (s->kind) {
	case MARK_RESET:
		c->longest = c->stretches = 0;
		c->from = c->to = 0;
		break;
	case MARK_START:
		stretch_start(c, at, s->vaddr);
		break;
	case MARK_END:
		stretch_end(c, at, s->vaddr);
		break;
	case MARK_RESTART:
		stretch_end(c, at, s->vaddr);
		stretch_start(c, at, s->vaddr);
		break;
	}
}

/* The marker an instruction is, or -1. */
static int marker_kind(const struct qemu_plugin_insn *insn)
{
	uint32_t word;

	if (qemu_plugin_insn_size(insn) != 4)
		return -1;
	memcpy(&word, qemu_plugin_insn_data(insn), 4); /* RISC-V: little-endian, as the host */
	if (word == SLTI_X0(KTEST_MARK_HOLD_RESET))
		return MARK_RESET;
	if (word == SLTI_X0(KTEST_MARK_HOLD_START))
		return MARK_START;
	if (word == SLTI_X0(KTEST_MARK_HOLD_END))
		return MARK_END;
	if (word == SLTI_X0(KTEST_MARK_HOLD_RESTART))
		return MARK_RESTART;
	return -1;
}

/* The site of a marker (the same one each time its code is translated again). */
static struct site *site_of(uint64_t vaddr, enum kind kind)
{
	static struct site overflow[4];

	for (unsigned int i = 0; i < nsites; i++)
		if (sites[i].vaddr == vaddr && sites[i].kind == kind)
			return &sites[i];
	if (nsites == MAX_SITES) {
		overflow[kind].kind = kind; /* counted all the same, its address unknown */
		return &overflow[kind];
	}
	sites[nsites].vaddr = vaddr;
	sites[nsites].kind = kind;
	return &sites[nsites++];
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_cb(
		tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
		(void *)(uintptr_t)(n ? qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, 0)) : 0));
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		int kind = marker_kind(insn);

		if (kind < 0)
			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
								   &executed, 1);
		else
			qemu_plugin_register_vcpu_insn_exec_cb(
				insn, marker_exec, QEMU_PLUGIN_CB_NO_REGS,
				site_of(qemu_plugin_insn_vaddr(insn), (enum kind)kind));
	}
}

static int by_address(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* detail=on: the blocks of a vCPU's longest stretch, each with how often it ran. */
static void write_path(FILE *f, unsigned int v, struct path *p)
{
	if (p->cut)
		fprintf(f, "path vcpu=%u cut after %zu blocks\n", v, p->len);
	qsort(p->tb, p->len, sizeof(uint64_t), by_address);
	for (size_t i = 0, j; i < p->len; i = j) {
		for (j = i; j < p->len && p->tb[j] == p->tb[i]; j++)
			;
		fprintf(f, "path vcpu=%u tb=%#" PRIx64 " runs=%zu\n", v, p->tb[i], j - i);
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	FILE *f = fopen(out_path, "w");

	(void)id;
	(void)udata;
	credit(running);
	if (!f) {
		qemu_plugin_outs("bkl_holds: cannot write the output file\n");
		return;
	}
	fprintf(f, "# bkl_holds: per vCPU, the instructions it retired itself in its longest BKL "
		   "hold stretch (tools/qemu-plugins/bkl_holds.c)\n");
	if (too_many_vcpus)
		fprintf(f, "error: more than %d vCPUs\n", MAX_VCPUS);
	if (nsites == MAX_SITES)
		fprintf(f, "error: more than %d marker sites\n", MAX_SITES);
	for (unsigned int v = 0; v < nvcpus; v++) {
		const struct vcpu *c = &vcpus[v];

		fprintf(f,
			"vcpu=%u longest=%" PRIu64 " stretches=%" PRIu64 " from=%#" PRIx64
			" to=%#" PRIx64 " retired=%" PRIu64 " open=%d anomalies=%" PRIu64 "\n",
			v, c->longest, c->stretches, c->from, c->to, c->retired, c->open,
			c->anomalies);
	}
	if (detail)
		for (unsigned int v = 0; v < nvcpus; v++)
			write_path(f, v, &vcpus[v].best);
	fclose(f);
}

int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	(void)info;
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4) && argv[i][4]) {
			out_path = argv[i] + 4;
		} else if (!strcmp(argv[i], "detail=on")) {
			detail = true;
		} else if (!strcmp(argv[i], "detail=off")) {
			detail = false;
		} else {
			qemu_plugin_outs("bkl_holds: unknown argument (say out=PATH[,detail=on])\n");
			return -1;
		}
	}
	if (!out_path) {
		qemu_plugin_outs("bkl_holds: say out=PATH\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
