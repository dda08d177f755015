/* test_blk_seal.c: host unit tests of lib/blk_seal.c (<tacet/blk_seal.h>): CRC-32C against its
 * published check value; a sealed run of sectors checks clean and gives back its generations;
 * every single-bit flip anywhere in a sealed sector fails it (data, CRC, generation or number);
 * a sector read from the wrong place (its seal names another number), sectors swapped, an
 * older generation than the caller's minimum, a sector never sealed (zeros, ones) each fail
 * with the reason and the first failing index. The sectors are malloc'd to their exact size,
 * so ASan catches any access outside them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <tacet/abi.h>
#include <tacet/blk_seal.h>

#define S BLK_SEAL_SECTOR

static uint8_t *sectors(unsigned long n, unsigned int seed)
{
	uint8_t *b = malloc(n * S);

	assert_non_null(b);
	srand(seed);
	for (unsigned long i = 0; i < n * S; i++)
		b[i] = (uint8_t)rand();
	return b;
}

static void test_crc32c_check_value(void **state)
{
	(void)state;
	assert_int_equal(blk_crc32c(0, "123456789", 9), 0xe3069283u);
	assert_int_equal(blk_crc32c(0, "", 0), 0);
	/* continued in two pieces: the same as at once */
	assert_int_equal(blk_crc32c(blk_crc32c(0, "1234", 4), "56789", 5), 0xe3069283u);
}

static void test_sealed_checks_clean(void **state)
{
	uint8_t *b = sectors(4, 1);
	uint32_t gens[4] = { 0 };
	struct blk_seal_fault f = { .why = BLK_SEAL_CRC };

	(void)state;
	blk_seal(b, (1ull << 33) + 10, 4, 7); /* a number past 32 bits */
	assert_int_equal(blk_seal_check(b, (1ull << 33) + 10, 4, 7, gens, &f), 0);
	assert_int_equal(f.why, BLK_SEAL_OK);
	for (int i = 0; i < 4; i++)
		assert_int_equal(gens[i], 7);
	assert_int_equal(blk_seal_check(b, (1ull << 33) + 10, 4, 0, NULL, NULL), 0);
	free(b);
}

static void test_every_bit_flip_found(void **state)
{
	uint8_t *b = sectors(1, 2);
	struct blk_seal_fault f;

	(void)state;
	blk_seal(b, 5, 1, 3);
	for (unsigned int bit = 0; bit < S * 8; bit++) {
		b[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		assert_int_equal(blk_seal_check(b, 5, 1, 0, NULL, &f), -TACET_ECORRUPT);
		assert_int_equal(f.why, BLK_SEAL_CRC);
		assert_int_equal(f.index, 0);
		b[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	assert_int_equal(blk_seal_check(b, 5, 1, 0, NULL, &f), 0);
	free(b);
}

static void test_wrong_place_and_swapped(void **state)
{
	uint8_t *b = sectors(3, 3), tmp[S];
	struct blk_seal_fault f;

	(void)state;
	blk_seal(b, 7, 3, 1); /* sectors 7, 8, 9 */
	assert_int_equal(blk_seal_check(b, 9, 1, 0, NULL, &f), -TACET_ECORRUPT);
	assert_int_equal(f.why, BLK_SEAL_ELSEWHERE); /* sector 7's data read as 9's */
	assert_int_equal(f.named, 7);
	memcpy(tmp, b + S, S); /* 8 and 9 swapped: the first bad one is index 1 */
	memcpy(b + S, b + 2 * S, S);
	memcpy(b + 2 * S, tmp, S);
	assert_int_equal(blk_seal_check(b, 7, 3, 0, NULL, &f), -TACET_ECORRUPT);
	assert_int_equal(f.why, BLK_SEAL_ELSEWHERE);
	assert_int_equal(f.index, 1);
	assert_int_equal(f.named, 9);
	free(b);
}

static void test_older_generation_is_stale(void **state)
{
	uint8_t *b = sectors(2, 4);
	uint32_t gens[2];
	struct blk_seal_fault f;

	(void)state;
	blk_seal(b, 0, 1, 4);
	blk_seal(b + S, 1, 1, 3); /* a write of generation 4 never landed on sector 1 */
	assert_int_equal(blk_seal_check(b, 0, 2, 3, gens, &f), 0);
	assert_int_equal(gens[0], 4);
	assert_int_equal(gens[1], 3);
	assert_int_equal(blk_seal_check(b, 0, 2, 4, NULL, &f), -TACET_ECORRUPT);
	assert_int_equal(f.why, BLK_SEAL_STALE);
	assert_int_equal(f.index, 1);
	assert_int_equal(f.gen, 3);
	free(b);
}

static void test_never_sealed(void **state)
{
	uint8_t *b = calloc(1, S);
	struct blk_seal_fault f;

	(void)state;
	assert_non_null(b);
	assert_int_equal(blk_seal_check(b, 0, 1, 0, NULL, &f), -TACET_ECORRUPT); /* zeros */
	assert_int_equal(f.why, BLK_SEAL_CRC);
	memset(b, 0xff, S);
	assert_int_equal(blk_seal_check(b, 0, 1, 0, NULL, &f), -TACET_ECORRUPT);
	assert_int_equal(f.why, BLK_SEAL_CRC);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32c_check_value),
		cmocka_unit_test(test_sealed_checks_clean),
		cmocka_unit_test(test_every_bit_flip_found),
		cmocka_unit_test(test_wrong_place_and_swapped),
		cmocka_unit_test(test_older_generation_is_stale),
		cmocka_unit_test(test_never_sealed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
