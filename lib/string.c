/* string.c: memcpy, memmove and memset for every server, in place of picolibc's, which for
 * rv64imac are its size-optimized byte loops (6 instructions a byte: a frame's copy through ip
 * cost more than lwIP's protocol work). Here a copy moves aligned 8-byte words: when source and
 * destination differ in alignment, each word is put together from two aligned loads with
 * shifts, so no access is misaligned (RISC-V may trap on one, and the firmware's emulation is
 * slow) and no load reaches a word that holds no byte of the source. Pure functions of their
 * arguments; no state, no locking; callable from any thread.
 *
 * Built without loop-pattern recognition, which would make these loops calls to themselves. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define NO_PATTERNS __attribute__((optimize("no-tree-loop-distribute-patterns")))

typedef uint64_t __attribute__((may_alias)) word_t;
#define WORD sizeof(word_t)

/* Copy n bytes forward, word by word once d is aligned; returns what remains uncopied (< WORD)
 * with *dp and *sp advanced past what was copied. Forward order is safe for memmove when
 * d < s: every source word is read before the stores reach it. */
NO_PATTERNS static size_t copy_words(unsigned char **dp, const unsigned char **sp, size_t n)
{
	unsigned char *d = *dp;
	const unsigned char *s = *sp;
	unsigned int shift;

	while ((uintptr_t)d & (WORD - 1)) {
		*d++ = *s++;
		n--;
	}
	shift = (unsigned int)((uintptr_t)s & (WORD - 1)) * 8;
	if (!shift) {
		for (; n >= WORD; n -= WORD, d += WORD, s += WORD)
			*(word_t *)d = *(const word_t *)s;
	} else {
		const word_t *w = (const word_t *)(s - shift / 8);
		word_t lo = *w++;

		for (; n >= WORD; n -= WORD, d += WORD, s += WORD) {
			word_t hi = *w++;

			*(word_t *)d = lo >> shift | hi << (64 - shift);
			lo = hi;
		}
	}
	*dp = d, *sp = s;
	return n;
}

NO_PATTERNS void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (n >= 2 * WORD)
		n = copy_words(&d, &s, n);
	while (n--)
		*d++ = *s++;
	return dst;
}

/* Forward when that is safe (see copy_words), else backward, by words when both ends share
 * their alignment. */
NO_PATTERNS void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n) {
		if (n >= 2 * WORD)
			n = copy_words(&d, &s, n);
		while (n--)
			*d++ = *s++;
		return dst;
	}
	d += n, s += n;
	if (n >= 2 * WORD && !(((uintptr_t)d ^ (uintptr_t)s) & (WORD - 1))) {
		while ((uintptr_t)d & (WORD - 1)) {
			*--d = *--s;
			n--;
		}
		for (; n >= WORD; n -= WORD) {
			d -= WORD, s -= WORD;
			*(word_t *)d = *(const word_t *)s;
		}
	}
	while (n--)
		*--d = *--s;
	return dst;
}

NO_PATTERNS void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	word_t w = (unsigned char)c * (word_t)0x0101010101010101ull;

	if (n >= 2 * WORD) {
		while ((uintptr_t)d & (WORD - 1)) {
			*d++ = (unsigned char)c;
			n--;
		}
		for (; n >= WORD; n -= WORD, d += WORD)
			*(word_t *)d = w;
	}
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}
