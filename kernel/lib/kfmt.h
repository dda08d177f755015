/* kfmt.h: the kernel's small printf-style formatter (boot and panic messages). Stateless and
 * reentrant: it holds no locks and may be called from any context, including a panic. */
#ifndef KERNEL_KFMT_H
#define KERNEL_KFMT_H

#include <stdarg.h>
#include <stddef.h>

/*
 * Conversions: %c %s %d %i %u %x %X %o %p %%, length modifiers hh h l ll z t j (integers only),
 * flags '-' '0' '+' ' ' '#', field width and precision as digits or '*'. Integers follow C:
 * precision is the minimum number of digits (and turns off '0'), '#' adds 0x/0X to a non-zero
 * hex value and a leading 0 to octal. %s of NULL prints "(null)" (cut by the precision like any
 * string); %p prints "0x" and 16 lowercase hex digits. An unknown conversion prints '%' and
 * that character, dropping the flags, width and length before it; a lone '%' at the end of the
 * format prints '%'. No floating point.
 */

/* Sink for formatted output: called once per character, in order. */
typedef void (*kfmt_putc_fn)(void *ctx, char c);

/* Format to a sink; returns the number of characters produced (saturating at INT_MAX). */
int kfmt_vformat(kfmt_putc_fn putc, void *ctx, const char *fmt, va_list ap);

/* snprintf semantics: writes at most size - 1 characters plus a NUL (if size > 0; buf may be
 * NULL when size is 0) and returns the length the full output would have had. */
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
