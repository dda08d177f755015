/* kfmt.c: the kernel's printf-style formatter (see kfmt.h). Owns no state and takes no locks:
 * every call works on its own stack, so any context may use it, a panic included. */
#include <stdbool.h>
#include <stdint.h>
#include "lib/kfmt.h"

#define KFMT_INT_MAX __INT_MAX__
/* Octal needs the most digits: one per three bits, rounded up. */
#define KFMT_MAX_DIGITS ((sizeof(uintmax_t) * 8 + 2) / 3)
/* %p always prints every nibble of the pointer. */
#define KFMT_PTR_DIGITS ((int)sizeof(uintptr_t) * 2)
#define KFMT_NO_PRECISION (-1)

/* %z reads the signed counterpart of size_t as a ptrdiff_t, %t its unsigned one as a size_t. */
_Static_assert(sizeof(ptrdiff_t) == sizeof(size_t), "ptrdiff_t and size_t differ in width");

enum kfmt_flag {
	KFMT_LEFT = 1u << 0,  /* '-': pad on the right */
	KFMT_ZERO = 1u << 1,  /* '0': pad numbers with zeros */
	KFMT_PLUS = 1u << 2,  /* '+': signed conversions always show a sign */
	KFMT_SPACE = 1u << 3, /* ' ': a space where a '+' would go */
	KFMT_ALT = 1u << 4,   /* '#': 0x/0X before hex, a leading 0 for octal */
};

enum kfmt_length {
	KFMT_LEN_NONE,
	KFMT_LEN_HH,
	KFMT_LEN_H,
	KFMT_LEN_L,
	KFMT_LEN_LL,
	KFMT_LEN_Z,
	KFMT_LEN_T,
	KFMT_LEN_J,
};

struct kfmt_spec {
	unsigned int flags; /* enum kfmt_flag */
	int width;
	int precision; /* KFMT_NO_PRECISION when absent */
	enum kfmt_length length;
};

struct kfmt_out {
	kfmt_putc_fn putc; /* NULL: capturing (nothing is formatted, arguments are only read) */
	void *ctx;
	size_t count;
};

static void out_char(struct kfmt_out *out, char c)
{
	out->putc(out->ctx, c);
	out->count++;
}

/* Where a conversion's arguments come from: the caller's va_list (copied into *cap too when
 * capturing), or a capture being replayed (rec). */
struct kfmt_src {
	va_list *ap;
	struct kfmt_capture *cap;
	const struct kfmt_capture *rec;
	unsigned int nargs; /* arguments read so far */
	size_t nchars;      /* of cap->str / rec->str used so far */
	bool overflow;      /* cap had no room for an argument or a string */
};

/* The next argument, read as it was when captured; 0 past the end (a capture that overflowed
 * is never replayed). */
static uint64_t replayed(struct kfmt_src *src)
{
	return src->nargs < KFMT_CAPTURE_ARGS ? src->rec->arg[src->nargs++] : 0;
}

/* v, read from the va_list, kept in the capture; returned unchanged. */
static uint64_t captured(struct kfmt_src *src, uint64_t v)
{
	if (src->cap) {
		if (src->nargs < KFMT_CAPTURE_ARGS)
			src->cap->arg[src->nargs] = v;
		else
			src->overflow = true;
		src->nargs++;
	}
	return v;
}

static void out_repeat(struct kfmt_out *out, char c, size_t n)
{
	while (n--)
		out_char(out, c);
}

static void out_chars(struct kfmt_out *out, const char *s, size_t n)
{
	while (n--)
		out_char(out, *s++);
}

/* Saturates rather than overflowing on absurdly long digit strings. */
static int parse_decimal(const char **p)
{
	int v = 0;

	while (**p >= '0' && **p <= '9') {
		int digit = **p - '0';

		v = v > (KFMT_INT_MAX - digit) / 10 ? KFMT_INT_MAX : v * 10 + digit;
		(*p)++;
	}
	return v;
}

static enum kfmt_length parse_length(const char **p)
{
	switch (**p) {
	case 'h':
		if (*++*p == 'h') {
			++*p;
			return KFMT_LEN_HH;
		}
		return KFMT_LEN_H;
	case 'l':
		if (*++*p == 'l') {
			++*p;
			return KFMT_LEN_LL;
		}
		return KFMT_LEN_L;
	case 'z':
		++*p;
		return KFMT_LEN_Z;
	case 't':
		++*p;
		return KFMT_LEN_T;
	case 'j':
		++*p;
		return KFMT_LEN_J;
	default:
		return KFMT_LEN_NONE;
	}
}

