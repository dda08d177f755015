/* host_file.h: a host test reads a whole file the build made (an ELF image) into memory, or
 * fails naming what builds it. Include after <cmocka.h>. The caller frees data. */
#ifndef TESTS_HOST_FILE_H
#define TESTS_HOST_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct file {
	uint8_t *data;
	size_t size;
};

static inline struct file read_file(const char *path, const char *made_by)
{
	struct file f = { 0 };
	FILE *fp = fopen(path, "rb");
	long len;

	if (!fp)
		fail_msg("cannot open %s (%s)", path, made_by);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	len = ftell(fp);
	assert_true(len > 0);
	rewind(fp);
	f.size = (size_t)len;
	f.data = malloc(f.size);
	assert_non_null(f.data);
	assert_int_equal(fread(f.data, 1, f.size, fp), f.size);
	fclose(fp);
	return f;
}

#endif
