/* host_sort.h: the host tests' qsort comparison of uint64_t values, ascending. */
#ifndef TESTS_HOST_SORT_H
#define TESTS_HOST_SORT_H

#include <stdint.h>

static inline int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

#endif
