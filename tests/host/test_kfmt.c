/* test_kfmt.c: host unit tests of kernel/lib/kfmt.c, mostly checked against the C library's
 * snprintf; %p, NULL strings and unknown conversions against fixed expectations. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lib/kfmt.h"

/*
 * Both formatters are called through this pointer type: it carries no format attribute, so
 * -Wformat does not object to the deliberately odd rows ("%+u", "%0-5d", "%y"), while the rows
 * themselves pass explicitly typed arguments, so the varargs are still what the format says.
 */
typedef int (*snprintf_like_fn)(char *buf, size_t size, const char *fmt, ...);

static int captured_snprintf(char *buf, size_t size, const char *fmt, ...);

static const snprintf_like_fn kernel_fn = ksnprintf;
static const snprintf_like_fn captured_fn = captured_snprintf;
static const snprintf_like_fn libc_fn = snprintf;

#define OUT_MAX 256
/* Fills output buffers so that bytes a formatter should not touch can be told apart. */
#define FILL_BYTE 0xa5

/* How a row's arguments are passed: one entry per argument list the table needs. */
enum arg_kind {
	ARG_NONE,
	ARG_INT,
	ARG_UINT,
	ARG_LONG,
	ARG_ULONG,
	ARG_LLONG,
	ARG_ULLONG,
	ARG_SIZE,
	ARG_PTRDIFF,
	ARG_INTMAX,
	ARG_UINTMAX,
	ARG_STR,
	ARG_STAR_INT,      /* int w, int value */
	ARG_STAR_STR,      /* int w, const char *value */
	ARG_STAR_STAR_INT, /* int w, int p, int value */
	ARG_STAR_STAR_STR, /* int w, int p, const char *value */
	ARG_STAR_LLONG,    /* int w, long long value */
	ARG_MIXED,         /* int, const char *, unsigned long long */
};

struct fmt_row {
	const char *fmt;
	enum arg_kind kind;
	long long s;
	unsigned long long u;
	const char *str;
	int w, p;
};

#define R0(f)          { .fmt = (f), .kind = ARG_NONE }
#define RI(f, v)       { .fmt = (f), .kind = ARG_INT, .s = (v) }
#define RU(f, v)       { .fmt = (f), .kind = ARG_UINT, .u = (v) }
#define RL(f, v)       { .fmt = (f), .kind = ARG_LONG, .s = (v) }
#define RUL(f, v)      { .fmt = (f), .kind = ARG_ULONG, .u = (v) }
#define RLL(f, v)      { .fmt = (f), .kind = ARG_LLONG, .s = (v) }
#define RULL(f, v)     { .fmt = (f), .kind = ARG_ULLONG, .u = (v) }
#define RZ(f, v)       { .fmt = (f), .kind = ARG_SIZE, .u = (v) }
#define RT(f, v)       { .fmt = (f), .kind = ARG_PTRDIFF, .s = (v) }
#define RJ(f, v)       { .fmt = (f), .kind = ARG_INTMAX, .s = (v) }
#define RUJ(f, v)      { .fmt = (f), .kind = ARG_UINTMAX, .u = (v) }
#define RS(f, v)       { .fmt = (f), .kind = ARG_STR, .str = (v) }
#define RWI(f, w_, v)  { .fmt = (f), .kind = ARG_STAR_INT, .w = (w_), .s = (v) }
#define RWS(f, w_, v)  { .fmt = (f), .kind = ARG_STAR_STR, .w = (w_), .str = (v) }
#define RWPI(f, w_, p_, v) { .fmt = (f), .kind = ARG_STAR_STAR_INT, .w = (w_), .p = (p_), .s = (v) }
#define RWPS(f, w_, p_, v) \
	{ .fmt = (f), .kind = ARG_STAR_STAR_STR, .w = (w_), .p = (p_), .str = (v) }
#define RWLL(f, w_, v) { .fmt = (f), .kind = ARG_STAR_LLONG, .w = (w_), .s = (v) }
#define RMIX(f, i, s_, v) { .fmt = (f), .kind = ARG_MIXED, .s = (i), .str = (s_), .u = (v) }

