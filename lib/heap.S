/* heap.S: the memory malloc() draws from. picolibc's own sbrk() hands out
 * [__heap_start, __heap_end), a zero-filled .bss array here; past its end sbrk() returns -1
 * and malloc() fails with errno ENOMEM. Linked only into servers that allocate. */

#define HEAP_SIZE (64 * 1024)
/* malloc's chunks need at most 16-byte alignment (the psABI's max_align_t). */
#define HEAP_ALIGN 16

	.section .bss.heap, "aw", @nobits
	.balign	HEAP_ALIGN
	.globl	__heap_start
	.globl	__heap_end
	.type	__heap_start, @object
	.size	__heap_start, HEAP_SIZE
__heap_start:
	.space	HEAP_SIZE
__heap_end:
