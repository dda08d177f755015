/* victim: the server the hog (hog.c) must not harm. Each time the hog holds all the kernel
 * memory its budget allows, the victim creates and destroys VICTIM_ROUNDS of each kind of
 * object (endpoint, notification, frame mapped and unmapped, thread that ends at once) and
 * reports how many failed: none may, since its own budget is untouched by the hog's.
 */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "hogvictim.h"

enum {
	SLOT_CALL = TACET_CHILD_FIRST_FREE, /* ours, published as "victim" */
	SLOT_HOG,                           /* the hog's answer notification */
	SLOT_OBJ,
	SLOT_FRAME,
};

#define VICTIM_ROUNDS 100
#define VICTIM_VA 0x0000002000000000ul

/* A thread that ends at once. */
__asm__(".pushsection .text.victim_quitter, \"ax\", @progbits\n"
	".globl victim_quitter\n"
	"victim_quitter:\n"
	"	li a0, 0\n"
	"	li a7, 2\n" /* TACET_SYS_EXIT */
	"	ecall\n"
	".popsection\n");
void victim_quitter(void);

/* One of each: how many of the four creations failed. */
static unsigned int one_round(void)
{
	unsigned int failed = 0;
	long err;

	failed += tacet_endpoint_new(SLOT_OBJ) != 0;
	tacet_cap_delete(SLOT_OBJ);
	failed += tacet_ntfn_new(SLOT_OBJ) != 0;
	tacet_cap_delete(SLOT_OBJ);
	err = tacet_frame_new(SLOT_FRAME, 1);
	if (!err)
		err = tacet_map(TACET_CHILD_SELF, SLOT_FRAME, VICTIM_VA,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (!err)
		*(volatile unsigned long *)VICTIM_VA = 1;
	failed += err != 0;
	tacet_unmap(TACET_CHILD_SELF, VICTIM_VA, 1);
	tacet_cap_delete(SLOT_FRAME);
	failed += tacet_thread_new(TACET_CHILD_SELF, 0, (unsigned long)victim_quitter, 0, 0,
				   TACET_SCHED(50, 2)) < 0;
	return failed;
}

int main(void)
{
	static const char *const ways[] = { "frames", "mappings", "threads" };
	long bits = 0, err = tacet_ntfn_new(SLOT_CALL);
	int failures = 0;

	if (!err)
		err = tacet_publish("victim", SLOT_CALL, TACET_RIGHT_WRITE);
	if (!err)
		err = tacet_lookup("hog", SLOT_HOG, 10000);
	if (err) {
		printf("victim: cannot start: %s: FAIL\n", tacet_strerror(err));
		return 1;
	}
	while (!(bits & HOG_QUIT) && (bits = tacet_wait(SLOT_CALL)) > 0) {
		for (unsigned int w = 0; w < 3; w++) {
			unsigned int failed = 0;

			if (!(bits & (1ul << w)))
				continue;
			for (int i = 0; i < VICTIM_ROUNDS; i++)
				failed += one_round();
			printf("victim: while the hog held all its %s: %d creations, %u failed: %s\n",
			       ways[w], 4 * VICTIM_ROUNDS, failed, failed ? "FAIL" : "PASS");
			failures += failed != 0;
			tacet_signal(SLOT_HOG, 1);
		}
	}
	printf("victim: %s\n", bits < 0 ? "wait failed: FAIL" : "done");
	return failures != 0 || bits < 0;
}