static const struct fmt_row host_rows[] = {
	/* plain text and %% */
	R0(""), R0("hello, world"), R0("%%"), R0("a%%b"), R0("100%% sure %%%%"),
	/* %c */
	RI("%c", 'A'), RI("[%5c]", 'z'), RI("[%-5c]", 'z'), RI("[%05c]", 'q'), RI("[%c]", 0),
	RI("[%3c]", 0), RI("[%-3c]", 0), RI("%c-%%", 'x'),
	/* %s */
	RS("%s", "hello"), RS("[%10s]", "hello"), RS("[%-10s]", "hello"), RS("[%.3s]", "hello"),
	RS("[%10.3s]", "hello"), RS("[%-10.3s]", "hello"), RS("[%.0s]", "hello"),
	RS("[%.10s]", "hello"), RS("[%s]", ""), RS("[%5s]", ""), RS("[%05s]", "ab"),
	RS("[%2s]", "longer than the width"), RS("[%.s]", "precision dot only"),
	/* %d, %i */
	RI("%d", 0), RI("%d", 1), RI("%d", -1), RI("%d", 42), RI("%d", INT32_MAX),
	RI("%d", INT32_MIN), RI("%i", -12345), RI("[%5d]", 42), RI("[%-5d]", 42),
	RI("[%05d]", -42), RI("[%+d]", 42), RI("[%+d]", -42), RI("[% d]", 42), RI("[% d]", -42),
	RI("[%+ d]", 42), RI("[% +d]", 42), RI("[%.3d]", 7), RI("[%.3d]", -7), RI("[%.0d]", 0),
	RI("[%5.0d]", 0), RI("[%+.0d]", 0), RI("[% .0d]", 0), RI("[%08.3d]", -7),
	RI("[%-08d]", 7), RI("[%0-8d]", 7), RI("[%2d]", 12345), RI("[%+05d]", 3),
	RI("[% 05d]", 3), RI("[%.12d]", INT32_MIN), RI("[%-+8.4d]", 12),
	/* %u */
	RU("%u", 0), RU("%u", 1), RU("%u", UINT32_MAX), RU("[%+u]", 5), RU("[% u]", 5),
	RU("[%08u]", 99), RU("[%.10u]", 99), RU("[%-6u]", 99), RU("[%.0u]", 0),
	/* %x, %X */
	RU("%x", 0), RU("%x", 0xdeadbeef), RU("%X", 0xdeadbeef), RU("[%#x]", 0),
	RU("[%#x]", 255), RU("[%#X]", 255), RU("[%#08x]", 255), RU("[%#.8x]", 255),
	RU("[%#-8x]", 255), RU("[%08X]", 0xabc), RU("[%.0x]", 0), RU("[%#.0x]", 0),
	RU("[%#5.0x]", 0), RU("[%#10.6X]", 0xbeef), RU("%x", UINT32_MAX),
	/* %o */
	RU("%o", 0), RU("%o", 8), RU("%o", UINT32_MAX), RU("[%#o]", 8), RU("[%#o]", 0),
	RU("[%#.0o]", 0), RU("[%.0o]", 0), RU("[%#.5o]", 8), RU("[%#5o]", 8), RU("[%#-5o]", 8),
	RU("[%#05o]", 8), RU("[%#.3o]", 8),
	/* hh, h: the argument is converted back to the narrow type */
	RI("%hhd", 300), RI("%hhd", 200), RI("%hhd", -128), RI("%hhi", 127), RU("%hhu", 511),
	RU("%hhx", UINT32_MAX), RU("%hho", 0x1ff), RU("%#hhX", 0xabcd),
	RI("%hd", 70000), RI("%hd", -32768), RU("%hu", UINT32_MAX), RU("%hx", 0x12345),
	RU("%#ho", 0xffff),
	/* l */
	RL("%ld", 0), RL("%ld", INT64_MIN), RL("%ld", INT64_MAX), RL("%li", -1),
	RUL("%lu", UINT64_MAX), RUL("%lx", UINT64_MAX), RUL("%#lx", 0x80000000UL),
	RUL("%lX", 0xcafef00dUL), RUL("%lo", UINT64_MAX), RUL("[%#10lx]", 0x1234),
	RUL("[%#-9lx]", 0x1234), RUL("[%016lx]", 0x1234),
	/* ll */
	RLL("%lld", INT64_MIN), RLL("%lld", INT64_MAX), RLL("%lli", 0), RLL("[%020lld]", INT64_MIN),
	RLL("[%+lld]", INT64_MIN), RLL("[%+lld]", INT64_MAX), RLL("[%.25lld]", INT64_MIN),
	RLL("[%-25lld]", INT64_MIN), RLL("[% lld]", INT64_MAX), RULL("%llu", UINT64_MAX),
	RULL("%llu", 0), RULL("%llx", UINT64_MAX), RULL("%llX", UINT64_MAX),
	RULL("%llo", UINT64_MAX), RULL("[%#llo]", UINT64_MAX), RULL("[%#llx]", UINT64_MAX),
	RULL("[%#.20llx]", 1), RULL("[%30llu]", UINT64_MAX),
	/* z, t, j */
	RZ("%zu", 0), RZ("%zu", SIZE_MAX), RZ("%zx", SIZE_MAX), RZ("%#zo", 64), RT("%zd", -5),
	RT("%zi", PTRDIFF_MIN), RT("%td", PTRDIFF_MIN), RT("%td", PTRDIFF_MAX), RT("%ti", -1),
	RZ("%tu", SIZE_MAX), RZ("%tx", 0xabc), RZ("%#tX", 0xabc), RZ("%to", 8),
	RJ("%jd", INT64_MIN), RJ("%ji", 7), RUJ("%ju", UINT64_MAX), RUJ("%jx", UINT64_MAX),
	/* '*' width and precision, negative ones included */
	RWI("[%*d]", 5, 42), RWI("[%*d]", -5, 42), RWI("[%-*d]", 5, 42), RWI("[%-*d]", -5, 42),
	RWI("[%*d]", 0, 42), RWI("[%0*d]", 6, -42), RWI("[%0*d]", -6, -42), RWI("[%.*d]", 4, 42),
	RWI("[%.*d]", -1, 42), RWI("[%.*d]", 0, 0), RWI("[%0.*d]", -3, 42),
	RWI("[%*x]", -9, 0xfe), RWI("[%#*o]", 6, 8), RWI("[%*c]", 4, 'c'), RWI("[%*c]", -4, 'c'),
	RWPI("[%*.*d]", 8, 4, -42), RWPI("[%*.*d]", -8, 4, 42), RWPI("[%0*.*d]", 8, -1, 42),
	RWPI("[%0*.*d]", 8, 2, 42), RWPI("[%+*.*d]", 0, 0, 0),
	RWS("[%*s]", 6, "ab"), RWS("[%*s]", -6, "ab"), RWS("[%.*s]", 1, "abc"),
	RWS("[%.*s]", -1, "abc"), RWS("[%.*s]", 0, "abc"),
	RWPS("[%*.*s]", 6, 2, "abcdef"), RWPS("[%*.*s]", -6, 2, "abcdef"),
	RWPS("[%-*.*s]", 6, 10, "abc"),
	RWLL("[%*lld]", 24, INT64_MIN), RWLL("[%*lld]", -24, INT64_MIN),
	/* several conversions in one format */
	RMIX("x=%d s=%s u=%llu%%", -7, "str", UINT64_MAX),
	RMIX("%5d|%-5s|%#llx", 12, "ab", 0xfeedULL),
};