/* Arguments narrower than int arrive promoted to int; convert back as C requires. */
static intmax_t fetch_signed_va(va_list *ap, enum kfmt_length length)
{
	switch (length) {
	case KFMT_LEN_HH:
		return (signed char)va_arg(*ap, int);
	case KFMT_LEN_H:
		return (short)va_arg(*ap, int);
	case KFMT_LEN_L:
		return va_arg(*ap, long);
	case KFMT_LEN_LL:
		return va_arg(*ap, long long);
	case KFMT_LEN_Z:
	case KFMT_LEN_T:
		return va_arg(*ap, ptrdiff_t);
	case KFMT_LEN_J:
		return va_arg(*ap, intmax_t);
	case KFMT_LEN_NONE:
		break;
	}
	return va_arg(*ap, int);
}

static uintmax_t fetch_unsigned_va(va_list *ap, enum kfmt_length length)
{
	switch (length) {
	case KFMT_LEN_HH:
		return (unsigned char)va_arg(*ap, unsigned int);
	case KFMT_LEN_H:
		return (unsigned short)va_arg(*ap, unsigned int);
	case KFMT_LEN_L:
		return va_arg(*ap, unsigned long);
	case KFMT_LEN_LL:
		return va_arg(*ap, unsigned long long);
	case KFMT_LEN_Z:
	case KFMT_LEN_T:
		return va_arg(*ap, size_t);
	case KFMT_LEN_J:
		return va_arg(*ap, uintmax_t);
	case KFMT_LEN_NONE:
		break;
	}
	return va_arg(*ap, unsigned int);
}

_Static_assert(sizeof(intmax_t) == sizeof(uint64_t), "an argument is kept in 64 bits");

static intmax_t fetch_signed(struct kfmt_src *src, enum kfmt_length length)
{
	if (src->rec)
		return (intmax_t)replayed(src);
	return (intmax_t)captured(src, (uint64_t)fetch_signed_va(src->ap, length));
}

static uintmax_t fetch_unsigned(struct kfmt_src *src, enum kfmt_length length)
{
	if (src->rec)
		return replayed(src);
	return captured(src, fetch_unsigned_va(src->ap, length));
}

static int fetch_int(struct kfmt_src *src)
{
	return (int)fetch_signed(src, KFMT_LEN_NONE);
}

static uintptr_t fetch_pointer(struct kfmt_src *src)
{
	if (src->rec)
		return (uintptr_t)replayed(src);
	return (uintptr_t)captured(src, (uintptr_t)va_arg(*src->ap, void *));
}

#define KFMT_NULL_STRING UINT64_MAX /* a captured %s of NULL */

/* A string argument. A capture copies it whole (NUL included) into cap->str and keeps its
 * offset there, so it may be freed before the replay. */
static const char *fetch_string(struct kfmt_src *src)
{
	const char *s;
	size_t len = 0;

	if (src->rec) {
		uint64_t off = replayed(src);

		return off < KFMT_CAPTURE_CHARS ? src->rec->str + off : NULL;
	}
	s = va_arg(*src->ap, const char *);
	if (!src->cap)
		return s;
	if (!s) {
		captured(src, KFMT_NULL_STRING);
		return s;
	}
	while (src->nchars + len < KFMT_CAPTURE_CHARS && s[len])
		len++;
	if (src->nchars + len >= KFMT_CAPTURE_CHARS) {
		src->overflow = true; /* no room for the string and its NUL */
		return s;
	}
	for (size_t i = 0; i <= len; i++)
		src->cap->str[src->nchars + i] = s[i];
	captured(src, src->nchars);
	src->nchars += len + 1;
	return s;
}

/*
 * Layout: [spaces] [sign] [prefix] [zeros] digits [spaces]. The zeros come from the precision,
 * or from the '0' flag when there is no precision and no '-'. sign is 0 for none.
 */
