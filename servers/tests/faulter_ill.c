/* faulter_ill.c: a server that executes an illegal instruction (the all-zero word), for the
 * fault-reporting test: init must report cause 2 at the pc printed here and end it. No IPC
 * protocol. */
#include <stdio.h>

/* The all-zero instruction is illegal by definition in RISC-V, compressed or not. */
void illegal_insn(void);
__asm__(".pushsection .text.illegal_insn, \"ax\", @progbits\n"
	".globl illegal_insn\n"
	".type illegal_insn, @function\n"
	"illegal_insn:\n"
	"\t.word 0\n"
	"\tret\n"
	".size illegal_insn, . - illegal_insn\n"
	".popsection\n");

int main(void)
{
	printf("faulter_ill: executing .word 0 at %p\n", (void *)illegal_insn);
	illegal_insn();
	printf("faulter_ill: FAIL the illegal instruction returned\n");
	return 1;
}