/* Runs one row through fn with the argument types its kind names. */
static int call_row(snprintf_like_fn fn, char *buf, size_t size, const struct fmt_row *r)
{
	switch (r->kind) {
	case ARG_NONE:
		return fn(buf, size, r->fmt);
	case ARG_INT:
		return fn(buf, size, r->fmt, (int)r->s);
	case ARG_UINT:
		return fn(buf, size, r->fmt, (unsigned int)r->u);
	case ARG_LONG:
		return fn(buf, size, r->fmt, (long)r->s);
	case ARG_ULONG:
		return fn(buf, size, r->fmt, (unsigned long)r->u);
	case ARG_LLONG:
		return fn(buf, size, r->fmt, (long long)r->s);
	case ARG_ULLONG:
		return fn(buf, size, r->fmt, (unsigned long long)r->u);
	case ARG_SIZE:
		return fn(buf, size, r->fmt, (size_t)r->u);
	case ARG_PTRDIFF:
		return fn(buf, size, r->fmt, (ptrdiff_t)r->s);
	case ARG_INTMAX:
		return fn(buf, size, r->fmt, (intmax_t)r->s);
	case ARG_UINTMAX:
		return fn(buf, size, r->fmt, (uintmax_t)r->u);
	case ARG_STR:
		return fn(buf, size, r->fmt, r->str);
	case ARG_STAR_INT:
		return fn(buf, size, r->fmt, r->w, (int)r->s);
	case ARG_STAR_STR:
		return fn(buf, size, r->fmt, r->w, r->str);
	case ARG_STAR_STAR_INT:
		return fn(buf, size, r->fmt, r->w, r->p, (int)r->s);
	case ARG_STAR_STAR_STR:
		return fn(buf, size, r->fmt, r->w, r->p, r->str);
	case ARG_STAR_LLONG:
		return fn(buf, size, r->fmt, r->w, (long long)r->s);
	case ARG_MIXED:
		return fn(buf, size, r->fmt, (int)r->s, r->str, (unsigned long long)r->u);
	}
	fail_msg("bad row kind %d", (int)r->kind);
	return -1;
}