static void format_integer(struct kfmt_out *out, const struct kfmt_spec *spec, uintmax_t magnitude,
			   char sign, unsigned int base, bool upper, const char *prefix)
{
	const char *digit_chars = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char digits[KFMT_MAX_DIGITS];
	size_t ndigits = 0, nprefix = 0, nzeros = 0, body, width = (size_t)spec->width;

	/* C: a zero value with precision 0 has no digits at all. */
	if (magnitude != 0 || spec->precision != 0) {
		do {
			digits[ndigits++] = digit_chars[magnitude % base];
			magnitude /= base;
		} while (magnitude);
	}
	while (prefix && prefix[nprefix])
		nprefix++;
	if (spec->precision > 0 && (size_t)spec->precision > ndigits)
		nzeros = (size_t)spec->precision - ndigits;
	/* digits[] is reversed: the most significant digit is the last one. */
	if (base == 8 && (spec->flags & KFMT_ALT) && nzeros == 0 &&
	    (ndigits == 0 || digits[ndigits - 1] != '0'))
		nzeros = 1;

	body = (sign ? 1 : 0) + nprefix + nzeros + ndigits;
	if ((spec->flags & KFMT_ZERO) && !(spec->flags & KFMT_LEFT) &&
	    spec->precision == KFMT_NO_PRECISION && width > body) {
		nzeros += width - body;
		body = width;
	}

	if (!(spec->flags & KFMT_LEFT) && width > body)
		out_repeat(out, ' ', width - body);
	if (sign)
		out_char(out, sign);
	out_chars(out, prefix ? prefix : "", nprefix);
	out_repeat(out, '0', nzeros);
	while (ndigits)
		out_char(out, digits[--ndigits]);
	if ((spec->flags & KFMT_LEFT) && width > body)
		out_repeat(out, ' ', width - body);
}

/* Pads len characters of s out to the field width; a '0' flag does not apply to text. */
static void format_padded(struct kfmt_out *out, const struct kfmt_spec *spec, const char *s,
			  size_t len)
{
	size_t width = (size_t)spec->width;

	if (!(spec->flags & KFMT_LEFT) && width > len)
		out_repeat(out, ' ', width - len);
	out_chars(out, s, len);
	if ((spec->flags & KFMT_LEFT) && width > len)
		out_repeat(out, ' ', width - len);
}

/* Reads at most precision characters of s: with one, s need not be NUL-terminated. */
static void format_string(struct kfmt_out *out, const struct kfmt_spec *spec, const char *s)
{
	size_t len = 0;
	size_t max = spec->precision == KFMT_NO_PRECISION ? SIZE_MAX : (size_t)spec->precision;

	if (!s)
		s = "(null)";
	while (len < max && s[len])
		len++;
	format_padded(out, spec, s, len);
}

static char sign_of(const struct kfmt_spec *spec, bool negative)
{
	if (negative)
		return '-';
	if (spec->flags & KFMT_PLUS)
		return '+';
	if (spec->flags & KFMT_SPACE)
		return ' ';
	return 0;
}

static void parse_flags(const char **p, struct kfmt_spec *spec)
{
	for (;; (*p)++) {
		switch (**p) {
		case '-':
			spec->flags |= KFMT_LEFT;
			break;
		case '0':
			spec->flags |= KFMT_ZERO;
			break;
		case '+':
			spec->flags |= KFMT_PLUS;
			break;
		case ' ':
			spec->flags |= KFMT_SPACE;
			break;
		case '#':
			spec->flags |= KFMT_ALT;
			break;
		default:
			return;
		}
	}
}

/* A negative '*' width means '-' and its magnitude, as in C. */
static void parse_width(const char **p, struct kfmt_spec *spec, struct kfmt_src *src)
{
	if (**p == '*') {
		int w = fetch_int(src);

		(*p)++;
		if (w < 0) {
			spec->flags |= KFMT_LEFT;
			w = w < -KFMT_INT_MAX ? KFMT_INT_MAX : -w;
		}
		spec->width = w;
	} else {
		spec->width = parse_decimal(p);
	}
}

/* A negative '*' precision counts as none; "." alone means 0. */
static void parse_precision(const char **p, struct kfmt_spec *spec, struct kfmt_src *src)
{
	spec->precision = KFMT_NO_PRECISION;
	if (**p != '.')
		return;
	(*p)++;
	if (**p == '*') {
		int prec = fetch_int(src);

		(*p)++;
		spec->precision = prec < 0 ? KFMT_NO_PRECISION : prec;
	} else {
		spec->precision = parse_decimal(p);
	}
}

static void format_value(struct kfmt_out *out, struct kfmt_spec *spec, char c, uintmax_t v,
			 const char *str);

/* Formats one conversion; *p points just past the '%' and is left past the conversion. Every
 * argument is read before anything is written: capturing (out->putc NULL) stops there. */
