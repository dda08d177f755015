/* test_modules.c: host tests of the boot module archive format, kernel/uapi/tacet/modules.h,
 * as tools/mkmodules.py writes it: the archive tests/host/modules.mk packs at build time is
 * checked byte for byte (header, entries, page alignment, padding, contents), then
 * mkmodules.py's refusals and tools/lsmodules.py's listing and checks.
 *
 * The kernel reads init out of this archive and init reads the other servers, both through
 * the structs of modules.h, so the test reads it both ways: field by field at the byte offsets
 * the format fixes, and through the structs.
 *
 * Run from the repository root as build/host/test_modules [DIR]; DIR (build/host/modules)
 * holds test.img and its inputs in in/; the refusal tests write into DIR/reject/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "uapi/tacet/modules.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define PAGE_SIZE    4096
#define MAX_PATH     512
#define MAX_CMD      2048

/* The byte layout of modules.h: tools/tacet_modules.py packs exactly these offsets. */
#define HDR_MAGIC   0
#define HDR_VERSION 8
#define HDR_COUNT   12
#define HDR_SIZE    16
#define ENT_NAME    0
#define ENT_OFFSET  48
#define ENT_SIZE    56
#define ENTRY_SIZE  64
#define MAGIC_LEN   8

_Static_assert(sizeof(TACET_MODULES_MAGIC) - 1 == MAGIC_LEN, "magic is 8 bytes, no NUL");
_Static_assert(offsetof(struct tacet_modules_header, magic) == HDR_MAGIC, "header magic");
_Static_assert(offsetof(struct tacet_modules_header, version) == HDR_VERSION, "header version");
_Static_assert(offsetof(struct tacet_modules_header, count) == HDR_COUNT, "header count");
_Static_assert(sizeof(struct tacet_modules_header) == HDR_SIZE, "header size");
_Static_assert(offsetof(struct tacet_module, name) == ENT_NAME, "entry name");
_Static_assert(TACET_MODULE_NAME_MAX == ENT_OFFSET, "entry name length");
_Static_assert(offsetof(struct tacet_module, offset) == ENT_OFFSET, "entry offset");
_Static_assert(offsetof(struct tacet_module, size) == ENT_SIZE, "entry size field");
_Static_assert(sizeof(struct tacet_module) == ENTRY_SIZE, "entry size");

#define LONG_NAME "module-name-of-forty-seven-bytes-the-format-max"
_Static_assert(sizeof(LONG_NAME) == TACET_MODULE_NAME_MAX, "the longest name that fits");

/* What modules.mk packs, in its order, and where the format puts each file: the table needs
 * 16 + 5 * 64 bytes, so the first file is at one page; each next one at the first page
 * boundary after the previous (an empty file takes no room). */
struct expected_module {
	const char *name;
	const char *file; /* in DIR/in/ */
	uint64_t offset;
	uint64_t size;
};

static const struct expected_module expected[] = {
	{ "init", "init.elf", 0x1000, 1 },
	{ "console", "console.elf", 0x2000, 4096 },
	{ "blk", "blk", 0x3000, 4097 },
	{ "empty", "empty.elf", 0x5000, 0 },
	{ LONG_NAME, LONG_NAME ".elf", 0x5000, 12345 },
};
#define NMODULES     ARRAY_LEN(expected)
#define ARCHIVE_SIZE 0x9000 /* 0x5000 + 12345 rounded up to a page */

struct blob {
	uint8_t *data;
	size_t size;
};

static const char *dir = "build/host/modules";
static struct blob archive;
static struct blob inputs[NMODULES];

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static const uint8_t *entry_at(size_t i)
{
	return archive.data + HDR_SIZE + i * ENTRY_SIZE;
}

/* Reads a whole file into a malloc buffer of exactly its size (1 byte if empty). */
static int blob_load(const char *path, struct blob *out)
{
	FILE *f = fopen(path, "rb");
	long size;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return -1;
	}
	out->size = (size_t)size;
	out->data = malloc(out->size ? out->size : 1);
	if (!out->data || fread(out->data, 1, out->size, f) != out->size) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