/* How many characters a call returning ret stored in a buffer of size bytes. */
static int stored_len(int ret, size_t size)
{
	if (ret < 0 || size == 0)
		return 0;
	return (size_t)ret < size ? ret : (int)size - 1;
}

/* Same return value and same bytes, including those past the NUL, for one buffer size. */
static void compare_row_at_size(const struct fmt_row *r, size_t size)
{
	char kbuf[OUT_MAX], hbuf[OUT_MAX];
	int kret, hret;

	memset(kbuf, FILL_BYTE, sizeof(kbuf));
	memset(hbuf, FILL_BYTE, sizeof(hbuf));
	kret = call_row(kernel_fn, size ? kbuf : NULL, size, r);
	hret = call_row(libc_fn, size ? hbuf : NULL, size, r);
	if (kret != hret || memcmp(kbuf, hbuf, sizeof(kbuf)) != 0)
		fail_msg("format \"%s\" size %zu: kfmt returned %d \"%.*s\", libc %d \"%.*s\"",
			 r->fmt, size, kret, stored_len(kret, size), kbuf, hret,
			 stored_len(hret, size), hbuf);
}

struct bounded {
	char *buf;
	size_t size, len;
};

static void bounded_putc(void *ctx, char c)
{
	struct bounded *k = ctx;

	if (k->len + 1 < k->size)
		k->buf[k->len] = c;
	k->len++;
}

/* snprintf through a capture and its replay (what the kernel's log does across the BKL). */
static int captured_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	struct kfmt_capture c;
	struct bounded k = { buf, size, 0 };
	va_list ap;
	int n;

	memset(&c, FILL_BYTE, sizeof(c)); /* nothing of the replay may come from unset bytes */
	va_start(ap, fmt);
	assert_int_equal(kfmt_vcapture(&c, fmt, ap), 0);
	va_end(ap);
	n = kfmt_replay(bounded_putc, &k, &c);
	if (size > 0)
		buf[k.len < size ? k.len : size - 1] = '\0';
	return n;
}

/* Every row captured, then replayed: the same bytes as libc's snprintf. */
static void test_table_captured_against_libc(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(host_rows) / sizeof(host_rows[0]); i++) {
		const struct fmt_row *r = &host_rows[i];
		char kbuf[OUT_MAX], hbuf[OUT_MAX];
		int kret, hret;

		memset(kbuf, FILL_BYTE, sizeof(kbuf));
		memset(hbuf, FILL_BYTE, sizeof(hbuf));
		kret = call_row(captured_fn, kbuf, sizeof(kbuf), r);
		hret = call_row(libc_fn, hbuf, sizeof(hbuf), r);
		if (kret != hret || memcmp(kbuf, hbuf, sizeof(kbuf)) != 0)
			fail_msg("format \"%s\" captured: replay returned %d \"%s\", libc %d \"%s\"",
				 r->fmt, kret, kbuf, hret, hbuf);
	}
}

static int capture(struct kfmt_capture *c, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = kfmt_vcapture(c, fmt, ap);
	va_end(ap);
	return r;
}

/* A capture keeps copies of its strings (the process named may be freed before the line is
 * written out), and refuses what does not fit rather than cut it. */
static void test_capture_copies_and_refuses(void **state)
{
	struct kfmt_capture c;
	char name[16] = "blk", out[OUT_MAX], big[KFMT_CAPTURE_CHARS + 1];
	struct bounded k = { out, sizeof(out), 0 };

	(void)state;
	assert_int_equal(capture(&c, "process %s ended (status %ld)%s", name, -3L, (char *)NULL), 0);
	strcpy(name, "gone");
	kfmt_replay(bounded_putc, &k, &c);
	out[k.len] = '\0';
	assert_string_equal(out, "process blk ended (status -3)(null)");

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(capture(&c, "%s", big), -1); /* with its NUL: one byte too many */
	big[sizeof(big) - 2] = '\0';
	assert_int_equal(capture(&c, "%s", big), 0);
	assert_int_equal(capture(&c, "%d %d %d %d %d %d %d %d", 1, 2, 3, 4, 5, 6, 7, 8), 0);
	assert_int_equal(capture(&c, "%d %d %d %d %d %d %d %*d", 1, 2, 3, 4, 5, 6, 7, 3, 8), -1);
}

