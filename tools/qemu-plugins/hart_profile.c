/* hart_profile.c: a QEMU TCG plugin that profiles one hart by instruction address over one
 * stretch a benchmark server marks (hart_split.h's START and END, as hart_split.c counts them):
 * for each address the hart executed in stretch K, how many times. tools/hartprof.py runs it
 * and names the addresses (user code from the component's ELF, the kernel's from its own).
 *
 * How: every translation block gets a callback with its instructions' addresses; while stretch
 * K is open and the block runs on vCPU HART, the block's count goes up by one. Addresses of
 * other processes on the same hart would be counted with the component's: hartprof.py is for
 * benchmarks that give each component a hart of its own (udp_echo's UDP_SPLIT).
 *
 * Output at exit into out=PATH: one line per address executed, `ADDRESS COUNT` (hex, decimal).
 * Usage: -plugin build/hart_profile.so,out=PATH,hart=N,stretch=K
 * One thread runs every callback (-icount): no locking. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define HART_SPLIT_PLUGIN
#include "hart_split.h"

#include "qemu_plugin_api.h"

#define SLTI_X0(n) (((uint32_t)(n) << 20) | (2u << 12) | 0x13u)

struct block {
	struct block *next; /* every block translated, for the output */
	uint64_t count;
	size_t n;
	uint64_t va[];
};

static struct block *blocks;
static const char *out_path;
static unsigned long hart, stretch;
static unsigned long started; /* START markers executed */
static bool open_stretch;

static void block_exec(unsigned int vcpu, void *udata)
{
	struct block *b = udata;

	if (open_stretch && vcpu == hart && started == stretch + 1)
		b->count++;
}

static void marker_exec(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	if (udata) {
		started++;
		open_stretch = true;
	} else {
		open_stretch = false;
	}
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct block *b = calloc(1, sizeof(*b) + n * sizeof(b->va[0]));

	(void)id;
	if (!b)
		return;
	b->n = n;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint32_t word = 0;

		b->va[i] = qemu_plugin_insn_vaddr(insn);
		if (qemu_plugin_insn_size(insn) == 4)
			memcpy(&word, qemu_plugin_insn_data(insn), 4);
		if (word == SLTI_X0(HART_SPLIT_START) || word == SLTI_X0(HART_SPLIT_END))
			qemu_plugin_register_vcpu_insn_exec_cb(
				insn, marker_exec, QEMU_PLUGIN_CB_NO_REGS,
				word == SLTI_X0(HART_SPLIT_START) ? (void *)1 : NULL);
	}
	b->next = blocks;
	blocks = b;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, block_exec, QEMU_PLUGIN_CB_NO_REGS, b);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	FILE *f = fopen(out_path, "w");

	(void)id;
	(void)udata;
	if (!f) {
		qemu_plugin_outs("hart_profile: cannot write the output file\n");
		return;
	}
	for (struct block *b = blocks; b; b = b->next)
		for (size_t i = 0; b->count && i < b->n; i++)
			fprintf(f, "%" PRIx64 " %" PRIu64 "\n", b->va[i], b->count);
	fclose(f);
}

int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	(void)info;
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4) && argv[i][4]) {
			out_path = argv[i] + 4;
		} else if (!strncmp(argv[i], "hart=", 5)) {
			hart = strtoul(argv[i] + 5, NULL, 0);
		} else if (!strncmp(argv[i], "stretch=", 8)) {
			stretch = strtoul(argv[i] + 8, NULL, 0);
		} else {
			qemu_plugin_outs("hart_profile: unknown argument "
					 "(out=PATH,hart=N,stretch=K)\n");
			return -1;
		}
	}
	if (!out_path) {
		qemu_plugin_outs("hart_profile: say out=PATH\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
