/* kstring.h: the few string functions the freestanding kernel provides (kernel/lib/kstring.c) */
#ifndef KERNEL_KSTRING_H
#define KERNEL_KSTRING_H

#include <stddef.h>

void *memset(void *dst, int c, size_t n);
void *memcpy(void *restrict dst, const void *restrict src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
/* strlen, but at most max: s need not be terminated within max bytes. */
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);

#endif
