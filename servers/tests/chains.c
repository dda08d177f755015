/* chains.c: what the chain servers share (chains.h): verdicts, the memory check, thread counts,
 * chain_code, the program every process of a process chain runs, and the chains' building and
 * end (which the stress benchmarks' stress_chains and stress_procs use too, servers/bench). */
#include <stdio.h>
#include <string.h>
#include "chains.h"

int chains_failed;

/* The tester maps the code page here in itself, to fill it. */
#define FILL_VA 0x0000002100000000ul

/*
 * chain_code: one level of a process chain. Position-independent, no stack, no data but its
 * name; copied onto one page, mapped at CHAIN_VA in every level. a0 = the levels still to make
 * below this one (bits 0..31) | CHAIN_FAULTS.
 *
 * A level with levels to make creates the next one in CHAIN_SLOT_CHILD (in a fault chain with
 * its own endpoint in CHAIN_SLOT_FAULT as the child's fault endpoint), maps this code there,
 * gives it CODE, BLOCK and READY and starts its thread, at this thread's priority and hart,
 * with one level less. Then, in a plain chain, it waits on BLOCK for ever; in a fault chain it
 * receives its child's fault and faults itself (a load from address 0), so that its parent
 * receives it, and so on up to the tester. The bottom level of a plain chain signals READY
 * (READY_DONE) and waits; that of a fault chain faults at once. Any system call that fails
 * signals READY_FAILED and exits.
 */
_Static_assert(TACET_SYS_EXIT == 2 && TACET_SYS_RECV == 5 && TACET_SYS_SIGNAL == 8 &&
	       TACET_SYS_WAIT == 9 && TACET_SYS_CAP_GIVE == 14 && TACET_SYS_ENDPOINT_NEW == 15 &&
	       TACET_SYS_MAP == 18 && TACET_SYS_PROCESS_NEW == 20 && TACET_SYS_THREAD_NEW == 21 &&
	       TACET_SYS_SELF == 34, "chain_code's call numbers");
_Static_assert(CHAIN_SLOT_CODE == 1 && CHAIN_SLOT_BLOCK == 2 && CHAIN_SLOT_READY == 3 &&
	       CHAIN_SLOT_CHILD == 4 && CHAIN_SLOT_FAULT == 5, "chain_code's slots");
_Static_assert(CHAIN_VA == 0x10000 && TACET_LABEL_FAULT == 0xfa17 && READY_DONE == 1 &&
	       READY_FAILED == 2 && (TACET_RIGHT_READ | TACET_MAP_EXEC) == 9, "chain_code's constants");
