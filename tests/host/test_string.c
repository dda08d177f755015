/* test_string.c: host unit tests of lib/string.c, user space's memcpy, memmove and memset. The
 * build renames them (umemcpy, ...: tests/host/string.mk), so the names below are lib's. Each
 * is checked against a byte-by-byte reference at every alignment of both ends (equal or not:
 * the shifted word loop) and every length up to ten words, for not touching a byte outside its
 * range; memmove also with the ends overlapping, either way round. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);

#define AREA   160
#define GUARD  0x5a
#define MAXLEN 80 /* ten words and some */
#define MAXOFF 16 /* every alignment twice */

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
			for (int c = 0; c < 0x300; c += 0x17f) {
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
		for (size_t soff = 0; soff < MAXOFF; soff++)
			for (size_t len = 0; len <= MAXLEN; len++) {
				for (size_t i = 0; i < AREA; i++)
					dst[i] = want[i] = GUARD;
				for (size_t i = 0; i < len; i++)
					want[doff + i] = src[soff + i];
				assert_ptr_equal(memcpy(dst + doff, src + soff, len), dst + doff);
				assert_same(dst, want, doff, len);
			}
}

/* Within one area: from off_from to off_to, len bytes, the ranges overlapping or not. */
static void test_memmove(void **state)
{
	(void)state;
	for (size_t from = 0; from < 2 * MAXOFF; from++)
		for (size_t to = 0; to < 2 * MAXOFF; to++)
			for (size_t len = 0; len <= MAXLEN; len++) {
				fill(dst, 3);
				fill(want, 3);
				for (size_t i = 0; i < len; i++)
					want[to + i] = (unsigned char)(3 + 7 * (from + i));
				assert_ptr_equal(memmove(dst + to, dst + from, len), dst + to);
				assert_same(dst, want, to, len);
			}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memset),
		cmocka_unit_test(test_memcpy),
		cmocka_unit_test(test_memmove),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
