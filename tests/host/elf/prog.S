/* prog.S: a tiny freestanding RISC-V program for test_elf.c (R+X text, RW data and bss). */
	.section .text
	.globl _start
_start:
	la	a0, counter
	ld	a1, 0(a0)
	addi	a1, a1, 1
	sd	a1, 0(a0)
	la	a2, scratch
	sd	a1, 0(a2)
1:	j	1b

	.section .rodata
greeting:
	.asciz "tacet elf test"

	.section .data
	.globl counter
	.balign 8
counter:			/* test_elf.c reads this value from the file */
	.dword 0x7461636574

	/* Two pages of bss: the data segment's memory size exceeds its file size. */
	.section .bss
	.globl scratch
	.balign 8
scratch:
	.space 8192