extern const char chain_code[], chain_code_end[];
__asm__(".pushsection .text\n"
	".globl chain_code, chain_code_end\n"
	"chain_code:\n"
	"	mv	s0, a0\n"
	"	slli	s1, a0, 32\n"
	"	srli	s1, s1, 32\n"       /* s1: levels to make below */
	"	srli	s2, a0, 32\n"       /* s2: a fault chain */
	"	li	a7, 34\n"           /* SELF: a1 = hart, a2 = priority */
	"	ecall\n"
	"	slli	a1, a1, 8\n"
	"	or	s3, a2, a1\n"       /* s3: TACET_SCHED(priority, hart) for the child */
	"	beqz	s1, 5f\n"
	"	li	s4, 0\n"            /* s4: the child's fault endpoint */
	"	beqz	s2, 1f\n"
	"	li	a0, 5\n"
	"	li	a7, 15\n"           /* ENDPOINT_NEW(FAULT) */
	"	ecall\n"
	"	bnez	a0, 9f\n"
	"	li	s4, 5\n"
	"1:	li	a0, 4\n"
	"	mv	a1, s4\n"
	"	lla	a2, chain_code_name\n"
	"	li	a3, 0\n"
	"	li	a4, 0\n"
	"	li	a7, 20\n"           /* PROCESS_NEW(CHILD, s4, name, 0, 0) */
	"	ecall\n"
	"	bnez	a0, 9f\n"
	"	li	a0, 4\n"
	"	li	a1, 1\n"
	"	li	a2, 0x10000\n"
	"	li	a3, 9\n"
	"	li	a7, 18\n"           /* MAP(CHILD, CODE, CHAIN_VA, READ | EXEC) */
	"	ecall\n"
	"	bnez	a0, 9f\n"
	"	li	a0, 4\n"
	"	li	a1, 1\n"
	"	li	a2, 1\n"
	"	li	a3, 7\n"
	"	li	a7, 14\n"           /* CAP_GIVE(CHILD, CODE, CODE, all) */
	"	ecall\n"
	"	bnez	a0, 9f\n"
	"	li	a0, 4\n"
	"	li	a1, 2\n"
	"	li	a2, 2\n"
	"	li	a3, 1\n"
	"	li	a7, 14\n"           /* CAP_GIVE(CHILD, BLOCK, BLOCK, READ) */
	"	ecall\n"
	"	bnez	a0, 9f\n"
	"	li	a0, 4\n"
	"	li	a1, 3\n"
	"	li	a2, 3\n"
	"	li	a3, 2\n"
	"	li	a7, 14\n"           /* CAP_GIVE(CHILD, READY, READY, WRITE) */
	"	ecall\n"
	"	bnez	a0, 9f\n"
	"	li	a0, 4\n"
	"	li	a1, 0\n"
	"	li	a2, 0x10000\n"
	"	li	a3, 0\n"
	"	addi	a4, s0, -1\n"
	"	mv	a5, s3\n"
	"	li	a7, 21\n"           /* THREAD_NEW(CHILD, 0, CHAIN_VA, 0, a0 - 1, s3) */
	"	ecall\n"
	"	bltz	a0, 9f\n"
	"	beqz	s2, 6f\n"
	"	li	a0, 5\n"
	"	li	a1, 0\n"
	"	li	a7, 5\n"            /* RECV(FAULT, 0): the child's fault */
	"	ecall\n"
	"	bnez	a0, 9f\n"
	"	srli	a1, a1, 16\n"
	"	li	t0, 0xfa17\n"
	"	bne	a1, t0, 9f\n"
	"	ld	t0, 0(zero)\n"      /* fault in turn */
	"	j	9f\n"
	"5:	beqz	s2, 2f\n"
	"	ld	t0, 0(zero)\n"      /* the bottom of a fault chain faults first */
	"	j	9f\n"
	"2:	li	a0, 3\n"
	"	li	a1, 1\n"
	"	li	a7, 8\n"            /* SIGNAL(READY, READY_DONE); no READY: an error, ignored */
	"	ecall\n"
	"6:	li	a0, 2\n"
	"	li	a7, 9\n"            /* WAIT(BLOCK), for ever */
	"	ecall\n"
	"	bgez	a0, 6b\n"
	"9:	li	a0, 3\n"
	"	li	a1, 2\n"
	"	li	a7, 8\n"            /* SIGNAL(READY, READY_FAILED) */
	"	ecall\n"
	"	li	a0, 1\n"
	"	li	a7, 2\n"            /* EXIT(1) */
	"	ecall\n"
	"	j	9b\n"
	"	.balign 16\n"
	"chain_code_name:\n"
	"	.asciz \"" CHAIN_NAME "\"\n"
	"	.balign 16\n"
	"	.zero 16\n"                 /* PROCESS_NEW reads 15 bytes of name */
	"chain_code_end:\n"
	".popsection\n");

const char *verdict(int ok)
{
	chains_failed |= !ok;
	return ok ? "PASS" : "FAIL";
}

void mem_snapshot(struct tacet_mem_info *m)
{
	if (tacet_info(TACET_INFO_MEM, 0, m, sizeof(*m)) < 0)
		memset(m, 0, sizeof(*m));
}

/* As init's leak check: the object caches keep their pages, so those count as free. */
void mem_check(const char *who, const struct tacet_mem_info *before)
{
	struct tacet_mem_info after;

	mem_snapshot(&after);
	printf("%s: memory back: free pages %lu -> %lu (object caches %lu -> %lu), kernel objects "
	       "%lu -> %lu: %s\n", who, before->free_pages, after.free_pages,
	       before->kernel_object_pages, after.kernel_object_pages, before->kernel_objects,
	       after.kernel_objects,
	       verdict(before->free_pages + before->kernel_object_pages ==
			       after.free_pages + after.kernel_object_pages &&
		       before->kernel_objects == after.kernel_objects));
}

unsigned long chain_threads(unsigned int state, unsigned long *in_state)
{
	struct tacet_thread_info ti;
	unsigned long n = 0;

	*in_state = 0;
	for (unsigned long i = 0; tacet_info(TACET_INFO_THREAD, i, &ti, sizeof(ti)) > 0; i++) {
		if (strncmp(ti.process, CHAIN_NAME, sizeof(ti.process)))
			continue;
		n++;
		*in_state += ti.state == state;
	}
	return n;
}

