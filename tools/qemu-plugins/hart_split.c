/* hart_split.c: a QEMU TCG plugin that splits a benchmark's instructions by hart and by
 * privilege: between a server's markers (hart_split.h: START, END; any hart may run them) it
 * counts what each vCPU retired in user code, in the kernel and in the firmware (OpenSBI), by the
 * address of each instruction: the kernel runs in the upper half of Sv39 (KERNEL_VA), the
 * firmware at FW_BASE..FW_END, user code anywhere else. With each component of a benchmark on a
 * hart of its own, a hart's user count is that component's (docs/benchmarks.md, "UDP echo").
 *
 * How (as bkl_holds.c, whose reasoning holds here): under -icount one host thread runs the vCPUs
 * in turn; every instruction but a marker gets an inline add to its class's counter, every
 * translation block a callback that credits what the counters gained since the last one to the
 * vCPU that ran it; a marker credits and then snapshots (START) or records (END) every vCPU.
 *
 * Output at exit into out=PATH: per END marker K (0, 1, ...) and vCPU I,
 *   stretch=K vcpu=I user=N kernel=N firmware=N
 * Usage: qemu-system-riscv64 -icount shift=0,... -plugin build/hart_split.so,out=PATH ...
 * One thread runs every callback (-icount): no locking. */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#define HART_SPLIT_PLUGIN
#include "hart_split.h"

#include "qemu_plugin_api.h"

#define SLTI_X0(n) (((uint32_t)(n) << 20) | (2u << 12) | 0x13u)
#define KERNEL_VA  0xffffffc000000000ull
#define FW_BASE    0x80000000ull
#define FW_END     0x80200000ull /* where the kernel's image starts: OpenSBI's below it */

enum class { USER, KERNEL, FIRMWARE, NCLASS };
static const char *const class_name[NCLASS] = { "user", "kernel", "firmware" };

#define MAX_VCPUS    16
#define MAX_STRETCH  16
static uint64_t executed[NCLASS], credited[NCLASS];
static uint64_t retired[MAX_VCPUS][NCLASS], since[MAX_VCPUS][NCLASS];
static uint64_t result[MAX_STRETCH][MAX_VCPUS][NCLASS];
static unsigned int running, nvcpus, nstretches;
static bool open_stretch, overflow;
static const char *out_path;

static void credit(unsigned int vcpu)
{
	for (int c = 0; c < NCLASS; c++) {
		retired[running][c] += executed[c] - credited[c];
		credited[c] = executed[c];
	}
	if (vcpu >= MAX_VCPUS) {
		overflow = true;
		vcpu = 0;
	}
	if (vcpu >= nvcpus)
		nvcpus = vcpu + 1;
	running = vcpu;
}

static void tb_exec(unsigned int vcpu, void *udata)
{
	(void)udata;
	credit(vcpu);
}

static void marker_exec(unsigned int vcpu, void *udata)
{
	bool start = udata != NULL;

	credit(vcpu);
	retired[vcpu < MAX_VCPUS ? vcpu : 0][USER]++; /* the marker: user code */
	if (start) {
		memcpy(since, retired, sizeof(since));
		open_stretch = true;
		return;
	}
	if (!open_stretch || nstretches == MAX_STRETCH) {
		overflow = true;
		return;
	}
	for (unsigned int v = 0; v < MAX_VCPUS; v++)
		for (int c = 0; c < NCLASS; c++)
			result[nstretches][v][c] = retired[v][c] - since[v][c];
	nstretches++;
	open_stretch = false;
}

static enum class class_of(uint64_t va)
{
	if (va >= KERNEL_VA)
		return KERNEL;
	return va >= FW_BASE && va < FW_END ? FIRMWARE : USER;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS, NULL);
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t va = qemu_plugin_insn_vaddr(insn);
		uint32_t word = 0;

		if (qemu_plugin_insn_size(insn) == 4)
			memcpy(&word, qemu_plugin_insn_data(insn), 4);
		if (word == SLTI_X0(HART_SPLIT_START) || word == SLTI_X0(HART_SPLIT_END))
			qemu_plugin_register_vcpu_insn_exec_cb(
				insn, marker_exec, QEMU_PLUGIN_CB_NO_REGS,
				word == SLTI_X0(HART_SPLIT_START) ? (void *)1 : NULL);
		else
			qemu_plugin_register_vcpu_insn_exec_inline(
				insn, QEMU_PLUGIN_INLINE_ADD_U64, &executed[class_of(va)], 1);
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	FILE *f = fopen(out_path, "w");

	(void)id;
	(void)udata;
	credit(running);
	if (!f) {
		qemu_plugin_outs("hart_split: cannot write the output file\n");
		return;
	}
	fprintf(f, "# hart_split: per measured stretch and vCPU, the instructions retired by class "
		   "(tools/qemu-plugins/hart_split.c)\n");
	if (overflow)
		fprintf(f, "error: too many vCPUs or stretches, or an END without a START\n");
	for (unsigned int k = 0; k < nstretches; k++)
		for (unsigned int v = 0; v < nvcpus; v++) {
			fprintf(f, "stretch=%u vcpu=%u", k, v);
			for (int c = 0; c < NCLASS; c++)
				fprintf(f, " %s=%" PRIu64, class_name[c], result[k][v][c]);
			fprintf(f, "\n");
		}
	fclose(f);
}

int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	(void)info;
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4) && argv[i][4]) {
			out_path = argv[i] + 4;
		} else {
			qemu_plugin_outs("hart_split: unknown argument (say out=PATH)\n");
			return -1;
		}
	}
	if (!out_path) {
		qemu_plugin_outs("hart_split: say out=PATH\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
