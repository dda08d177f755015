/* test_imsic_id.c: host tests of an IMSIC file's identity table (kernel/arch/riscv/imsic_id.c):
 * the counts a file may have, reserving and freeing with their refusals, the lowest free
 * identity above a floor across full words, exhaustion, and a random run of every operation
 * checked against a plain array. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "imsic_id.h"
#include <tacet/abi.h>

static void test_init_counts(void **state)
{
	struct imsic_ids ids;

	(void)state;
	assert_int_equal(imsic_ids_init(&ids, 63), 0);
	assert_int_equal(imsic_ids_init(&ids, 255), 0); /* QEMU virt's riscv,num-ids */
	assert_int_equal(imsic_ids_init(&ids, 2047), 0);
	assert_int_equal(imsic_ids_init(&ids, 0), -TACET_EINVAL);
	assert_int_equal(imsic_ids_init(&ids, 62), -TACET_EINVAL);
	assert_int_equal(imsic_ids_init(&ids, 64), -TACET_EINVAL);
	assert_int_equal(imsic_ids_init(&ids, 2048), -TACET_EINVAL);
	assert_int_equal(imsic_ids_init(&ids, 4095), -TACET_EINVAL);
}

static void test_reserve_and_free(void **state)
{
	struct imsic_ids ids;

	(void)state;
	assert_int_equal(imsic_ids_init(&ids, 255), 0);
	assert_int_equal(imsic_ids_reserve(&ids, 0), -TACET_EINVAL); /* no identity 0 */
	assert_int_equal(imsic_ids_reserve(&ids, 256), -TACET_EINVAL);
	assert_int_equal(imsic_ids_reserve(&ids, 1), 0);
	assert_int_equal(imsic_ids_reserve(&ids, 255), 0);
	assert_int_equal(imsic_ids_reserve(&ids, 1), -TACET_EBUSY);
	assert_true(imsic_ids_taken(&ids, 1));
	assert_true(imsic_ids_taken(&ids, 255));
	assert_false(imsic_ids_taken(&ids, 2));
	assert_false(imsic_ids_taken(&ids, 0));
	assert_false(imsic_ids_taken(&ids, 256));
	assert_int_equal(imsic_ids_free(&ids, 1), 0);
	assert_int_equal(imsic_ids_free(&ids, 1), -TACET_EINVAL); /* not taken: unchanged */
	assert_int_equal(imsic_ids_free(&ids, 0), -TACET_EINVAL);
	assert_int_equal(imsic_ids_free(&ids, 300), -TACET_EINVAL);
	assert_false(imsic_ids_taken(&ids, 1));
	assert_true(imsic_ids_taken(&ids, 255));
}

/* The wired lines 1..96 reserved, as aia.c does on every hart: MSIs get 97, 98, ... */
static void test_alloc_above_floor(void **state)
{
	struct imsic_ids ids;

	(void)state;
	assert_int_equal(imsic_ids_init(&ids, 255), 0);
	for (uint32_t id = 1; id <= 96; id++)
		assert_int_equal(imsic_ids_reserve(&ids, id), 0);
	assert_int_equal(imsic_ids_alloc(&ids, 0), 97);
	assert_int_equal(imsic_ids_alloc(&ids, 0), 98);
	assert_int_equal(imsic_ids_alloc(&ids, 100), 101);
	assert_int_equal(imsic_ids_alloc(&ids, 0), 99);
	assert_int_equal(imsic_ids_free(&ids, 98), 0);
	assert_int_equal(imsic_ids_alloc(&ids, 0), 98); /* the lowest free again */
	assert_int_equal(imsic_ids_alloc(&ids, 255), -TACET_ENOMEM);
	assert_int_equal(imsic_ids_alloc(&ids, 0xffffffffu), -TACET_ENOMEM);
}

static void test_exhaustion(void **state)
{
	struct imsic_ids ids;

	(void)state;
	assert_int_equal(imsic_ids_init(&ids, 2047), 0);
	for (int id = 1; id <= 2047; id++)
		assert_int_equal(imsic_ids_alloc(&ids, 0), id);
	assert_int_equal(imsic_ids_alloc(&ids, 0), -TACET_ENOMEM);
	assert_int_equal(imsic_ids_free(&ids, 1500), 0);
	assert_int_equal(imsic_ids_alloc(&ids, 0), 1500);
	assert_int_equal(imsic_ids_free(&ids, 2047), 0);
	assert_int_equal(imsic_ids_alloc(&ids, 0), 2047);
	assert_int_equal(imsic_ids_alloc(&ids, 0), -TACET_ENOMEM);
}

/* 200,000 random operations against a plain array of booleans. */
static void test_random_against_model(void **state)
{
	static const uint32_t counts[] = {63, 255, 2047};
	struct imsic_ids ids;
	bool model[IMSIC_IDS_MAX + 1];

	(void)state;
	srand(27);
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		uint32_t n = counts[c];

		assert_int_equal(imsic_ids_init(&ids, n), 0);
		memset(model, 0, sizeof(model));
		for (int step = 0; step < 200000 / 3; step++) {
			uint32_t id = (uint32_t)rand() % (n + 3),
				 floor = (uint32_t)rand() % (n + 2);
			int op = rand() % 3, want;

			if (op == 0) {
				want = id < 1 || id > n ? -TACET_EINVAL
				       : model[id]	? -TACET_EBUSY
							: 0;
				assert_int_equal(imsic_ids_reserve(&ids, id), want);
				if (!want)
					model[id] = true;
			} else if (op == 1) {
				want = id >= 1 && id <= n && model[id] ? 0 : -TACET_EINVAL;
				assert_int_equal(imsic_ids_free(&ids, id), want);
				if (!want)
					model[id] = false;
			} else {
				want = -TACET_ENOMEM;
				for (uint32_t i = floor + 1; i <= n; i++)
					if (!model[i]) {
						want = (int)i;
						break;
					}
				assert_int_equal(imsic_ids_alloc(&ids, floor), want);
				if (want > 0)
					model[want] = true;
			}
		}
		for (uint32_t i = 0; i <= n + 1; i++)
			assert_int_equal(imsic_ids_taken(&ids, i), i <= n && model[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_init_counts),		 cmocka_unit_test(test_reserve_and_free),
	    cmocka_unit_test(test_alloc_above_floor),	 cmocka_unit_test(test_exhaustion),
	    cmocka_unit_test(test_random_against_model),
	};

	return cmocka_run_group_tests_name("imsic_id", tests, NULL, NULL);
}
