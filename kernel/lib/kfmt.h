/* kfmt.h: the kernel's small printf-style formatter (boot and panic messages). Stateless and
 * reentrant: it holds no locks and may be called from any context, including a panic. */
#ifndef KERNEL_KFMT_H
#define KERNEL_KFMT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

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

/* A message captured now and formatted later (the kernel's log: captured with the BKL held,
 * formatted when written out, after it is let go): the format, which must outlive the capture
 * (a string literal), and each argument as its conversion reads it, in 64 bits; the strings
 * that %s names are copied whole into str, so they may be freed meanwhile. */
#define KFMT_CAPTURE_ARGS 8
#define KFMT_CAPTURE_CHARS 120
struct kfmt_capture {
	const char *fmt;
	unsigned int nargs;  /* arg[] used */
	unsigned int nchars; /* str[] used */
	uint64_t arg[KFMT_CAPTURE_ARGS];
	char str[KFMT_CAPTURE_CHARS];
};

/* Capture fmt with its arguments into c: 0, or -1 if they do not fit (more than
 * KFMT_CAPTURE_ARGS arguments, '*' ones included, or more than KFMT_CAPTURE_CHARS of strings
 * with their NULs): then c is of no use, and the caller formats at once. */
int kfmt_vcapture(struct kfmt_capture *c, const char *fmt, va_list ap);

/* Format a capture to a sink: what kfmt_vformat produced from its arguments when captured. */
int kfmt_replay(kfmt_putc_fn putc, void *ctx, const struct kfmt_capture *c);

/* snprintf semantics: writes at most size - 1 characters plus a NUL (if size > 0; buf may be
 * NULL when size is 0) and returns the length the full output would have had. */
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