static void format_one(struct kfmt_out *out, const char **p, struct kfmt_src *src)
{
	struct kfmt_spec spec = { 0 };
	uintmax_t v = 0;
	const char *str = NULL;
	char c;

	parse_flags(p, &spec);
	parse_width(p, &spec, src);
	parse_precision(p, &spec, src);
	spec.length = parse_length(p);

	c = **p;
	if (c != '\0')
		(*p)++;
	switch (c) {
	case 'd':
	case 'i':
	case 'c':
		v = (uintmax_t)fetch_signed(src, c == 'c' ? KFMT_LEN_NONE : spec.length);
		break;
	case 'u':
	case 'o':
	case 'x':
	case 'X':
		v = fetch_unsigned(src, spec.length);
		break;
	case 'p':
		v = fetch_pointer(src);
		break;
	case 's':
		str = fetch_string(src);
		break;
	}
	if (out->putc)
		format_value(out, &spec, c, v, str);
}

/* The conversion c of argument v (or str), as spec says. */
static void format_value(struct kfmt_out *out, struct kfmt_spec *spec, char c, uintmax_t v,
			 const char *str)
{
	switch (c) {
	case '\0':
		out_char(out, '%');
		break;
	case 'd':
	case 'i': {
		intmax_t sv = (intmax_t)v;
		/* Negate in unsigned arithmetic so the most negative value is fine. */
		uintmax_t magnitude = sv < 0 ? (uintmax_t)0 - v : v;

		format_integer(out, spec, magnitude, sign_of(spec, sv < 0), 10, false, NULL);
		break;
	}
	case 'u':
		format_integer(out, spec, v, 0, 10, false, NULL);
		break;
	case 'o':
		format_integer(out, spec, v, 0, 8, false, NULL);
		break;
	case 'x':
	case 'X': {
		const char *prefix = NULL;

		if ((spec->flags & KFMT_ALT) && v != 0)
			prefix = c == 'x' ? "0x" : "0X";
		format_integer(out, spec, v, 0, 16, c == 'X', prefix);
		break;
	}
	case 'p':
		/* Fixed-width so pointers line up in dumps; the precision turns '0' off. */
		spec->precision = KFMT_PTR_DIGITS;
		format_integer(out, spec, v, 0, 16, false, "0x");
		break;
	case 'c': {
		/* Not through format_string: %c of '\0' still produces one character. */
		char ch = (char)v;

		format_padded(out, spec, &ch, 1);
		break;
	}
	case 's':
		format_string(out, spec, str);
		break;
	case '%':
		out_char(out, '%');
		break;
	default:
		out_char(out, '%');
		out_char(out, c);
		break;
	}
}

/* The format's text and conversions, arguments from src, to out. */
static void format_all(struct kfmt_out *out, const char *p, struct kfmt_src *src)
{
	while (*p) {
		if (*p != '%') {
			if (out->putc)
				out_char(out, *p);
			p++;
			continue;
		}
		p++;
		format_one(out, &p, src);
	}
}

static int saturated(size_t count)
{
	return count > (size_t)KFMT_INT_MAX ? KFMT_INT_MAX : (int)count;
}

int kfmt_vformat(kfmt_putc_fn putc, void *ctx, const char *fmt, va_list ap)
{
	struct kfmt_out out = { .putc = putc, .ctx = ctx, .count = 0 };
	va_list args;
	struct kfmt_src src = { .ap = &args };

	/* A copy, because a va_list parameter cannot portably be passed on by address. */
	va_copy(args, ap);
	format_all(&out, fmt, &src);
	va_end(args);
	return saturated(out.count);
}

int kfmt_vcapture(struct kfmt_capture *c, const char *fmt, va_list ap)
{
	struct kfmt_out out = { .putc = NULL };
	va_list args;
	struct kfmt_src src = { .ap = &args, .cap = c };

	c->fmt = fmt;
	va_copy(args, ap);
	format_all(&out, fmt, &src);
	va_end(args);
	c->nargs = src.nargs;
	c->nchars = (unsigned int)src.nchars;
	return src.overflow ? -1 : 0;
}

int kfmt_replay(kfmt_putc_fn putc, void *ctx, const struct kfmt_capture *c)
{
	struct kfmt_out out = { .putc = putc, .ctx = ctx, .count = 0 };
	struct kfmt_src src = { .rec = c };

	format_all(&out, c->fmt, &src);
	return saturated(out.count);
}

struct kfmt_buf {
	char *buf;
	size_t size;
	size_t len; /* characters produced so far, stored or not */
};

static void buf_putc(void *ctx, char c)
{
	struct kfmt_buf *b = ctx;

	if (b->len + 1 < b->size)
		b->buf[b->len] = c;
	b->len++;
}

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct kfmt_buf b = { .buf = buf, .size = size, .len = 0 };
	int n = kfmt_vformat(buf_putc, &b, fmt, ap);

	if (size > 0)
		buf[b.len < size ? b.len : size - 1] = '\0';
	return n;
}

int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