long chains_setup(void)
{
	long err = tacet_frame_new(SLOT_CODE, 1);

	if (!err)
		err = tacet_map(TACET_CHILD_SELF, SLOT_CODE, FILL_VA,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (!err) {
		memcpy((void *)FILL_VA, chain_code, (size_t)(chain_code_end - chain_code));
		err = tacet_unmap(TACET_CHILD_SELF, FILL_VA, 1);
	}
	if (!err)
		err = tacet_ntfn_new(SLOT_BLOCK);
	if (!err)
		err = tacet_ntfn_new(SLOT_READY);
	if (!err)
		err = tacet_ntfn_new(SLOT_WATCH);
	return err;
}

long chain_process_new(unsigned long dst, unsigned long fault_ep, int ready)
{
	long err = tacet_process_new(dst, fault_ep, CHAIN_NAME, 0);

	if (!err)
		err = tacet_map(dst, SLOT_CODE, CHAIN_VA, TACET_RIGHT_READ | TACET_MAP_EXEC);
	if (!err)
		err = tacet_cap_give(dst, SLOT_CODE, CHAIN_SLOT_CODE, TACET_RIGHTS_ALL);
	if (!err)
		err = tacet_cap_give(dst, SLOT_BLOCK, CHAIN_SLOT_BLOCK, TACET_RIGHT_READ);
	if (!err && ready)
		err = tacet_cap_give(dst, SLOT_READY, CHAIN_SLOT_READY, TACET_RIGHT_WRITE);
	return err;
}

long chain_thread_new(unsigned long slot, unsigned long arg, unsigned int prio)
{
	struct tacet_self self;
	long tid;

	tacet_self(&self);
	tid = tacet_thread_new(slot, 0, CHAIN_VA, 0, arg, TACET_SCHED(prio, self.hart));
	return tid < 0 ? tid : 0;
}

/* depth processes from SLOT_FIRST, process i holding process i + 1 in CHAIN_SLOT_CHILD;
 * with `threads`, each with chain_code mapped and a thread waiting on BLOCK, the last one
 * (lowest priority: it runs after all the others waited) signalling READY first. The tester
 * watches the last one. 0 or -TACET_E*. */
long chain_cap_build(unsigned long depth, int threads)
{
	unsigned long cur = SLOT_FIRST, next = SLOT_A;
	long err = 0;

	for (unsigned long i = 0; i < depth && !err; i++) {
		unsigned long slot = i ? next : SLOT_FIRST;
		int last = i == depth - 1;

		if (threads)
			err = chain_process_new(slot, 0, last);
		else
			err = tacet_process_new(slot, 0, CHAIN_NAME, 0);
		if (!err && threads)
			err = chain_thread_new(slot, 0, last ? CHAIN_PRIO - 1 : CHAIN_PRIO);
		if (!err && i)
			err = tacet_cap_give(cur, slot, CHAIN_SLOT_CHILD, TACET_RIGHTS_ALL);
		if (!err && last)
			err = tacet_process_watch(slot, SLOT_WATCH, 1);
		/* the link before lives on in the cspace of the one before it */
		if (!err && cur != SLOT_FIRST)
			err = tacet_cap_delete(cur);
		if (!err && i) {
			cur = slot;
			next = cur == SLOT_A ? SLOT_B : SLOT_A;
		}
	}
	if (!err && cur != SLOT_FIRST)
		err = tacet_cap_delete(cur);
	if (!err && threads)
		err = tacet_wait(SLOT_READY) == (long)READY_DONE ? 0 : -TACET_EINVAL;
	return err;
}

long chain_proc_build(unsigned long depth)
{
	long err = chain_process_new(SLOT_FIRST, 0, 1);

	if (!err)
		err = tacet_process_watch(SLOT_FIRST, SLOT_WATCH, 1);
	if (!err)
		err = chain_thread_new(SLOT_FIRST, depth - 1, CHAIN_PRIO);
	/* each level makes the next, the last one says so */
	if (!err)
		err = tacet_wait(SLOT_READY) == (long)READY_DONE ? 0 : -TACET_EINVAL;
	return err;
}

long chain_end(int watched)
{
	long err = tacet_cap_delete(SLOT_FIRST);

	if (!err && watched)
		err = tacet_poll(SLOT_WATCH) == 1 ? 0 : -TACET_EINVAL;
	return err;
}

unsigned long chain_frame_derive(unsigned long depth, long *err)
{
	unsigned long cur = SLOT_A, next = SLOT_B;

	*err = tacet_frame_derive(SLOT_FRAME, cur, 0, 1);
	for (unsigned long i = 1; i < depth && !*err; i++) {
		*err = tacet_frame_derive(cur, next, 0, 1);
		if (!*err)
			*err = tacet_cap_delete(cur);
		cur = next;
		next = cur == SLOT_A ? SLOT_B : SLOT_A;
	}
	return *err ? 0 : cur;
}

unsigned long bkl_longest_hold(struct tacet_hart_info *best)
{
	struct tacet_hart_info hi;
	unsigned long best_hart = 0;

	best->bkl_hold_max = best->bkl_hold_cause = best->bkl_hold_call = 0;
	for (unsigned long h = 0; tacet_info(TACET_INFO_HART, h, &hi, sizeof(hi)) > 0; h++)
		if (hi.bkl_hold_max > best->bkl_hold_max) {
			*best = hi;
			best_hart = h;
		}
	return best_hart;
}

void chains_report_bkl(const char *who)
{
	struct tacet_hart_info hi;
	unsigned long hart = bkl_longest_hold(&hi);

	printf("%s: longest BKL hold: %lu cycles on hart %lu (cause %#lx, call %lu)\n", who,
	       hi.bkl_hold_max, hart, hi.bkl_hold_cause, hi.bkl_hold_call);
}