static void test_table_against_libc(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(host_rows) / sizeof(host_rows[0]); i++) {
		const struct fmt_row *r = &host_rows[i];
		char hbuf[OUT_MAX];
		int len = call_row(libc_fn, hbuf, sizeof(hbuf), r);

		assert_in_range(len, 0, OUT_MAX - 1);
		compare_row_at_size(r, OUT_MAX);
	}
}

/* Every row again, cut at sizes 0, 1, len - 1 (one short), len (loses the last character) and
 * len + 1 (exact fit). */
static void test_table_truncated(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(host_rows) / sizeof(host_rows[0]); i++) {
		const struct fmt_row *r = &host_rows[i];
		char hbuf[OUT_MAX];
		size_t len = (size_t)call_row(libc_fn, hbuf, sizeof(hbuf), r);
		size_t sizes[] = { 0, 1, len > 0 ? len - 1 : 0, len, len + 1 };

		for (size_t j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++)
			compare_row_at_size(r, sizes[j]);
	}
}

static void test_snprintf_sizes(void **state)
{
	char buf[16];

	(void)state;
	assert_int_equal(ksnprintf(NULL, 0, "%d", 12345), 5);

	memset(buf, 'X', sizeof(buf));
	assert_int_equal(ksnprintf(buf, 0, "%d", 12345), 5);
	assert_int_equal(buf[0], 'X');

	memset(buf, 'X', sizeof(buf));
	assert_int_equal(ksnprintf(buf, 1, "%d", 12345), 5);
	assert_int_equal(buf[0], '\0');
	assert_int_equal(buf[1], 'X');

	memset(buf, 'X', sizeof(buf));
	assert_int_equal(ksnprintf(buf, 5, "%d", 12345), 5);
	assert_string_equal(buf, "1234");
	assert_int_equal(buf[5], 'X');

	memset(buf, 'X', sizeof(buf));
	assert_int_equal(ksnprintf(buf, 6, "%d", 12345), 5);
	assert_string_equal(buf, "12345");
	assert_int_equal(buf[6], 'X');

	memset(buf, 'X', sizeof(buf));
	assert_int_equal(ksnprintf(buf, sizeof(buf), "%s", ""), 0);
	assert_string_equal(buf, "");
}

static void test_pointer(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(ksnprintf(buf, sizeof(buf), "%p", NULL), 18);
	assert_string_equal(buf, "0x0000000000000000");
	ksnprintf(buf, sizeof(buf), "%p", (void *)(uintptr_t)0x1234);
	assert_string_equal(buf, "0x0000000000001234");
	ksnprintf(buf, sizeof(buf), "%p", (void *)(uintptr_t)0xdeadbeefcafef00dULL);
	assert_string_equal(buf, "0xdeadbeefcafef00d");
	ksnprintf(buf, sizeof(buf), "%p", (void *)UINTPTR_MAX);
	assert_string_equal(buf, "0xffffffffffffffff");
	ksnprintf(buf, sizeof(buf), "[%20p]", (void *)(uintptr_t)0xab);
	assert_string_equal(buf, "[  0x00000000000000ab]");
	ksnprintf(buf, sizeof(buf), "[%-20p]", (void *)(uintptr_t)0xab);
	assert_string_equal(buf, "[0x00000000000000ab  ]");
	/* Fixed width: '0' and a short width change nothing. */
	kernel_fn(buf, sizeof(buf), "[%05p]", (void *)(uintptr_t)0xab);
	assert_string_equal(buf, "[0x00000000000000ab]");
}

static void test_null_string(void **state)
{
	/* volatile: else gcc sees through kernel_fn and rejects a NULL %s at build time. */
	const char *volatile null_str = NULL;
	char buf[64];

	(void)state;
	assert_int_equal(kernel_fn(buf, sizeof(buf), "%s", null_str), 6);
	assert_string_equal(buf, "(null)");
	kernel_fn(buf, sizeof(buf), "[%8s]", null_str);
	assert_string_equal(buf, "[  (null)]");
	kernel_fn(buf, sizeof(buf), "[%-8s]", null_str);
	assert_string_equal(buf, "[(null)  ]");
	/* The precision cuts it like any other string (glibc would print nothing). */
	kernel_fn(buf, sizeof(buf), "[%.2s]", null_str);
	assert_string_equal(buf, "[(n]");
}

