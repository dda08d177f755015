/* kstring.c: memset, memcpy, memcmp, strlen, strnlen, strcmp, strncmp for the freestanding kernel
 * (gcc may also emit calls to memset/memcpy on its own). Pure functions, any context.
 * memset and memcpy move 8 bytes at a time where the addresses allow it (a page zeroed or a
 * record copied to user space is 8x fewer stores), bytes at the unaligned ends; memset stores
 * 64 bytes a round while it can (a page: ~700 instructions, not ~2,000: zeroing is most of
 * FRAME_NEW, page tables, capability tables). */
#include <stdint.h>
#include "lib/kstring.h"

typedef uint64_t __attribute__((may_alias)) kword; /* any object may be moved as words */

#define WORD_MASK (sizeof(kword) - 1)

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	kword w = (unsigned char)c * (kword)0x0101010101010101ULL;

	for (; n && ((uintptr_t)d & WORD_MASK); n--)
		*d++ = (unsigned char)c;
	for (; n >= 8 * sizeof(kword); n -= 8 * sizeof(kword), d += 8 * sizeof(kword)) {
		kword *q = (kword *)d;

		q[0] = w;
		q[1] = w;
		q[2] = w;
		q[3] = w;
		q[4] = w;
		q[5] = w;
		q[6] = w;
		q[7] = w;
	}
	for (; n >= sizeof(kword); n -= sizeof(kword), d += sizeof(kword))
		*(kword *)d = w;
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if ((((uintptr_t)d ^ (uintptr_t)s) & WORD_MASK) == 0) { /* equally misaligned */
		for (; n && ((uintptr_t)d & WORD_MASK); n--)
			*d++ = *s++;
		for (; n >= sizeof(kword); n -= sizeof(kword), d += sizeof(kword), s += sizeof(kword))
			*(kword *)d = *(const kword *)s;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			return 0;
	}
	return 0;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, (size_t)-1);
}
