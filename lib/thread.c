/* thread.c: tacet_thread_start (<tacet/driver.h>): another thread of the calling process, set up
 * as crt0 sets up the first: gp, the end of the frame chain, and a TLS block of its own (where
 * picolibc keeps errno), at the top of the stack the caller gives it. The kernel starts a thread
 * with nothing but pc, sp and a0. */
#include <tacet.h>
#include <tacet/init_proto.h>

#define STACK_ALIGN 16 /* the psABI's, at a call */

/* What the new thread finds at a0: kept at its stack's top, above its TLS block. */
struct thread_start {
	void (*fn)(void *arg);
	void *arg;
	void *tls;
};

/* picolibc's (<picotls.h> declares them only where its headers say PICOLIBC_TLS; lib/user.ld
 * defines the sizes, as crt0 uses them for the first thread's block). */
void _init_tls(void *tls);
void _set_tls(void *tls);
extern char __tls_size[], __tls_align[];

_Noreturn void tacet_thread_main(const struct thread_start *start);
void tacet_thread_entry(void);

/* gp first, with lla unrelaxed (relaxed, it would be relative to the gp it sets); then C. */
__asm__(".pushsection .text.tacet_thread_entry, \"ax\", @progbits\n"
	"tacet_thread_entry: .option push; .option norelax; lla gp, __global_pointer$\n"
	"	.option pop; li s0, 0; tail tacet_thread_main\n"
	".popsection\n");

_Noreturn void tacet_thread_main(const struct thread_start *start)
{
	_init_tls(start->tls);
	_set_tls(start->tls);
	start->fn(start->arg);
	tacet_exit(0);
}

static unsigned long align_down(unsigned long x, unsigned long align)
{
	return x & ~(align - 1);
}

long tacet_thread_start(void (*fn)(void *arg), void *arg, unsigned long stack_top,
			unsigned long sched)
{
	unsigned long tls_align = (unsigned long)__tls_align, tls_size = (unsigned long)__tls_size;
	unsigned long align = tls_align > STACK_ALIGN ? tls_align : STACK_ALIGN;
	struct thread_start *start =
		(struct thread_start *)align_down(stack_top - sizeof(*start), STACK_ALIGN);
	unsigned long tls = align_down((unsigned long)start - tls_size, align);

	start->fn = fn;
	start->arg = arg;
	start->tls = (void *)tls;
	return tacet_thread_new(TACET_CHILD_SELF, 0, (unsigned long)tacet_thread_entry, tls,
				(unsigned long)start, sched);
}