static int blob_save(const char *path, const struct blob *b)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f)
		return -1;
	ok = fwrite(b->data, 1, b->size, f) == b->size;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* snprintf into a MAX_PATH buffer, failing the test rather than truncating. */
static void __attribute__((format(printf, 2, 3))) path_fmt(char *path, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(path, MAX_PATH, fmt, ap);
	va_end(ap);
	assert_true(n > 0 && n < MAX_PATH);
}

static void dir_make(const char *path)
{
	if (mkdir(path, 0777) && errno != EEXIST)
		fail_msg("mkdir %s: %s", path, strerror(errno));
}

/* Runs a shell command; returns its exit status (-1 if it did not exit normally). */
static int run(const char *fmt, ...)
{
	char cmd[MAX_CMD];
	va_list ap;
	int n, status;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_true(n > 0 && (size_t)n < sizeof(cmd));
	status = system(cmd);
	return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int load_all(void **state)
{
	char path[MAX_PATH];

	(void)state;
	path_fmt(path, "%s/test.img", dir);
	if (blob_load(path, &archive)) {
		fprintf(stderr, "cannot read %s: run make host-tests\n", path);
		return -1;
	}
	for (size_t i = 0; i < NMODULES; i++) {
		path_fmt(path, "%s/in/%s", dir, expected[i].file);
		if (blob_load(path, &inputs[i])) {
			fprintf(stderr, "cannot read %s\n", path);
			return -1;
		}
	}
	return 0;
}

static int free_all(void **state)
{
	(void)state;
	free(archive.data);
	for (size_t i = 0; i < NMODULES; i++)
		free(inputs[i].data);
	return 0;
}

/* --- the archive, byte for byte ------------------------------------------------------------ */

static void test_inputs_are_as_listed(void **state)
{
	(void)state;
	for (size_t i = 0; i < NMODULES; i++)
		assert_int_equal(inputs[i].size, expected[i].size);
}

static void test_size_is_whole_pages(void **state)
{
	(void)state;
	assert_int_equal(archive.size, ARCHIVE_SIZE);
	assert_int_equal(archive.size % PAGE_SIZE, 0);
}

static void test_header(void **state)
{
	const struct tacet_modules_header *h = (const void *)archive.data;

	(void)state;
	assert_memory_equal(archive.data + HDR_MAGIC, TACET_MODULES_MAGIC, MAGIC_LEN);
	assert_int_equal(le32(archive.data + HDR_VERSION), TACET_MODULES_VERSION);
	assert_int_equal(le32(archive.data + HDR_COUNT), NMODULES);

	assert_memory_equal(h->magic, TACET_MODULES_MAGIC, sizeof(h->magic));
	assert_int_equal(h->version, TACET_MODULES_VERSION);
	assert_int_equal(h->count, NMODULES);
}

static void test_entries(void **state)
{
	const struct tacet_module *m =
		(const void *)(archive.data + sizeof(struct tacet_modules_header));

	(void)state;
	for (size_t i = 0; i < NMODULES; i++) {
		const uint8_t *e = entry_at(i);
		size_t len = strlen(expected[i].name);

		/* The name, its NUL, and zeros to the end of the field. */
		assert_memory_equal(e + ENT_NAME, expected[i].name, len);
		for (size_t j = len; j < TACET_MODULE_NAME_MAX; j++) {
			if (e[ENT_NAME + j])
				fail_msg("entry %zu (%s): name byte %zu is %#x, not 0", i,
					 expected[i].name, j, e[ENT_NAME + j]);
		}
		assert_int_equal(le64(e + ENT_OFFSET), expected[i].offset);
		assert_int_equal(le64(e + ENT_SIZE), expected[i].size);

		assert_string_equal(m[i].name, expected[i].name);
		assert_int_equal(m[i].offset, expected[i].offset);
		assert_int_equal(m[i].size, expected[i].size);
	}
}

/* The rule behind the expected offsets: each file on a page, after the table and after the
 * file before it. */
static void test_alignment_and_order(void **state)
{
	uint64_t next = HDR_SIZE + NMODULES * ENTRY_SIZE;

	(void)state;
	for (size_t i = 0; i < NMODULES; i++) {
		uint64_t offset = le64(entry_at(i) + ENT_OFFSET);
		uint64_t size = le64(entry_at(i) + ENT_SIZE);

		assert_int_equal(offset % PAGE_SIZE, 0);
		assert_true(offset >= next);
		assert_true(offset - next < PAGE_SIZE);
		assert_true(offset + size <= archive.size);
		next = offset + size;
	}
	assert_true(archive.size - next < PAGE_SIZE);
}

static void test_contents(void **state)
{
	(void)state;
	for (size_t i = 0; i < NMODULES; i++) {
		const uint8_t *file = archive.data + expected[i].offset;

		if (expected[i].size && memcmp(file, inputs[i].data, expected[i].size))
			fail_msg("module %s differs from %s", expected[i].name, expected[i].file);
	}
}

/* Everything that is neither header, table nor a file is zero. */
static void test_padding_is_zero(void **state)
{
	uint8_t *used = calloc(archive.size, 1);

	(void)state;
	assert_non_null(used);
	memset(used, 1, HDR_SIZE + NMODULES * ENTRY_SIZE);
	for (size_t i = 0; i < NMODULES; i++)
		memset(used + expected[i].offset, 1, expected[i].size);
	for (size_t at = 0; at < archive.size; at++) {
		if (!used[at] && archive.data[at]) {
			free(used);
			fail_msg("padding byte at %#zx is %#x, not 0", at, archive.data[at]);
		}
	}
	free(used);
}

/* --- mkmodules.py's refusals ----------------------------------------------------------------- */

static void reject_dir(char *path, const char *sub)
{
	char top[MAX_PATH];

	path_fmt(top, "%s/reject", dir);
	dir_make(top);
	path_fmt(path, "%s/reject/%s", dir, sub);
	dir_make(path);
}

static void file_make(const char *path)
{
	static uint8_t byte = 1;
	struct blob b = { &byte, 1 };

	assert_int_equal(blob_save(path, &b), 0);
}

/* mkmodules.py OUT FILE... must fail with a message and leave no OUT. */
static void check_refused(const char *sub, const char *files, const char *message)
{
	char out[MAX_PATH], err[MAX_PATH];
	struct blob msg;

	path_fmt(out, "%s/reject/%s.img", dir, sub);
	path_fmt(err, "%s/reject/%s.err", dir, sub);
	remove(out);
	assert_int_equal(run("python3 tools/mkmodules.py %s %s 2>%s", out, files, err), 1);
	if (!access(out, F_OK))
		fail_msg("mkmodules.py left %s behind", out);
	assert_int_equal(blob_load(err, &msg), 0);
	msg.data = realloc(msg.data, msg.size + 1);
	assert_non_null(msg.data);
	msg.data[msg.size] = '\0';
	if (!strstr((const char *)msg.data, message))
		fail_msg("mkmodules.py said \"%s\", expected it to mention \"%s\"",
			 (const char *)msg.data, message);
	free(msg.data);
}

static void test_refuses_long_name(void **state)
{
	char d[MAX_PATH], file[MAX_PATH];

	(void)state;
	reject_dir(d, "long");
	/* 48 bytes: one more than a name field holds with its NUL. */
	path_fmt(file, "%s/%sX.elf", d, LONG_NAME);
	file_make(file);
	check_refused("long", file, "limit is 47");
}

static void test_refuses_duplicate_names(void **state)
{
	char d[MAX_PATH], a[MAX_PATH], b[MAX_PATH], files[MAX_CMD];

	(void)state;
	reject_dir(d, "dup");
	reject_dir(d, "dup/a");
	path_fmt(a, "%s/x.elf", d);
	file_make(a);
	reject_dir(d, "dup/b");
	/* Without the suffix, still module "x". */
	path_fmt(b, "%s/x", d);
	file_make(b);
	assert_true(snprintf(files, sizeof(files), "%s %s", a, b) < (int)sizeof(files));
	check_refused("dup", files, "would both be module 'x'");
}

/* --- lsmodules.py --------------------------------------------------------------------------- */

static void test_lsmodules_lists(void **state)
{
	char cmd[MAX_CMD], line[MAX_PATH];
	size_t n = 0;
	FILE *p;

	(void)state;
	assert_true(snprintf(cmd, sizeof(cmd), "python3 tools/lsmodules.py %s/test.img", dir) <
		    (int)sizeof(cmd));
	p = popen(cmd, "r");
	assert_non_null(p);
	/* A summary line and a column header, then "offset size name" per module. */
	assert_non_null(fgets(line, sizeof(line), p));
	assert_non_null(strstr(line, "5 modules"));
	assert_non_null(fgets(line, sizeof(line), p));
	while (fgets(line, sizeof(line), p)) {
		unsigned long long offset, size;
		char name[TACET_MODULE_NAME_MAX];

		assert_true(n < NMODULES);
		assert_int_equal(sscanf(line, "%llx %llu %47s", &offset, &size, name), 3);
		assert_int_equal(offset, expected[n].offset);
		assert_int_equal(size, expected[n].size);
		assert_string_equal(name, expected[n].name);
		n++;
	}
	assert_int_equal(pclose(p), 0);
	assert_int_equal(n, NMODULES);
}

/* A copy of the archive with one field broken must make lsmodules.py fail. */
static void check_lsmodules_rejects(const char *name, size_t at, const void *bytes, size_t len)
{
	char d[MAX_PATH], path[MAX_PATH];
	struct blob bad = { malloc(archive.size), archive.size };

	assert_non_null(bad.data);
	memcpy(bad.data, archive.data, archive.size);
	memcpy(bad.data + at, bytes, len);
	reject_dir(d, "ls");
	path_fmt(path, "%s/%s.img", d, name);
	assert_int_equal(blob_save(path, &bad), 0);
	free(bad.data);
	if (run("python3 tools/lsmodules.py %s >/dev/null 2>&1", path) != 1)
		fail_msg("lsmodules.py accepted %s", path);
}

static void test_lsmodules_rejects(void **state)
{
	const uint8_t misaligned[] = { 0x08, 0x10 }; /* offset 0x1008 */
	const uint8_t past_end[] = { 0x00, 0x00, 0x01 }; /* size 64 KiB */
	const uint8_t version[] = { TACET_MODULES_VERSION + 1 };
	const uint8_t count[] = { 0xff, 0xff }; /* a table longer than the file */
	const uint8_t no_nul = 'x';
	uint8_t unterminated[TACET_MODULE_NAME_MAX];

	(void)state;
	memset(unterminated, no_nul, sizeof(unterminated));
	check_lsmodules_rejects("magic", HDR_MAGIC, "TACETMOX", MAGIC_LEN);
	check_lsmodules_rejects("version", HDR_VERSION, version, sizeof(version));
	check_lsmodules_rejects("count", HDR_COUNT, count, sizeof(count));
	check_lsmodules_rejects("misaligned", HDR_SIZE + ENT_OFFSET, misaligned,
				sizeof(misaligned));
	check_lsmodules_rejects("past-end", HDR_SIZE + ENT_SIZE, past_end, sizeof(past_end));
	check_lsmodules_rejects("unterminated", HDR_SIZE + ENT_NAME, unterminated,
				sizeof(unterminated));
	/* blk's offset moved onto console's page. */
	check_lsmodules_rejects("overlap", HDR_SIZE + 2 * ENTRY_SIZE + ENT_OFFSET, "\x00\x20", 2);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inputs_are_as_listed),
		cmocka_unit_test(test_size_is_whole_pages),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_entries),
		cmocka_unit_test(test_alignment_and_order),
		cmocka_unit_test(test_contents),
		cmocka_unit_test(test_padding_is_zero),
		cmocka_unit_test(test_refuses_long_name),
		cmocka_unit_test(test_refuses_duplicate_names),
		cmocka_unit_test(test_lsmodules_lists),
		cmocka_unit_test(test_lsmodules_rejects),
	};

	if (argc > 1)
		dir = argv[1];
	return cmocka_run_group_tests_name("modules", tests, load_all, free_all);
}
