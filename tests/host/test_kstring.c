/* test_kstring.c: host unit tests of kernel/lib/kstring.c. The build renames the kernel's functions
 * (kmemset, kmemcpy, ...: tests/host/kstring.mk), so the names below are the kernel's. memset
 * and memcpy are checked against a plain byte-by-byte reference at every alignment of both
 * ends and every length up to ten words (so a word-at-a-time version's unaligned head, word
 * loop and tail are all covered), and for not touching a byte outside their range. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/kstring.h"

#define AREA   128 /* bytes; offsets and lengths below stay inside with room to spare */
#define GUARD  0x5a
#define MAXLEN 80  /* ten words and some */
#define MAXOFF 16  /* every alignment twice */

/* 8-byte aligned buffers, so an offset is an alignment */
static _Alignas(8) unsigned char dst[AREA], src[AREA], want[AREA];

static void fill(unsigned char *p, unsigned char seed)
{
	for (size_t i = 0; i < AREA; i++)
		p[i] = (unsigned char)(seed + 7 * i);
}

static void assert_same(const unsigned char *got, const unsigned char *exp, size_t off, size_t len)
{
	for (size_t i = 0; i < AREA; i++)
		if (got[i] != exp[i])
			fail_msg("byte %zu differs (range %zu+%zu): %#x, want %#x", i, off, len, got[i],
				 exp[i]);
}

static void test_memset(void **state)
{
	(void)state;
	for (size_t off = 0; off < MAXOFF; off++)
		for (size_t len = 0; len <= MAXLEN; len++)
			for (int c = 0; c < 0x300; c += 0x17f) { /* 0, 0x17f (only 0x7f counts), 0x2fe */
				for (size_t i = 0; i < AREA; i++)
					dst[i] = want[i] = GUARD;
				for (size_t i = 0; i < len; i++)
					want[off + i] = (unsigned char)c;
				assert_ptr_equal(memset(dst + off, c, len), dst + off);
				assert_same(dst, want, off, len);
			}
}

static void test_memcpy(void **state)
{
	(void)state;
	fill(src, 1);
	for (size_t doff = 0; doff < MAXOFF; doff++)
		for (size_t soff = 0; soff < MAXOFF; soff++) /* equally misaligned, or not */
			for (size_t len = 0; len <= MAXLEN; len++) {
				for (size_t i = 0; i < AREA; i++)
					dst[i] = want[i] = GUARD;
				for (size_t i = 0; i < len; i++)
					want[doff + i] = src[soff + i];
				assert_ptr_equal(memcpy(dst + doff, src + soff, len), dst + doff);
				assert_same(dst, want, doff, len);
			}
}

static void test_memcmp(void **state)
{
	(void)state;
	fill(src, 3);
	fill(dst, 3);
	assert_int_equal(memcmp(dst, src, AREA), 0);
	assert_int_equal(memcmp(dst, src, 0), 0);
	dst[40] = (unsigned char)(src[40] + 1);
	assert_true(memcmp(dst, src, AREA) > 0);
	assert_true(memcmp(src, dst, AREA) < 0);
	assert_int_equal(memcmp(dst, src, 40), 0); /* the difference is past the range */
	dst[40] = 0xff;
	src[40] = 0x01;
	assert_true(memcmp(dst, src, 41) > 0); /* compared as unsigned char */
}

static void test_strings(void **state)
{
	(void)state;
	assert_int_equal(strlen(""), 0);
	assert_int_equal(strlen("tacet"), 5);
	assert_int_equal(strnlen("tacet", 9), 5);
	assert_int_equal(strnlen("tacet", 3), 3); /* stops at max, terminated or not */
	assert_int_equal(strnlen("ta\0cet", 7), 2);
	assert_int_equal(strnlen("", 0), 0);
	assert_int_equal(strcmp("uart", "uart"), 0);
	assert_true(strcmp("uart", "uarta") < 0);
	assert_true(strcmp("ub", "ua") > 0);
	assert_true(strcmp("\xff", "a") > 0); /* unsigned, as the C library compares */
	assert_int_equal(strncmp("uart0", "uart1", 4), 0);
	assert_true(strncmp("uart0", "uart1", 5) < 0);
	assert_int_equal(strncmp("a", "b", 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memset),
		cmocka_unit_test(test_memcpy),
		cmocka_unit_test(test_memcmp),
		cmocka_unit_test(test_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
