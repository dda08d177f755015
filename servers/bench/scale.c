/* scale.c: the scaling benchmarks' children and keeper (scale.h). */
#include <string.h>
#include <tacet.h>
#include <tacet/driver.h>
#include <tacet/init_proto.h>
#include "scale.h"

/* The children's programs: position-independent, no stack, no data; copied onto one page.
 * scale_sleep: WAIT(OBJ) for ever. scale_serve: RECV(OBJ), then REPLY_RECV(OBJ) with an empty
 * message for ever. Either ends its thread when a call fails. */
_Static_assert(TACET_SYS_EXIT == 2 && TACET_SYS_RECV == 5 && TACET_SYS_REPLY_RECV == 7 &&
	       TACET_SYS_WAIT == 9 && SCALE_CHILD_SLOT_OBJ == 2, "the children's call numbers");
extern const char scale_code[], scale_serve[], scale_code_end[];
__asm__(".pushsection .text\n"
	".globl scale_code, scale_serve, scale_code_end\n"
	"scale_code:\n"                  /* scale_sleep */
	"1:	li	a0, 2\n"
	"	li	a7, 9\n"            /* WAIT(OBJ) */
	"	ecall\n"
	"	bgez	a0, 1b\n"
	"	j	9f\n"
	"scale_serve:\n"
	"	li	a0, 2\n"
	"	li	a1, 0\n"
	"	li	a7, 5\n"            /* RECV(OBJ, 0) */
	"	ecall\n"
	"2:	bltz	a0, 9f\n"
	"	li	a0, 2\n"
	"	li	a1, 0\n"            /* the reply's tag: no words */
	"	li	a6, 0\n"
	"	li	a7, 7\n"            /* REPLY_RECV(OBJ, 0, ..., 0) */
	"	ecall\n"
	"	j	2b\n"
	"9:	li	a0, 1\n"
	"	li	a7, 2\n"            /* EXIT(1) */
	"	ecall\n"
	"	j	9b\n"
	"scale_code_end:\n"
	".popsection\n");

static unsigned long code, keeper, spare, kept; /* kept: slots of the keeper in use */

long scale_setup(unsigned long code_slot, unsigned long keeper_slot, unsigned long spare_slot,
		 unsigned long fill_va)
{
	long err = code_slot ? tacet_frame_new(code_slot, 1) : 0;

	code = code_slot;
	keeper = keeper_slot;
	spare = spare_slot;
	if (!err && code_slot)
		err = tacet_map(TACET_CHILD_SELF, code_slot, fill_va,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (!err && code_slot) {
		memcpy((void *)fill_va, scale_code, (size_t)(scale_code_end - scale_code));
		err = tacet_unmap(TACET_CHILD_SELF, fill_va, 1);
	}
	return err ? err : tacet_process_new(keeper, 0, "scale.keep", 0);
}

long scale_child_new(unsigned long proc_slot, unsigned long obj_slot, unsigned long rights,
		     enum scale_program program, unsigned int prio, unsigned int hart)
{
	unsigned long pc = SCALE_CHILD_VA + (program == SCALE_SERVE ? scale_serve - scale_code : 0);
	long err = tacet_process_new(proc_slot, 0, SCALE_CHILD_NAME, 0);

	if (!err)
		err = tacet_map(proc_slot, code, SCALE_CHILD_VA, TACET_RIGHT_READ | TACET_MAP_EXEC);
	if (!err)
		err = tacet_cap_give(proc_slot, obj_slot, SCALE_CHILD_SLOT_OBJ, rights);
	if (!err)
		err = tacet_thread_new(proc_slot, 0, pc, 0, 0, TACET_SCHED(prio, hart));
	return err < 0 ? err : 0;
}

long scale_keep(unsigned long slot)
{
	long err = 0;

	if (kept == 127) { /* full: a new keeper holds it in its slot 1 */
		err = tacet_process_new(spare, 0, "scale.keep", 0);
		if (!err)
			err = tacet_cap_give(spare, keeper, 1, TACET_RIGHTS_ALL);
		if (!err)
			err = tacet_cap_delete(keeper);
		if (!err)
			err = tacet_cap_copy(spare, keeper, TACET_RIGHTS_ALL, 0);
		if (!err)
			err = tacet_cap_delete(spare);
		kept = 1;
	}
	if (!err)
		err = tacet_cap_give(keeper, slot, 1 + kept++, TACET_RIGHTS_ALL);
	return err ? err : tacet_cap_delete(slot);
}

/* The children's threads in one of the states a sleeping child is in. */
static unsigned long asleep(void)
{
	struct tacet_thread_info ti;
	unsigned long n = 0;

	for (unsigned long i = 0; tacet_info(TACET_INFO_THREAD, i, &ti, sizeof(ti)) > 0; i++)
		n += !strncmp(ti.process, SCALE_CHILD_NAME, sizeof(ti.process)) &&
		     (ti.state == TACET_THREAD_BLOCKED_NTFN || ti.state == TACET_THREAD_BLOCKED_RECV);
	return n;
}

long scale_settle(unsigned long children)
{
	for (unsigned int i = 0; i < SCALE_SETTLE_TRIES; i++) {
		if (asleep() == children)
			return 0;
		tacet_sleep_ns(SCALE_SETTLE_NS);
	}
	return -TACET_EBUSY;
}