/* With a precision, %s must not read past it: under ASan an over-read of `abc` would fail. */
static void test_string_precision_unterminated(void **state)
{
	const char abc[3] = { 'a', 'b', 'c' };
	char buf[16];

	(void)state;
	assert_int_equal(ksnprintf(buf, sizeof(buf), "%.3s|%.*s", abc, 2, abc), 6);
	assert_string_equal(buf, "abc|ab");
}

static void test_unknown_conversion(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(kernel_fn(buf, sizeof(buf), "%y"), 2);
	assert_string_equal(buf, "%y");
	kernel_fn(buf, sizeof(buf), "a%yb%d", 5);
	assert_string_equal(buf, "a%yb5");
	/* Flags, width and length before an unknown conversion are dropped. */
	kernel_fn(buf, sizeof(buf), "[%-5ly]");
	assert_string_equal(buf, "[%y]");
	/* A lone '%' at the end of the format. */
	assert_int_equal(kernel_fn(buf, sizeof(buf), "abc%"), 4);
	assert_string_equal(buf, "abc%");
	assert_int_equal(kernel_fn(buf, sizeof(buf), "abc%-08l"), 4);
	assert_string_equal(buf, "abc%");
}

struct sink_state {
	size_t calls;
	char buf[OUT_MAX];
};

static void sink_putc(void *ctx, char c)
{
	struct sink_state *s = ctx;

	if (s->calls < sizeof(s->buf))
		s->buf[s->calls] = c;
	s->calls++;
}

static int sink_format(struct sink_state *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kfmt_vformat(sink_putc, s, fmt, ap);
	va_end(ap);
	return n;
}

static void test_sink_counts(void **state)
{
	struct sink_state s = { 0 };
	int n;

	(void)state;
	n = sink_format(&s, "%s=%#lx (%d%%)", "pa", 0x80200000UL, -3);
	assert_int_equal(n, (int)s.calls);
	assert_int_equal(n, (int)strlen("pa=0x80200000 (-3%)"));
	assert_memory_equal(s.buf, "pa=0x80200000 (-3%)", s.calls);

	memset(&s, 0, sizeof(s));
	n = sink_format(&s, "%1000d", 1);
	assert_int_equal(n, 1000);
	assert_int_equal(s.calls, 1000);

	memset(&s, 0, sizeof(s));
	n = sink_format(&s, "%c%c%c", 'a', '\0', 'b');
	assert_int_equal(n, 3);
	assert_memory_equal(s.buf, "a\0b", 3);

	memset(&s, 0, sizeof(s));
	assert_int_equal(sink_format(&s, ""), 0);
	assert_int_equal(s.calls, 0);
}

/* kvsnprintf takes a va_list that its caller may use again after va_copy. */
static int format_twice(char *a, char *b, size_t size, const char *fmt, ...)
{
	va_list ap, again;
	int n, m;

	va_start(ap, fmt);
	va_copy(again, ap);
	n = kvsnprintf(a, size, fmt, ap);
	m = kvsnprintf(b, size, fmt, again);
	va_end(again);
	va_end(ap);
	assert_int_equal(n, m);
	return n;
}

static void test_vsnprintf(void **state)
{
	char a[32], b[32];

	(void)state;
	assert_int_equal(format_twice(a, b, sizeof(a), "%s-%llu-%c", "x", 18446744073709551615ULL,
				      'z'),
			 24);
	assert_string_equal(a, "x-18446744073709551615-z");
	assert_string_equal(b, a);
	assert_int_equal(format_twice(a, b, 8, "%s-%llu", "x", 1234567890ULL), 12);
	assert_string_equal(a, "x-12345");
	assert_string_equal(b, a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_against_libc),
		cmocka_unit_test(test_table_truncated),
		cmocka_unit_test(test_table_captured_against_libc),
		cmocka_unit_test(test_capture_copies_and_refuses),
		cmocka_unit_test(test_snprintf_sizes),
		cmocka_unit_test(test_pointer),
		cmocka_unit_test(test_null_string),
		cmocka_unit_test(test_string_precision_unterminated),
		cmocka_unit_test(test_unknown_conversion),
		cmocka_unit_test(test_sink_counts),
		cmocka_unit_test(test_vsnprintf),
	};

	return cmocka_run_group_tests_name("kfmt", tests, NULL, NULL);
}
