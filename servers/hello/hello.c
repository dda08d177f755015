/* hello.c: the first server the kernel runs. It speaks no IPC protocol: it prints a greeting,
 * checks that the C library (picolibc over lib/) works on Tacet (formatting, parsing, sorting,
 * the heap, errno in TLS) and exits 0, or 1 after naming the first check that failed. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tacet.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* More than lib/heap.S holds, so malloc() must fail. */
#define HEAP_TOO_BIG (128 * 1024)

static int check_fail(const char *what)
{
	printf("hello: FAIL %s\n", what);
	return 1;
}

static int check_snprintf(void)
{
	char buf[32];
	char small[4];
	/* volatile: gcc would reject the truncation it can see coming at compile time. */
	volatile int big = -123456;

	if (snprintf(buf, sizeof(buf), "%s-%05d-%#lx-%c", "ab", 42, 0xbeeful, 'z') != 17 ||
	    strcmp(buf, "ab-00042-0xbeef-z"))
		return check_fail("snprintf");
	/* Truncated: the result is still the full length, the buffer NUL-terminated. */
	if (snprintf(small, sizeof(small), "%d", big) != 7 || strcmp(small, "-12"))
		return check_fail("snprintf truncation");
	return 0;
}

static int check_strtoul(void)
{
	char *end;

	if (strtoul("0x1fZ", &end, 0) != 0x1f || *end != 'Z')
		return check_fail("strtoul base 0");
	if (strtoul("  777", &end, 8) != 0777 || *end)
		return check_fail("strtoul base 8");
	/* errno lives in TLS: this also checks crt0's tp set-up. */
	errno = 0;
	if (strtoul("123456789012345678901234567890", &end, 10) != ULONG_MAX || errno != ERANGE)
		return check_fail("strtoul overflow");
	return 0;
}

static int compare_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static int check_qsort(void)
{
	long v[] = { 42, -7, 1000, 0, 13, -7, 99, 5, LONG_MAX, LONG_MIN };

	qsort(v, ARRAY_LEN(v), sizeof(v[0]), compare_long);
	for (size_t i = 1; i < ARRAY_LEN(v); i++) {
		if (v[i - 1] > v[i])
			return check_fail("qsort");
	}
	if (v[0] != LONG_MIN || v[ARRAY_LEN(v) - 1] != LONG_MAX)
		return check_fail("qsort ends");
	return 0;
}

static int check_malloc(void)
{
	const size_t n = 1000;
	unsigned int *a = malloc(n * sizeof(*a));
	unsigned int *b;

	if (!a)
		return check_fail("malloc");
	for (size_t i = 0; i < n; i++)
		a[i] = i * 3u;
	b = realloc(a, 2 * n * sizeof(*a));
	if (!b) {
		free(a);
		return check_fail("realloc");
	}
	for (size_t i = 0; i < n; i++) {
		if (b[i] != i * 3u) {
			free(b);
			return check_fail("realloc keeps contents");
		}
	}
	free(b);
	errno = 0;
	if (malloc(HEAP_TOO_BIG) || errno != ENOMEM)
		return check_fail("malloc beyond the heap");
	return 0;
}

static int check_strerror(void)
{
	char unknown[32];

	for (long err = 1; err < TACET_ERRNO_COUNT; err++) {
		if (!strncmp(tacet_strerror(-err), "unknown", strlen("unknown")) ||
		    tacet_strerror(-err) != tacet_strerror(err))
			return check_fail("tacet_strerror");
	}
	snprintf(unknown, sizeof(unknown), "unknown error %d", -TACET_ERRNO_COUNT);
	if (strcmp(tacet_strerror(-TACET_ERRNO_COUNT), unknown))
		return check_fail("tacet_strerror unknown");
	return 0;
}

int main(void)
{
	/* through the console server if one is already up, else the kernel's debug output */
	if (tacet_console_attach(0) == 0)
		printf("hello: writing through the console server\n");
	printf("hello from %s: %d + %d = %d\n", "user space", 2, 3, 5);
	if (check_snprintf() || check_strtoul() || check_qsort() || check_malloc() ||
	    check_strerror())
		return 1;
	printf("hello: libc ok\n");
	return 0;
}
