/* test_fdt.c: host unit tests of the device-tree reader, kernel/lib/fdt.c.
 *
 * Every accessor on known trees, agreement with Debian's libfdt on every node and property, and
 * clean rejection of malformed blobs, while ASan watches every read.
 *
 * Run from the repository root as build/host/test_fdt [DTB_DIR]; the trees are built by
 * tests/host/fdt.mk into build/host/fdt/. Every blob handed to fdt_init sits in a malloc buffer
 * of exactly the size passed as max_size, so any read past it is an ASan report.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fdt.h"
#include "lib/pci_dt.h"

/* Debian's libfdt, linked with every fdt_* symbol renamed libfdt_* (see fdt.mk). Its own header
 * cannot be included here: it includes <fdt.h>, which -Ikernel resolves to kernel/lib/fdt.h, and it
 * defines FDT_ERR_* as macros. These are its 1.6 prototypes. */
int libfdt_check_full(const void *fdt, size_t bufsize);
int libfdt_next_node(const void *fdt, int offset, int *depth);
int libfdt_first_subnode(const void *fdt, int offset);
int libfdt_next_subnode(const void *fdt, int offset);
const char *libfdt_get_name(const void *fdt, int nodeoffset, int *lenp);
int libfdt_parent_offset(const void *fdt, int nodeoffset);
int libfdt_first_property_offset(const void *fdt, int nodeoffset);
int libfdt_next_property_offset(const void *fdt, int offset);
const void *libfdt_getprop_by_offset(const void *fdt, int offset, const char **namep, int *lenp);
const void *libfdt_getprop(const void *fdt, int nodeoffset, const char *name, int *lenp);
uint32_t libfdt_get_phandle(const void *fdt, int nodeoffset);
int libfdt_node_offset_by_phandle(const void *fdt, uint32_t phandle);
int libfdt_path_offset(const void *fdt, const char *path);
int libfdt_get_path(const void *fdt, int nodeoffset, char *buf, int buflen);
int libfdt_node_offset_by_compatible(const void *fdt, int startoffset, const char *compatible);
int libfdt_node_check_compatible(const void *fdt, int nodeoffset, const char *compatible);
int libfdt_address_cells(const void *fdt, int nodeoffset);
int libfdt_size_cells(const void *fdt, int nodeoffset);
int libfdt_num_mem_rsv(const void *fdt);
int libfdt_get_mem_rsv(const void *fdt, int n, uint64_t *address, uint64_t *size);

/* The format, written out here independently of fdt.c. */
enum hdr_field {
	H_MAGIC = 0,
	H_TOTALSIZE = 4,
	H_OFF_STRUCT = 8,
	H_OFF_STRINGS = 12,
	H_OFF_RSVMAP = 16,
	H_VERSION = 20,
	H_LAST_COMP = 24,
	H_SIZE_STRINGS = 32,
	H_SIZE_STRUCT = 36,
};

enum token {
	T_BEGIN_NODE = 1,
	T_END_NODE = 2,
	T_PROP = 3,
	T_NOP = 4,
	T_END = 9,
};

#define HEADER_SIZE 40
#define RSV_ENTRY_SIZE 16
#define MAX_PATH 4096
#define MAX_NAMES 512
#define FUZZ_SEED 0x7ace7u
#define FUZZ_ITERATIONS 20000
#define FUZZ_ITERATIONS_QEMU 2000
#define FUZZ_MAX_FLIPS 4

struct blob {
	uint8_t *data;
	size_t size;
};

enum tree { GOOD, GOOD_V16, MINIMAL, DEEP16, DEEP17, QEMU_VIRT, QEMU_AIA, NTREES };

static const char *const tree_files[NTREES] = {
	[GOOD] = "good.dtb",	   [GOOD_V16] = "good-v16.dtb",
	[MINIMAL] = "minimal.dtb", [DEEP16] = "deep16.dtb",
	[DEEP17] = "deep17.dtb",   [QEMU_VIRT] = "qemu-virt.dtb",
	[QEMU_AIA] = "qemu-virt-aia.dtb",
};

static const char *dtb_dir = "build/host/fdt";
static struct blob trees[NTREES];

/* --- blobs ---------------------------------------------------------------------------------- */

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static uint32_t hdr_get(const struct blob *b, enum hdr_field f)
{
	return be32(b->data + f);
}

static void hdr_set(struct blob *b, enum hdr_field f, uint32_t v)
{
	put_be32(b->data + f, v);
}

static struct blob blob_copy(const struct blob *b)
{
	struct blob c = { malloc(b->size ? b->size : 1), b->size };

	assert_non_null(c.data);
	memcpy(c.data, b->data, b->size);
	return c;
}

static void blob_free(struct blob *b)
{
	free(b->data);
	b->data = NULL;
}

/* A file's tree, in a buffer of exactly its header's totalsize (QEMU's dump is padded). */
static int blob_load(const char *name, struct blob *out)
{
	char path[MAX_PATH];
	uint8_t head[HEADER_SIZE];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dtb_dir, name);
	f = fopen(path, "rb");
	if (!f || fread(head, 1, sizeof(head), f) != sizeof(head)) {
		fprintf(stderr, "test_fdt: cannot read %s (run make host-tests first)\n", path);
		if (f)
			fclose(f);
		return -1;
	}
	out->size = be32(head + H_TOTALSIZE);
	out->data = malloc(out->size);
	rewind(f);
	if (!out->data || fread(out->data, 1, out->size, f) != out->size) {
		fprintf(stderr, "test_fdt: %s is shorter than its totalsize\n", path);
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

/* Offset in the blob of the nth (from 0) token of kind `token` in a known-good struct block. */
static uint32_t tok_find(const struct blob *b, enum token token, int nth)
{
	uint32_t off = hdr_get(b, H_OFF_STRUCT), end = off + hdr_get(b, H_SIZE_STRUCT);

	while (off < end) {
		uint32_t t = be32(b->data + off), next = off + 4;

		if (t == T_BEGIN_NODE)
			next += strlen((const char *)b->data + next) + 1;
		else if (t == T_PROP)
			next += 8 + be32(b->data + next);
		if (t == token && nth-- == 0)
			return off;
		off = (next + 3) & ~3u;
	}
	fail_msg("token %u not found", token);
	return 0;
}

static int tok_count(const struct blob *b, enum token token)
{
	uint32_t off = hdr_get(b, H_OFF_STRUCT), end = off + hdr_get(b, H_SIZE_STRUCT);
	int n = 0;

	while (off < end) {
		uint32_t t = be32(b->data + off), next = off + 4;

		if (t == T_BEGIN_NODE)
			next += strlen((const char *)b->data + next) + 1;
		else if (t == T_PROP)
			next += 8 + be32(b->data + next);
		n += t == token;
		off = (next + 3) & ~3u;
	}
	return n;
}

/* The blob offset of the FDT_BEGIN_NODE of the node called name. */
static uint32_t node_token(const struct blob *b, const char *name)
{
	for (int i = 0; i < tok_count(b, T_BEGIN_NODE); i++) {
		uint32_t off = tok_find(b, T_BEGIN_NODE, i);

		if (!strcmp((const char *)b->data + off + 4, name))
			return off;
	}
	fail_msg("node %s not found", name);
	return 0;
}

/* A copy of b with n bytes inserted at blob offset `at` inside (or at the end of) the struct
 * block, which dtc places before the strings block. */
static struct blob blob_insert(const struct blob *b, uint32_t at, const uint32_t *words, int n)
{
	struct blob c = { malloc(b->size + 4 * n), b->size + 4 * n };

	assert_non_null(c.data);
	memcpy(c.data, b->data, at);
	for (int i = 0; i < n; i++)
		put_be32(c.data + at + 4 * i, words[i]);
	memcpy(c.data + at + 4 * n, b->data + at, b->size - at);
	hdr_set(&c, H_TOTALSIZE, hdr_get(b, H_TOTALSIZE) + 4 * n);
	hdr_set(&c, H_SIZE_STRUCT, hdr_get(b, H_SIZE_STRUCT) + 4 * n);
	assert_true(hdr_get(b, H_OFF_STRINGS) >= at);
	hdr_set(&c, H_OFF_STRINGS, hdr_get(b, H_OFF_STRINGS) + 4 * n);
	return c;
}

/* fdt_init on an exact-sized copy of data[0..size) must fail with err and message msg. */
static void expect_reject_sized(const uint8_t *data, size_t size, size_t max_size, int err,
				const char *msg)
{
	uint8_t *copy = malloc(size ? size : 1);
	const char *why = NULL;
	struct fdt fdt;
	int rc;

	assert_non_null(copy);
	memcpy(copy, data, size);
	rc = fdt_init(&fdt, copy, max_size, &why);
	free(copy);
	assert_true(rc < 0);
	assert_non_null(why);
	assert_true(why[0] != '\0');
	if (msg)
		assert_string_equal(why, msg);
	if (err)
		assert_int_equal(rc, err);
}

static void expect_reject(const struct blob *b, int err, const char *msg)
{
	expect_reject_sized(b->data, b->size, b->size, err, msg);
}

static void init_ok(struct fdt *fdt, const struct blob *b)
{
	const char *why = "unset";
	int rc = fdt_init(fdt, b->data, b->size, &why);

	if (rc)
		fail_msg("fdt_init rejected a good tree: %d %s", rc, why);
	assert_null(why);
}

/* --- reading every accessor on a tree, whatever it holds ---------------------------------- */

/* The names in the strings block of a tree fdt_init accepted: every property name it holds. */
static int string_names(const struct blob *b, const char **names)
{
	const char *s = (const char *)b->data + hdr_get(b, H_OFF_STRINGS);
	uint32_t size = hdr_get(b, H_SIZE_STRINGS), off = 0;
	int n = 0;

	while (off < size && n < MAX_NAMES) {
		size_t len = strnlen(s + off, size - off);

		if (len == size - off)
			break;
		names[n++] = s + off;
		off += len + 1;
	}
	return n;
}

static void check_inside(const struct blob *b, const void *p, uint32_t len)
{
	const uint8_t *q = p;
	unsigned sum = 0;

	assert_true(q >= b->data && q <= b->data + b->size);
	assert_true(len <= (size_t)(b->data + b->size - q));
	for (uint32_t i = 0; i < len; i++)
		sum += q[i]; /* ASan checks each byte */
	(void)sum;
}

/* The path of node from its parents, or "" if it does not fit. */
static void node_path(const struct fdt *fdt, int node, char *buf, size_t size)
{
	int chain[FDT_MAX_DEPTH + 1], n = 0;
	size_t used = 0;

	for (; node >= 0 && n <= FDT_MAX_DEPTH; node = fdt_parent(fdt, node))
		chain[n++] = node;
	assert_true(n <= FDT_MAX_DEPTH);
	buf[0] = '\0';
	if (n == 1) {
		snprintf(buf, size, "/");
		return;
	}
	for (int i = n - 2; i >= 0; i--) {
		int w = snprintf(buf + used, size - used, "/%s", fdt_node_name(fdt, chain[i]));

		if (w < 0 || (size_t)w >= size - used) {
			buf[0] = '\0';
			return;
		}
		used += w;
	}
}

static void exercise_props(const struct blob *b, const struct fdt *fdt, int node,
			   const char **names, int nnames)
{
	for (int i = 0; i < nnames; i++) {
		uint32_t len = 0, v;
		const void *p = fdt_getprop(fdt, node, names[i], &len);
		const char *s;

		/* names[0] is absent everywhere; the other absent names, most of them, would
		 * only take time */
		if (!p && i)
			continue;
		s = fdt_prop_string(fdt, node, names[i]);
		if (p)
			check_inside(b, p, len);
		assert_int_equal(fdt_prop_u32(fdt, node, names[i], &v), p && len == 4);
		if (s)
			assert_true(s == p && strnlen(s, len) < len);
		fdt_node_is_compatible(fdt, node, names[i]);
	}
}

/* fdt_bus_cells on the parent and fdt_reg_cells with them say what fdt_cells and fdt_reg do
 * (the root server reads a bus's cells once, then each child's reg with them). */
static void same_reg_with_bus_cells(const struct fdt *fdt, int node, int parent)
{
	uint32_t ac, sc, bac = 7, bsc = 7;
	uint64_t a1, s1, a2, s2;
	bool cells = fdt_cells(fdt, node, &ac, &sc);

	assert_int_equal(fdt_bus_cells(fdt, parent, &bac, &bsc), cells);
	if (!cells)
		return;
	assert_int_equal(bac, ac);
	assert_int_equal(bsc, sc);
	for (int i = -1; i < 8; i++) {
		int rc = fdt_reg(fdt, node, i, &a1, &s1);

		assert_int_equal(fdt_reg_cells(fdt, node, ac, sc, i, &a2, &s2), rc);
		if (rc == 0) {
			assert_int_equal(a1, a2);
			assert_int_equal(s1, s2);
		}
	}
	/* more than two cells cannot be read into 64 bits; none at all is no address */
	assert_true(fdt_reg_cells(fdt, node, 3, sc, 0, &a2, &s2) < 0);
	assert_true(fdt_reg_cells(fdt, node, 0, 0, 0, &a2, &s2) < 0);
}

static void exercise_node(const struct blob *b, const struct fdt *fdt, int node,
			  const char **names, int nnames)
{
	int parent = fdt_parent(fdt, node), child = fdt_first_child(fdt, node);
	int sibling = fdt_next_sibling(fdt, node);
	const char *name = fdt_node_name(fdt, node), *compat;
	uint32_t ac, sc, ph;
	uint64_t addr, size;
	char path[MAX_PATH];
	int i, rc;

	assert_non_null(name);
	check_inside(b, name, strlen(name) + 1);
	assert_true(parent < node);
	assert_true(parent >= 0 || node == fdt_root(fdt));
	if (child >= 0)
		assert_true(child > node && fdt_parent(fdt, child) == node);
	if (sibling >= 0)
		assert_true(sibling > node && fdt_parent(fdt, sibling) == parent);
	exercise_props(b, fdt, node, names, nnames);
	fdt_node_is_enabled(fdt, node);
	if (fdt_cells(fdt, node, &ac, &sc))
		assert_true(ac <= 2 && sc <= 2);
	for (i = 0; (rc = fdt_reg(fdt, node, i, &addr, &size)) == 0; i++)
		;
	assert_true(rc == FDT_ERR_NOTFOUND || rc == FDT_ERR_BADVALUE);
	same_reg_with_bus_cells(fdt, node, parent);
	if (fdt_prop_u32(fdt, node, "phandle", &ph) && ph && ph != ~0u)
		assert_true(fdt_node_by_phandle(fdt, ph) >= 0);
	compat = fdt_prop_string(fdt, node, "compatible");
	if (compat && fdt_node_is_compatible(fdt, node, compat)) {
		int found = fdt_find_compatible(fdt, parent, compat);

		assert_true(found >= 0 && found <= node);
	}
	/* a name may hold '/' here, so the path may well lead elsewhere or nowhere */
	node_path(fdt, node, path, sizeof(path));
	if (path[0])
		fdt_path(fdt, path);
}

/* Call every accessor on every node of an accepted tree; nothing may crash or read outside. */
static int exercise_tree(const struct blob *b, const struct fdt *fdt)
{
	const char *names[MAX_NAMES + 1] = { "no-such-property" };
	int nnames = 1 + string_names(b, names + 1), count = 0, node, prev = -1;
	uint64_t addr, size;

	for (node = fdt_root(fdt); node >= 0; node = fdt_next_node(fdt, node)) {
		assert_true(node > prev);
		prev = node;
		exercise_node(b, fdt, node, names, nnames);
		count++;
	}
	for (int i = 0; i < fdt_num_memreserve(fdt); i++)
		assert_int_equal(fdt_memreserve(fdt, i, &addr, &size), 0);
	for (node = fdt_find_compatible(fdt, -1, "riscv"); node >= 0;
	     node = fdt_find_compatible(fdt, node, "riscv"))
		assert_true(fdt_node_is_compatible(fdt, node, "riscv"));
	return count;
}

/* --- agreement with libfdt ------------------------------------------------------------------ */

/* libfdt's offset-or-negative-error as our offset-or-minus-one. */
static int none_is_minus1(int libfdt_offset)
{
	return libfdt_offset < 0 ? -1 : libfdt_offset;
}

static void compare_props(const struct blob *b, const struct fdt *fdt, int node)
{
	int off;

	for (off = libfdt_first_property_offset(b->data, node); off >= 0;
	     off = libfdt_next_property_offset(b->data, off)) {
		const char *name;
		int llen, lfirst_len;
		uint32_t len, v;
		const void *lval = libfdt_getprop_by_offset(b->data, off, &name, &llen);
		const void *lfirst = libfdt_getprop(b->data, node, name, &lfirst_len);
		const void *val = fdt_getprop(fdt, node, name, &len);

		assert_non_null(lval);
		/* a repeated name finds its first instance in both readers */
		assert_ptr_equal(val, lfirst);
		assert_int_equal(len, lfirst_len);
		assert_memory_equal(val, lfirst, len);
		if (val == lval)
			assert_int_equal(len, llen);
		if (fdt_prop_u32(fdt, node, name, &v))
			assert_int_equal(v, be32(lfirst));
		else
			assert_true(lfirst_len != 4);
		assert_int_equal(fdt_prop_string(fdt, node, name) != NULL,
				 lfirst_len > 0 && memchr(lfirst, 0, lfirst_len) != NULL);
	}
	if (!libfdt_getprop(b->data, node, "no-such-property", NULL))
		assert_null(fdt_getprop(fdt, node, "no-such-property", NULL));
}

/* Does the string list hold s? Only strings whose NUL lies inside the property count; libfdt
 * 1.6 also takes an unterminated last string when the byte after the property happens to be 0. */
static bool list_contains(const char *list, int len, const char *s)
{
	size_t slen = strlen(s);

	for (int pos = 0; list && pos < len;) {
		size_t n = strnlen(list + pos, len - pos);

		if (n == (size_t)(len - pos))
			return false;
		if (n == slen && !memcmp(list + pos, s, n))
			return true;
		pos += n + 1;
	}
	return false;
}

/* fdt_find_compatible done with libfdt's walk and property lookup. */
static int ref_find_compatible(const struct blob *b, int from, const char *s)
{
	int node = from, len;

	while ((node = libfdt_next_node(b->data, node, NULL)) >= 0) {
		const char *list = libfdt_getprop(b->data, node, "compatible", &len);

		if (list_contains(list, len, s))
			return node;
	}
	return -1;
}

static void compare_compatible(const struct blob *b, const struct fdt *fdt, int node,
			       bool exact)
{
	int llen;
	const char *list = libfdt_getprop(b->data, node, "compatible", &llen);

	for (int pos = 0; list && pos < llen;) {
		const char *s = list + pos;
		size_t len = strnlen(s, llen - pos);
		int ours = -1, theirs = -1;

		if (len == (size_t)(llen - pos))
			break;
		assert_true(fdt_node_is_compatible(fdt, node, s));
		assert_int_equal(libfdt_node_check_compatible(b->data, node, s), 0);
		do {
			ours = fdt_find_compatible(fdt, ours, s);
			assert_int_equal(ours, ref_find_compatible(b, theirs, s));
			if (exact) {
				int lnext = libfdt_node_offset_by_compatible(b->data, theirs, s);

				assert_int_equal(ours, none_is_minus1(lnext));
			}
			theirs = ours;
		} while (ours >= 0);
		pos += len + 1;
	}
}

/* A #...-cells property as libfdt reads it: dflt when absent, -1 when not one cell. */
static int cells_of(const struct blob *b, int node, const char *name, int dflt)
{
	int len;
	const uint8_t *p = libfdt_getprop(b->data, node, name, &len);

	if (!p)
		return dflt;
	return len == 4 && be32(p) <= INT32_MAX ? (int)be32(p) : -1;
}

static void compare_cells_and_reg(const struct blob *b, const struct fdt *fdt, int node)
{
	int parent = libfdt_parent_offset(b->data, node), llen;
	int lac = parent >= 0 ? libfdt_address_cells(b->data, parent) : -1;
	int lsc = parent >= 0 ? libfdt_size_cells(b->data, parent) : -1;
	const uint8_t *reg = libfdt_getprop(b->data, node, "reg", &llen);
	uint32_t ac, sc;
	uint64_t addr, size;
	int i, pairs;

	int want_ac = parent >= 0 ? cells_of(b, parent, "#address-cells", 2) : -1;
	int want_sc = parent >= 0 ? cells_of(b, parent, "#size-cells", 1) : -1;

	if (want_ac >= 0 && want_ac <= 2 && want_sc >= 0 && want_sc <= 2) {
		assert_true(fdt_cells(fdt, node, &ac, &sc));
		assert_int_equal(ac, want_ac);
		assert_int_equal(sc, want_sc);
		/* libfdt refuses #address-cells = 0, which is fine for us */
		if (lac >= 0)
			assert_int_equal(ac, lac);
		if (lsc >= 0)
			assert_int_equal(sc, lsc);
	} else {
		assert_false(fdt_cells(fdt, node, &ac, &sc));
	}
	if (!reg) {
		assert_int_equal(fdt_reg(fdt, node, 0, &addr, &size), FDT_ERR_NOTFOUND);
		return;
	}
	if (!fdt_cells(fdt, node, &ac, &sc) || ac + sc == 0 || llen % (4 * (ac + sc))) {
		assert_int_equal(fdt_reg(fdt, node, 0, &addr, &size), FDT_ERR_BADVALUE);
		return;
	}
	pairs = llen / (4 * (ac + sc));
	for (i = 0; i < pairs; i++, reg += 4 * (ac + sc)) {
		uint64_t want_addr = ac == 2 ? (uint64_t)be32(reg) << 32 | be32(reg + 4) :
				     ac == 1 ? be32(reg) : 0;
		const uint8_t *s = reg + 4 * ac;
		uint64_t want_size = sc == 2 ? (uint64_t)be32(s) << 32 | be32(s + 4) :
				     sc == 1 ? be32(s) : 0;

		assert_int_equal(fdt_reg(fdt, node, i, &addr, &size), 0);
		assert_int_equal(addr, want_addr);
		assert_int_equal(size, want_size);
	}
	assert_int_equal(fdt_reg(fdt, node, pairs, &addr, &size), FDT_ERR_NOTFOUND);
}

/* "/soc/serial@10000000" -> "/soc/serial" */
static void strip_units(const char *path, char *out)
{
	bool skip = false;

	for (; *path; path++) {
		if (*path == '/')
			skip = false;
		else if (*path == '@')
			skip = true;
		if (!skip)
			*out++ = *path;
	}
	*out = '\0';
}

static void compare_paths(const struct blob *b, const struct fdt *fdt, int node, bool exact)
{
	char path[MAX_PATH], stripped[MAX_PATH];

	assert_int_equal(libfdt_get_path(b->data, node, path, sizeof(path)), 0);
	assert_int_equal(fdt_path(fdt, path), none_is_minus1(libfdt_path_offset(b->data, path)));
	if (exact)
		assert_int_equal(fdt_path(fdt, path), node);
	strip_units(path, stripped);
	assert_int_equal(fdt_path(fdt, stripped),
			 none_is_minus1(libfdt_path_offset(b->data, stripped)));
}

static void compare_node(const struct blob *b, const struct fdt *fdt, int node, bool exact)
{
	int lparent = libfdt_parent_offset(b->data, node);
	int lchild = libfdt_first_subnode(b->data, node);
	int lsibling = libfdt_next_subnode(b->data, node);
	uint32_t ph = libfdt_get_phandle(b->data, node);

	assert_string_equal(fdt_node_name(fdt, node), libfdt_get_name(b->data, node, NULL));
	assert_int_equal(fdt_parent(fdt, node), none_is_minus1(lparent));
	assert_int_equal(fdt_first_child(fdt, node), none_is_minus1(lchild));
	assert_int_equal(fdt_next_sibling(fdt, node), none_is_minus1(lsibling));
	compare_props(b, fdt, node);
	compare_compatible(b, fdt, node, exact);
	compare_cells_and_reg(b, fdt, node);
	compare_paths(b, fdt, node, exact);
	if (ph && ph != ~0u) {
		int lnode = libfdt_node_offset_by_phandle(b->data, ph);

		assert_int_equal(fdt_node_by_phandle(fdt, ph), lnode);
		if (exact)
			assert_int_equal(lnode, node);
	}
}

/* Walk both readers in step over every node. exact: the tree has no repeated names or phandles,
 * so each node's own path and phandle must find that very node. */
static int compare_with_libfdt(const struct blob *b, const struct fdt *fdt, bool exact)
{
	int depth = 0, lnode = libfdt_next_node(b->data, -1, &depth), node = fdt_root(fdt);
	int count = 0, nrsv = libfdt_num_mem_rsv(b->data);
	uint64_t a1, s1, a2, s2;

	for (; lnode >= 0; lnode = libfdt_next_node(b->data, lnode, &depth)) {
		assert_int_equal(node, lnode);
		compare_node(b, fdt, node, exact);
		node = fdt_next_node(fdt, node);
		count++;
	}
	assert_int_equal(node, -1);
	assert_int_equal(fdt_num_memreserve(fdt), nrsv);
	for (int i = 0; i < nrsv; i++) {
		assert_int_equal(fdt_memreserve(fdt, i, &a1, &s1), 0);
		assert_int_equal(libfdt_get_mem_rsv(b->data, i, &a2, &s2), 0);
		assert_int_equal(a1, a2);
		assert_int_equal(s1, s2);
	}
	return count;
}

static void crosscheck_tree(enum tree t, int min_nodes)
{
	struct fdt fdt;
	int n;

	assert_int_equal(libfdt_check_full(trees[t].data, trees[t].size), 0);
	init_ok(&fdt, &trees[t]);
	n = compare_with_libfdt(&trees[t], &fdt, true);
	print_message("%s: %d nodes agree with libfdt\n", tree_files[t], n);
	assert_true(n >= min_nodes);
	assert_int_equal(exercise_tree(&trees[t], &fdt), n);
}

/* --- the good tree, accessor by accessor ---------------------------------------------------- */

static int good_fdt(struct fdt *fdt)
{
	init_ok(fdt, &trees[GOOD]);
	return fdt_root(fdt);
}

static int must_path(const struct fdt *fdt, const char *path)
{
	int node = fdt_path(fdt, path);

	if (node < 0)
		fail_msg("path %s not found", path);
	return node;
}

static void test_header_size(void **state)
{
	struct blob b = blob_copy(&trees[GOOD]);
	uint8_t *head = malloc(8);

	(void)state;
	/* exactly 8 bytes readable: ASan proves nothing more is read */
	memcpy(head, b.data, 8);
	assert_int_equal(fdt_header_size(head), trees[GOOD].size);
	head[0] ^= 0xff;
	assert_int_equal(fdt_header_size(head), 0);
	free(head);
	blob_free(&b);
}

static void test_be32_and_cells_read(void **state)
{
	const uint8_t bytes[] = { 0xff, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x11 };

	(void)state;
	/* odd addresses on purpose: UBSan reports a misaligned wide load */
	assert_int_equal(fdt_be32(bytes + 1), 0x12345678u);
	assert_int_equal(fdt_be32(bytes + 3), 0x56789abcu);
	assert_int_equal(fdt_cells_read(bytes + 1, 1), 0x12345678u);
	assert_int_equal(fdt_cells_read(bytes + 1, 2), 0x123456789abcdef0ull);
	assert_int_equal(fdt_cells_read(bytes + 1, 0), 0);
	assert_int_equal(fdt_cells_read(bytes + 1, 3), 0);
}

static void test_init_accepts_good_trees(void **state)
{
	static const enum tree good[] = { GOOD, GOOD_V16, MINIMAL, DEEP16, QEMU_VIRT };
	uint8_t *big = calloc(1, trees[GOOD].size + 4096);
	const char *why = "unset";
	struct fdt fdt;

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		init_ok(&fdt, &trees[good[i]]);
	/* a buffer larger than the tree is fine */
	memcpy(big, trees[GOOD].data, trees[GOOD].size);
	assert_int_equal(fdt_init(&fdt, big, trees[GOOD].size + 4096, &why), 0);
	assert_null(why);
	assert_int_equal(fdt_init(&fdt, big, trees[GOOD].size, NULL), 0);
	free(big);
}

/* The blob at 4 mod 8 (the most a DTB is promised) and at an odd address. */
static void test_init_at_any_alignment(void **state)
{
	uint8_t *buf = malloc(trees[GOOD].size + 8);
	struct fdt fdt;

	(void)state;
	for (size_t shift = 1; shift <= 4; shift += 3) {
		struct blob b = { buf + shift, trees[GOOD].size };
		int gpio;
		uint64_t addr, size;

		memcpy(b.data, trees[GOOD].data, b.size);
		assert_int_equal(fdt_init(&fdt, b.data, b.size, NULL), 0);
		gpio = must_path(&fdt, "/soc/bus@20000000/gpio@1000");
		assert_int_equal(fdt_reg(&fdt, gpio, 1, &addr, &size), 0);
		assert_int_equal(addr, 0x2000);
		assert_int_equal(fdt_memreserve(&fdt, 1, &addr, &size), 0);
		assert_int_equal(addr, 0x1234560000ull);
		exercise_tree(&b, &fdt);
	}
	free(buf);
}

static void test_walk_order(void **state)
{
	static const char *const want[] = {
		"", "chosen", "memory@80000000", "memory@100000000", "cpus", "cpu@0",
		"interrupt-controller", "cpu@1", "interrupt-controller", "cpu@2", "cpu@3", "soc",
		"serial-bridge@9000000", "serial@10000000", "serial@10001000", "plic@c000000",
		"mswi@2000000", "bus@20000000", "gpio@1000", "bad-reg@3000", "no-reg",
		"wide-bus@30000000", "dev@0", "legacy", "values",
	};
	struct fdt fdt;
	int node = good_fdt(&fdt);
	size_t i;

	(void)state;
	assert_int_equal(node, 0);
	for (i = 0; node >= 0; i++, node = fdt_next_node(&fdt, node)) {
		assert_true(i < sizeof(want) / sizeof(want[0]));
		assert_string_equal(fdt_node_name(&fdt, node), want[i]);
	}
	assert_int_equal(i, sizeof(want) / sizeof(want[0]));
	assert_int_equal(fdt_next_node(&fdt, -1), -1);
}

static void test_children_and_siblings(void **state)
{
	static const char *const top[] = { "chosen", "memory@80000000", "memory@100000000",
					   "cpus", "soc", "legacy", "values" };
	struct fdt fdt;
	int root = good_fdt(&fdt), n;
	size_t i = 0;

	(void)state;
	for (n = fdt_first_child(&fdt, root); n >= 0; n = fdt_next_sibling(&fdt, n), i++) {
		assert_true(i < sizeof(top) / sizeof(top[0]));
		assert_string_equal(fdt_node_name(&fdt, n), top[i]);
	}
	assert_int_equal(i, sizeof(top) / sizeof(top[0]));
	assert_int_equal(fdt_next_sibling(&fdt, root), -1);
	assert_int_equal(fdt_next_sibling(&fdt, must_path(&fdt, "/cpus/cpu@3")), -1);
	assert_int_equal(fdt_first_child(&fdt, must_path(&fdt, "/chosen")), -1);
	assert_int_equal(fdt_first_child(&fdt, -1), -1);
	assert_int_equal(fdt_next_sibling(&fdt, -1), -1);
	n = fdt_first_child(&fdt, must_path(&fdt, "/cpus/cpu@0"));
	assert_string_equal(fdt_node_name(&fdt, n), "interrupt-controller");
	assert_int_equal(fdt_next_sibling(&fdt, n), -1);
}

static void test_parent(void **state)
{
	struct fdt fdt;
	int root = good_fdt(&fdt);
	int cpu0 = must_path(&fdt, "/cpus/cpu@0");
	int intc = must_path(&fdt, "/cpus/cpu@0/interrupt-controller");

	(void)state;
	assert_int_equal(fdt_parent(&fdt, root), -1);
	assert_int_equal(fdt_parent(&fdt, intc), cpu0);
	assert_int_equal(fdt_parent(&fdt, cpu0), must_path(&fdt, "/cpus"));
	assert_int_equal(fdt_parent(&fdt, must_path(&fdt, "/values")), root);
	assert_int_equal(fdt_parent(&fdt, -1), -1);
	/* an offset that is a property, not a node */
	assert_int_equal(fdt_parent(&fdt, cpu0 + 12), -1);
}

static void test_node_name(void **state)
{
	struct fdt fdt;
	int root = good_fdt(&fdt);

	(void)state;
	assert_string_equal(fdt_node_name(&fdt, root), "");
	assert_string_equal(fdt_node_name(&fdt, must_path(&fdt, "/soc/plic@c000000")),
			    "plic@c000000");
	assert_null(fdt_node_name(&fdt, -1));
	assert_null(fdt_node_name(&fdt, root + 8)); /* the root's first property */
	assert_null(fdt_node_name(&fdt, 1));	    /* not token-aligned */
	assert_null(fdt_node_name(&fdt, (int)hdr_get(&trees[GOOD], H_SIZE_STRUCT)));
}

static void test_path_with_unit_addresses(void **state)
{
	static const char *const paths[] = {
		"/cpus/cpu@1", "/soc/serial@10000000", "/soc/serial@10001000",
		"/cpus/cpu@0/interrupt-controller", "/soc/bus@20000000/gpio@1000",
		"/memory@100000000", "/soc/wide-bus@30000000/dev@0",
	};
	struct fdt fdt;
	int root = good_fdt(&fdt);

	(void)state;
	assert_int_equal(fdt_path(&fdt, "/"), root);
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		int n = must_path(&fdt, paths[i]);
		char path[MAX_PATH];

		node_path(&fdt, n, path, sizeof(path));
		assert_string_equal(path, paths[i]);
	}
	/* repeated and trailing slashes name the same node */
	assert_int_equal(fdt_path(&fdt, "//cpus//cpu@2/"), must_path(&fdt, "/cpus/cpu@2"));
}

static void test_path_without_unit_addresses(void **state)
{
	struct fdt fdt;

	(void)state;
	good_fdt(&fdt);
	assert_int_equal(must_path(&fdt, "/memory"), must_path(&fdt, "/memory@80000000"));
	assert_int_equal(must_path(&fdt, "/cpus/cpu"), must_path(&fdt, "/cpus/cpu@0"));
	/* serial-bridge@9000000 comes first but is not "serial@..." */
	assert_int_equal(must_path(&fdt, "/soc/serial"), must_path(&fdt, "/soc/serial@10000000"));
	assert_int_equal(must_path(&fdt, "/soc/bus/gpio"),
			 must_path(&fdt, "/soc/bus@20000000/gpio@1000"));
	assert_int_equal(must_path(&fdt, "/soc/bus/no-reg"),
			 must_path(&fdt, "/soc/bus@20000000/no-reg"));
}

static void test_path_not_found(void **state)
{
	static const char *const missing[] = {
		"", "cpus", "/nope", "/cpus/cpu@4", "/cpu", "/cpus/cpu@", "/soc/serial@1",
		"/memory@80000000/x", "/chosen/bootargs", "/cpus/cpu@0@0", "/soc/bus@2",
	};
	struct fdt fdt;

	(void)state;
	good_fdt(&fdt);
	for (size_t i = 0; i < sizeof(missing) / sizeof(missing[0]); i++)
		if (fdt_path(&fdt, missing[i]) != -1)
			fail_msg("path \"%s\" found", missing[i]);
	assert_int_equal(fdt_path(&fdt, NULL), -1);
}

static void test_node_by_phandle(void **state)
{
	struct fdt fdt;
	int plic, intc;
	uint32_t ph, len;
	const uint8_t *ext;

	(void)state;
	good_fdt(&fdt);
	plic = must_path(&fdt, "/soc/plic@c000000");
	assert_true(fdt_prop_u32(&fdt, plic, "phandle", &ph));
	assert_int_equal(fdt_node_by_phandle(&fdt, ph), plic);
	/* what a driver does: follow interrupts-extended to the hart's interrupt controller */
	ext = fdt_getprop(&fdt, plic, "interrupts-extended", &len);
	assert_non_null(ext);
	assert_int_equal(len, 4 * 8);
	intc = fdt_node_by_phandle(&fdt, fdt_be32(ext + 16));
	assert_int_equal(intc, must_path(&fdt, "/cpus/cpu@1/interrupt-controller"));
	assert_int_equal(fdt_be32(ext + 20), 11);
	/* serial's interrupt-parent is the plic */
	assert_true(fdt_prop_u32(&fdt, must_path(&fdt, "/soc/serial"), "interrupt-parent", &ph));
	assert_int_equal(fdt_node_by_phandle(&fdt, ph), plic);
	assert_int_equal(fdt_node_by_phandle(&fdt, 0x77), must_path(&fdt, "/legacy"));
	assert_int_equal(fdt_node_by_phandle(&fdt, 0), -1);
	assert_int_equal(fdt_node_by_phandle(&fdt, 0xffffffffu), -1);
	assert_int_equal(fdt_node_by_phandle(&fdt, 12345), -1);
}

static void test_find_compatible(void **state)
{
	static const char *const cpus[] = { "cpu@0", "cpu@1", "cpu@2", "cpu@3" };
	struct fdt fdt;
	int root = good_fdt(&fdt), n = -1;

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		n = fdt_find_compatible(&fdt, n, "riscv");
		assert_true(n >= 0);
		assert_string_equal(fdt_node_name(&fdt, n), cpus[i]);
	}
	assert_int_equal(fdt_find_compatible(&fdt, n, "riscv"), -1);
	assert_int_equal(fdt_find_compatible(&fdt, -1, "riscv-virtio"), root);
	assert_int_equal(fdt_find_compatible(&fdt, root, "riscv-virtio"), -1);
	assert_int_equal(fdt_find_compatible(&fdt, -1, "riscv,plic0"),
			 must_path(&fdt, "/soc/plic@c000000"));
	n = fdt_find_compatible(&fdt, -1, "ns16550a");
	assert_int_equal(n, must_path(&fdt, "/soc/serial@10000000"));
	n = fdt_find_compatible(&fdt, n, "ns16550a");
	assert_int_equal(n, must_path(&fdt, "/soc/serial@10001000"));
	assert_int_equal(fdt_find_compatible(&fdt, n, "ns16550a"), -1);
	assert_int_equal(fdt_find_compatible(&fdt, -1, "tacet,tail"), -1);
	assert_int_equal(fdt_find_compatible(&fdt, -1, "riscv,plic"), -1);
}

static void test_getprop(void **state)
{
	static const uint8_t u64[] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 };
	struct fdt fdt;
	int values;
	uint32_t len = 99;
	const void *p;

	(void)state;
	good_fdt(&fdt);
	values = must_path(&fdt, "/values");
	p = fdt_getprop(&fdt, values, "u64", &len);
	assert_non_null(p);
	assert_int_equal(len, 8);
	assert_memory_equal(p, u64, 8);
	p = fdt_getprop(&fdt, values, "empty", &len);
	assert_non_null(p);
	assert_int_equal(len, 0);
	assert_non_null(fdt_getprop(&fdt, values, "raw", NULL));
	len = 99;
	assert_null(fdt_getprop(&fdt, values, "absent", &len));
	assert_int_equal(len, 99);
	assert_null(fdt_getprop(&fdt, values, "em", NULL));
	/* a property of another node, and of a child, is not this node's */
	assert_null(fdt_getprop(&fdt, values, "bootargs", NULL));
	assert_null(fdt_getprop(&fdt, must_path(&fdt, "/cpus"), "riscv,isa", NULL));
	assert_null(fdt_getprop(&fdt, -1, "u32", NULL));
}

static void test_node_is_compatible(void **state)
{
	struct fdt fdt;
	int plic, values;

	(void)state;
	good_fdt(&fdt);
	plic = must_path(&fdt, "/soc/plic@c000000");
	values = must_path(&fdt, "/values");
	assert_true(fdt_node_is_compatible(&fdt, plic, "sifive,plic-1.0.0"));
	assert_true(fdt_node_is_compatible(&fdt, plic, "riscv,plic0"));
	assert_false(fdt_node_is_compatible(&fdt, plic, "riscv,plic"));
	assert_false(fdt_node_is_compatible(&fdt, plic, "riscv,plic0x"));
	assert_false(fdt_node_is_compatible(&fdt, plic, ""));
	assert_true(fdt_node_is_compatible(&fdt, values, "tacet,values"));
	/* the unterminated tail of the list is not a string */
	assert_false(fdt_node_is_compatible(&fdt, values, "tacet,tail"));
	assert_false(fdt_node_is_compatible(&fdt, must_path(&fdt, "/chosen"), "riscv"));
	assert_false(fdt_node_is_compatible(&fdt, -1, "riscv"));
}

static void test_node_is_enabled(void **state)
{
	struct fdt fdt;

	(void)state;
	good_fdt(&fdt);
	assert_true(fdt_node_is_enabled(&fdt, must_path(&fdt, "/cpus/cpu@0")));	 /* okay */
	assert_true(fdt_node_is_enabled(&fdt, must_path(&fdt, "/cpus/cpu@1")));	 /* ok */
	assert_false(fdt_node_is_enabled(&fdt, must_path(&fdt, "/cpus/cpu@2"))); /* disabled */
	assert_false(fdt_node_is_enabled(&fdt, must_path(&fdt, "/cpus/cpu@3"))); /* no NUL */
	assert_true(fdt_node_is_enabled(&fdt, must_path(&fdt, "/chosen")));	 /* absent */
	assert_false(fdt_node_is_enabled(&fdt, must_path(&fdt, "/soc/serial@10001000")));
	assert_false(fdt_node_is_enabled(&fdt, -1));
}

static void test_prop_u32(void **state)
{
	struct fdt fdt;
	int values;
	uint32_t v = 7;

	(void)state;
	good_fdt(&fdt);
	values = must_path(&fdt, "/values");
	assert_true(fdt_prop_u32(&fdt, values, "u32", &v));
	assert_int_equal(v, 0xdeadbeefu);
	v = 7;
	assert_false(fdt_prop_u32(&fdt, values, "u64", &v));
	assert_false(fdt_prop_u32(&fdt, values, "empty", &v));
	assert_false(fdt_prop_u32(&fdt, values, "raw", &v));
	assert_false(fdt_prop_u32(&fdt, values, "absent", &v));
	assert_int_equal(v, 7);
	assert_true(fdt_prop_u32(&fdt, must_path(&fdt, "/cpus"), "timebase-frequency", &v));
	assert_int_equal(v, 10000000);
}

static void test_prop_string(void **state)
{
	struct fdt fdt;
	int values;

	(void)state;
	good_fdt(&fdt);
	values = must_path(&fdt, "/values");
	assert_string_equal(fdt_prop_string(&fdt, must_path(&fdt, "/chosen"), "bootargs"),
			    "console=ttyS0 tacet.test=fdt");
	assert_string_equal(fdt_prop_string(&fdt, must_path(&fdt, "/cpus/cpu@0"), "riscv,isa"),
			    "rv64imafdc_zicsr_zifencei_sstc");
	assert_string_equal(fdt_prop_string(&fdt, values, "strings"), "first");
	assert_null(fdt_prop_string(&fdt, values, "raw"));
	assert_null(fdt_prop_string(&fdt, values, "empty"));
	assert_null(fdt_prop_string(&fdt, values, "u32"));
	assert_null(fdt_prop_string(&fdt, values, "absent"));
	assert_null(fdt_prop_string(&fdt, -1, "strings"));
}

static void expect_cells(const struct fdt *fdt, const char *path, uint32_t ac, uint32_t sc)
{
	uint32_t a = 99, s = 99;

	assert_true(fdt_cells(fdt, must_path(fdt, path), &a, &s));
	assert_int_equal(a, ac);
	assert_int_equal(s, sc);
}

static void test_cells(void **state)
{
	struct fdt fdt;
	uint32_t a, s;
	int root = good_fdt(&fdt);

	(void)state;
	expect_cells(&fdt, "/memory@80000000", 2, 2);
	expect_cells(&fdt, "/cpus/cpu@0", 1, 0);
	expect_cells(&fdt, "/soc/serial@10000000", 2, 2);
	expect_cells(&fdt, "/soc/bus@20000000/gpio@1000", 1, 1);
	/* cpu@0 has no #...-cells: the spec's defaults */
	expect_cells(&fdt, "/cpus/cpu@0/interrupt-controller", 2, 1);
	/* #address-cells = 3 does not fit */
	assert_false(fdt_cells(&fdt, must_path(&fdt, "/soc/wide-bus@30000000/dev@0"), &a, &s));
	assert_false(fdt_cells(&fdt, root, &a, &s));
	assert_false(fdt_cells(&fdt, -1, &a, &s));
}

static void expect_reg(const struct fdt *fdt, const char *path, int index, uint64_t addr,
		       uint64_t size)
{
	uint64_t a = 1, s = 1;

	assert_int_equal(fdt_reg(fdt, must_path(fdt, path), index, &a, &s), 0);
	assert_int_equal(a, addr);
	assert_int_equal(s, size);
}

static void test_reg(void **state)
{
	struct fdt fdt;
	uint64_t a, s;
	int gpio;

	(void)state;
	good_fdt(&fdt);
	expect_reg(&fdt, "/memory@80000000", 0, 0x80000000, 0x8000000);
	expect_reg(&fdt, "/memory@100000000", 0, 0x100000000ull, 0x4000000);
	expect_reg(&fdt, "/memory@100000000", 1, 0x200000000ull, 0x1000000);
	expect_reg(&fdt, "/cpus/cpu@3", 0, 3, 0);
	expect_reg(&fdt, "/soc/serial@10000000", 0, 0x10000000, 0x100);
	expect_reg(&fdt, "/soc/bus@20000000/gpio@1000", 0, 0x1000, 0x100);
	expect_reg(&fdt, "/soc/bus@20000000/gpio@1000", 1, 0x2000, 0x80);
	gpio = must_path(&fdt, "/soc/bus@20000000/gpio@1000");
	assert_int_equal(fdt_reg(&fdt, gpio, 2, &a, &s), FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_reg(&fdt, gpio, -1, &a, &s), FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_reg(&fdt, must_path(&fdt, "/memory"), 1, &a, &s), FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_reg(&fdt, must_path(&fdt, "/soc/bus/bad-reg"), 0, &a, &s),
			 FDT_ERR_BADVALUE);
	assert_int_equal(fdt_reg(&fdt, must_path(&fdt, "/soc/wide-bus/dev"), 0, &a, &s),
			 FDT_ERR_BADVALUE);
	assert_int_equal(fdt_reg(&fdt, must_path(&fdt, "/soc/bus/no-reg"), 0, &a, &s),
			 FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_reg(&fdt, fdt_root(&fdt), 0, &a, &s), FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_reg(&fdt, -1, 0, &a, &s), FDT_ERR_NOTFOUND);
}

static void test_memreserve(void **state)
{
	struct fdt fdt;
	uint64_t a, s;

	(void)state;
	good_fdt(&fdt);
	assert_int_equal(fdt_num_memreserve(&fdt), 2);
	assert_int_equal(fdt_memreserve(&fdt, 0, &a, &s), 0);
	assert_int_equal(a, 0x80000000);
	assert_int_equal(s, 0x40000);
	assert_int_equal(fdt_memreserve(&fdt, 1, &a, &s), 0);
	assert_int_equal(a, 0x1234560000ull);
	assert_int_equal(s, 0x100000000ull);
	assert_int_equal(fdt_memreserve(&fdt, 2, &a, &s), FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_memreserve(&fdt, -1, &a, &s), FDT_ERR_NOTFOUND);
	init_ok(&fdt, &trees[MINIMAL]);
	assert_int_equal(fdt_num_memreserve(&fdt), 0);
	assert_int_equal(fdt_memreserve(&fdt, 0, &a, &s), FDT_ERR_NOTFOUND);
}

static void test_minimal_tree(void **state)
{
	struct fdt fdt;
	uint32_t a, s;
	int root;

	(void)state;
	init_ok(&fdt, &trees[MINIMAL]);
	root = fdt_root(&fdt);
	assert_int_equal(root, 0);
	assert_string_equal(fdt_node_name(&fdt, root), "");
	assert_int_equal(fdt_first_child(&fdt, root), -1);
	assert_int_equal(fdt_next_node(&fdt, root), -1);
	assert_int_equal(fdt_path(&fdt, "/"), root);
	assert_int_equal(fdt_path(&fdt, "/x"), -1);
	assert_false(fdt_cells(&fdt, root, &a, &s));
	assert_true(fdt_node_is_enabled(&fdt, root));
	assert_int_equal(fdt_find_compatible(&fdt, -1, "riscv"), -1);
}

/* The deepest tree accepted: 16 levels, walked to the leaf. */
static void test_deep_tree(void **state)
{
	struct fdt fdt;
	int node, depth = 1;
	uint32_t v;

	(void)state;
	init_ok(&fdt, &trees[DEEP16]);
	for (node = fdt_root(&fdt); fdt_first_child(&fdt, node) >= 0; depth++)
		node = fdt_first_child(&fdt, node);
	assert_int_equal(depth, FDT_MAX_DEPTH);
	assert_true(fdt_prop_u32(&fdt, node, "leaf", &v));
	assert_int_equal(v, FDT_MAX_DEPTH);
	assert_int_equal(node,
			 must_path(&fdt, "/l1/l2/l3/l4/l5/l6/l7/l8/l9/l10/l11/l12/l13/l14/l15"));
	for (depth = 1; fdt_parent(&fdt, node) >= 0; depth++)
		node = fdt_parent(&fdt, node);
	assert_int_equal(depth, FDT_MAX_DEPTH);
}

/* Version 16 (no size_dt_struct) reads the same as 17, both as dtc writes it and as a patched
 * version-17 header; a newer version that is still compatible with 17 is read too. */
static void test_other_versions(void **state)
{
	struct blob b = blob_copy(&trees[GOOD]);
	struct fdt fdt;

	(void)state;
	assert_int_equal(hdr_get(&trees[GOOD_V16], H_VERSION), 16);
	init_ok(&fdt, &trees[GOOD_V16]);
	assert_int_equal(exercise_tree(&trees[GOOD_V16], &fdt), 25);
	hdr_set(&b, H_VERSION, 16);
	hdr_set(&b, H_LAST_COMP, 16);
	hdr_set(&b, H_SIZE_STRUCT, 0xdeadbeef); /* ignored before version 17 */
	init_ok(&fdt, &b);
	assert_int_equal(exercise_tree(&b, &fdt), 25);
	hdr_set(&b, H_VERSION, 18);
	hdr_set(&b, H_LAST_COMP, 17);
	hdr_set(&b, H_SIZE_STRUCT, hdr_get(&trees[GOOD], H_SIZE_STRUCT));
	init_ok(&fdt, &b);
	blob_free(&b);
}

/* Every offset, node or not, must be safe to pass to every accessor. */
static void test_accessors_on_any_offset(void **state)
{
	struct fdt fdt;
	int end = (int)hdr_get(&trees[GOOD], H_SIZE_STRUCT) + 16;
	uint32_t len, v, a, s;
	uint64_t addr, size;

	(void)state;
	good_fdt(&fdt);
	for (int off = -8; off < end; off++) {
		const void *p = fdt_getprop(&fdt, off, "compatible", &len);
		const char *name = fdt_node_name(&fdt, off);

		if (p)
			check_inside(&trees[GOOD], p, len);
		/* an offset inside a value may look like a node; it must still read in bounds */
		if (name)
			check_inside(&trees[GOOD], name, strlen(name) + 1);
		assert_true(fdt_first_child(&fdt, off) < end);
		assert_true(fdt_next_sibling(&fdt, off) < end);
		assert_true(fdt_next_node(&fdt, off) < end);
		assert_true(fdt_parent(&fdt, off) < end);
		assert_true(fdt_find_compatible(&fdt, off, "riscv") < end);
		fdt_node_is_compatible(&fdt, off, "riscv");
		fdt_node_is_enabled(&fdt, off);
		fdt_prop_u32(&fdt, off, "reg", &v);
		fdt_prop_string(&fdt, off, "status");
		fdt_cells(&fdt, off, &a, &s);
		fdt_reg(&fdt, off, 0, &addr, &size);
	}
}

static void test_agrees_with_libfdt_good(void **state)
{
	(void)state;
	crosscheck_tree(GOOD, 25);
}

static void test_agrees_with_libfdt_qemu_virt(void **state)
{
	(void)state;
	crosscheck_tree(QEMU_VIRT, 20);
}

static void test_agrees_with_libfdt_qemu_aia(void **state)
{
	(void)state;
	crosscheck_tree(QEMU_AIA, 20);
}

/* A device's line is the first cell of "interrupts" under either controller: the PLIC's one
 * cell and the APLIC's two (line, sense); the PCI host's interrupt-map entries are as long as
 * the controller's #interrupt-cells make them, and decode to the same lines on both. */
static void check_lines(enum tree t)
{
	static const uint32_t inta_line[4] = { 32, 33, 34, 35 }; /* device 0..3's INTA */
	struct fdt fdt;
	struct pci_imap im;
	struct pci_imap_entry e;
	uint32_t line, n = 0;
	int pci;

	init_ok(&fdt, &trees[t]);
	assert_true(fdt_irq(&fdt, must_path(&fdt, "/soc/serial"), &line));
	assert_int_equal(line, 10);
	assert_true(fdt_irq(&fdt, must_path(&fdt, "/soc/rtc"), &line));
	assert_int_equal(line, 11);
	assert_false(fdt_irq(&fdt, must_path(&fdt, "/soc/test"), &line));
	pci = must_path(&fdt, "/soc/pci");
	assert_true(pci_dt_imap_open(&fdt, pci, &im));
	for (; pci_dt_imap_at(&im, n, &e); n++) {
		assert_in_range(e.pin, 1, 4);
		assert_int_equal(e.irq, 32 + (e.dev + e.pin - 1) % 4);
		if (e.pin == 1)
			assert_int_equal(e.irq, inta_line[e.dev]);
	}
	assert_int_equal(n, 16);
}

static void test_irq_lines_plic(void **state)
{
	(void)state;
	check_lines(QEMU_VIRT);
}

static void test_irq_lines_aplic(void **state)
{
	(void)state;
	check_lines(QEMU_AIA);
}

static void test_agrees_with_libfdt_small_trees(void **state)
{
	(void)state;
	crosscheck_tree(MINIMAL, 1);
	crosscheck_tree(DEEP16, FDT_MAX_DEPTH);
	crosscheck_tree(GOOD_V16, 25);
}

/* --- malformed blobs ------------------------------------------------------------------------ */

static void test_reject_bad_magic(void **state)
{
	struct blob b = blob_copy(&trees[GOOD]);

	(void)state;
	hdr_set(&b, H_MAGIC, 0xedfe0dd0); /* byte-swapped */
	expect_reject(&b, FDT_ERR_BADMAGIC, "bad magic");
	expect_reject_sized(b.data, 4, 4, FDT_ERR_BADMAGIC, "bad magic");
	expect_reject_sized(b.data, 0, 0, FDT_ERR_TRUNCATED, "buffer smaller than the header");
	assert_int_equal(fdt_init(&(struct fdt){ 0 }, NULL, 0, NULL), FDT_ERR_TRUNCATED);
	blob_free(&b);
}

/* Every proper prefix of the good tree, with max_size that prefix. */
static void test_reject_truncated(void **state)
{
	(void)state;
	for (size_t len = 0; len < trees[GOOD].size; len++)
		expect_reject_sized(trees[GOOD].data, len, len, 0, NULL);
	for (size_t len = 0; len < trees[QEMU_VIRT].size; len++)
		expect_reject_sized(trees[QEMU_VIRT].data, len, len, 0, NULL);
}

/* Every proper prefix again, now with totalsize patched to match: the blocks no longer fit. */
static void test_reject_truncated_consistent_header(void **state)
{
	struct blob b = blob_copy(&trees[GOOD]);

	(void)state;
	for (size_t len = 8; len < trees[GOOD].size; len++) {
		hdr_set(&b, H_TOTALSIZE, len);
		expect_reject_sized(b.data, len, len, 0, NULL);
	}
	blob_free(&b);
}

static void test_reject_totalsize(void **state)
{
	struct blob b = blob_copy(&trees[GOOD]);

	(void)state;
	hdr_set(&b, H_TOTALSIZE, b.size + 64);
	expect_reject(&b, FDT_ERR_TRUNCATED, "totalsize exceeds the buffer");
	hdr_set(&b, H_TOTALSIZE, HEADER_SIZE - 1);
	expect_reject(&b, FDT_ERR_BADLAYOUT, "totalsize smaller than the header");
	/* max_size claims 2 GiB are readable; fdt_init must stop at the header anyway */
	hdr_set(&b, H_TOTALSIZE, 0x80000000u);
	expect_reject_sized(b.data, b.size, 0x80000000u, FDT_ERR_BADLAYOUT, "totalsize too large");
	blob_free(&b);
}

static void test_reject_versions(void **state)
{
	struct blob b = blob_copy(&trees[GOOD]);

	(void)state;
	hdr_set(&b, H_VERSION, 15);
	expect_reject(&b, FDT_ERR_BADVERSION, "version older than 16");
	hdr_set(&b, H_VERSION, 18);
	hdr_set(&b, H_LAST_COMP, 18);
	expect_reject(&b, FDT_ERR_BADVERSION, "last compatible version newer than 17");
	blob_free(&b);
}

static void test_reject_blocks_outside(void **state)
{
	struct blob b = blob_copy(&trees[GOOD]);
	uint32_t total = b.size;

	(void)state;
	hdr_set(&b, H_OFF_STRUCT, (total + 8) & ~3u);
	expect_reject(&b, FDT_ERR_BADLAYOUT, "struct block outside the blob");
	hdr_set(&b, H_OFF_STRUCT, hdr_get(&trees[GOOD], H_OFF_STRUCT));
	hdr_set(&b, H_SIZE_STRUCT, total);
	expect_reject(&b, FDT_ERR_BADLAYOUT, "struct block outside the blob");
	hdr_set(&b, H_SIZE_STRUCT, 0xfffffffcu);
	expect_reject(&b, FDT_ERR_BADLAYOUT, "struct block outside the blob");
	hdr_set(&b, H_SIZE_STRUCT, hdr_get(&trees[GOOD], H_SIZE_STRUCT));
	hdr_set(&b, H_OFF_STRINGS, total);
	expect_reject(&b, FDT_ERR_BADLAYOUT, "strings block outside the blob");
	hdr_set(&b, H_OFF_STRINGS, hdr_get(&trees[GOOD], H_OFF_STRINGS));
	hdr_set(&b, H_SIZE_STRINGS, hdr_get(&trees[GOOD], H_SIZE_STRINGS) + 1);
	expect_reject(&b, FDT_ERR_BADLAYOUT, "strings block outside the blob");
	hdr_set(&b, H_SIZE_STRINGS, hdr_get(&trees[GOOD], H_SIZE_STRINGS));
	hdr_set(&b, H_OFF_RSVMAP, (total + 8) & ~7u);
	expect_reject(&b, FDT_ERR_BADLAYOUT, "memory reservation map outside the blob");
	hdr_set(&b, H_OFF_RSVMAP, 0xfffffff8u);
	expect_reject(&b, FDT_ERR_BADLAYOUT, "memory reservation map outside the blob");
	blob_free(&b);
}

static void test_reject_overlapping_blocks(void **state)
{
	struct blob b = blob_copy(&trees[GOOD]);
	uint32_t off_struct = hdr_get(&b, H_OFF_STRUCT);

	(void)state;
	hdr_set(&b, H_OFF_STRINGS, off_struct + 8);
	expect_reject(&b, FDT_ERR_BADLAYOUT, "struct block overlaps the strings block");
	hdr_set(&b, H_OFF_STRINGS, hdr_get(&trees[GOOD], H_OFF_STRINGS));
	hdr_set(&b, H_OFF_STRUCT, 0);
	expect_reject(&b, FDT_ERR_BADLAYOUT, "struct block overlaps the header");
	hdr_set(&b, H_OFF_STRUCT, off_struct);
	hdr_set(&b, H_OFF_STRINGS, 4);
	expect_reject(&b, FDT_ERR_BADLAYOUT, "strings block overlaps the header");
	hdr_set(&b, H_OFF_STRINGS, hdr_get(&trees[GOOD], H_OFF_STRINGS));
	/* a map at offset 8 runs through the header to the real terminator */
	hdr_set(&b, H_OFF_RSVMAP, 8);
	expect_reject(&b, FDT_ERR_BADLAYOUT, "memory reservation map overlaps the header");
	blob_free(&b);
	/* a map, with its terminator, inside the struct block and inside the strings block */
	for (int i = 0; i < 2; i++) {
		enum hdr_field inside = i ? H_OFF_STRINGS : H_OFF_STRUCT;
		uint32_t rsv;

		b = blob_copy(&trees[GOOD]);
		rsv = (hdr_get(&b, inside) + 8 + 7) & ~7u;
		memset(b.data + rsv, 0, RSV_ENTRY_SIZE);
		hdr_set(&b, H_OFF_RSVMAP, rsv);
		expect_reject(&b, FDT_ERR_BADLAYOUT,
			      "memory reservation map overlaps another block");
		blob_free(&b);
	}
}

static void test_reject_misaligned_blocks(void **state)
{
	struct blob b = blob_copy(&trees[GOOD]);

	(void)state;
	hdr_set(&b, H_OFF_STRUCT, hdr_get(&trees[GOOD], H_OFF_STRUCT) + 2);
	expect_reject(&b, FDT_ERR_BADLAYOUT, "misaligned struct block");
	hdr_set(&b, H_OFF_STRUCT, hdr_get(&trees[GOOD], H_OFF_STRUCT));
	hdr_set(&b, H_OFF_RSVMAP, hdr_get(&trees[GOOD], H_OFF_RSVMAP) + 4);
	expect_reject(&b, FDT_ERR_BADLAYOUT, "misaligned memory reservation map");
	blob_free(&b);
}

static void test_reject_rsvmap_unterminated(void **state)
{
	struct blob b = blob_copy(&trees[GOOD]);
	uint32_t terminator = hdr_get(&b, H_OFF_RSVMAP) + 2 * RSV_ENTRY_SIZE;

	(void)state;
	/* the zero entry right before the struct block becomes (0, 1) */
	assert_int_equal(terminator + RSV_ENTRY_SIZE, hdr_get(&b, H_OFF_STRUCT));
	b.data[terminator + RSV_ENTRY_SIZE - 1] = 1;
	expect_reject(&b, FDT_ERR_BADLAYOUT, "memory reservation map has no terminating entry");
	blob_free(&b);
}

static void test_reject_prop_length(void **state)
{
	struct blob b = blob_copy(&trees[GOOD]);
	uint32_t end = hdr_get(&b, H_OFF_STRUCT) + hdr_get(&b, H_SIZE_STRUCT);
	uint32_t last = tok_find(&b, T_PROP, tok_count(&b, T_PROP) - 1);

	(void)state;
	/* the last property's value runs one byte past the block */
	put_be32(b.data + last + 4, end - (last + 12) + 1);
	expect_reject(&b, FDT_ERR_BADSTRUCT, "property length runs past the struct block");
	put_be32(b.data + last + 4, 0xffffffffu); /* and would wrap a 32-bit sum */
	expect_reject(&b, FDT_ERR_BADSTRUCT, "property length runs past the struct block");
	blob_free(&b);
	b = blob_copy(&trees[GOOD]);
	put_be32(b.data + tok_find(&b, T_PROP, 0) + 4, hdr_get(&b, H_SIZE_STRUCT));
	expect_reject(&b, FDT_ERR_BADSTRUCT, "property length runs past the struct block");
	blob_free(&b);
}

static void test_reject_prop_header_cut(void **state)
{
	struct blob b = blob_copy(&trees[GOOD]);
	uint32_t off_struct = hdr_get(&b, H_OFF_STRUCT);

	(void)state;
	/* the block now ends 4 bytes into the first property's 12-byte header */
	hdr_set(&b, H_SIZE_STRUCT, tok_find(&b, T_PROP, 0) - off_struct + 8);
	expect_reject(&b, FDT_ERR_BADSTRUCT, "property header runs past the struct block");
	blob_free(&b);
}

static void test_reject_prop_nameoff(void **state)
{
	struct blob b = blob_copy(&trees[GOOD]);
	uint32_t prop = tok_find(&b, T_PROP, 3);

	(void)state;
	put_be32(b.data + prop + 8, hdr_get(&b, H_SIZE_STRINGS));
	expect_reject(&b, FDT_ERR_BADSTRUCT, "property name offset outside the strings block");
	put_be32(b.data + prop + 8, 0xfffffff0u);
	expect_reject(&b, FDT_ERR_BADSTRUCT, "property name offset outside the strings block");
	blob_free(&b);
}

/* Shrinking the strings block by one byte cuts the NUL off its last name. */
static void test_reject_string_without_nul(void **state)
{
	struct blob b = blob_copy(&trees[GOOD]);
	uint32_t strings_end = hdr_get(&b, H_OFF_STRINGS) + hdr_get(&b, H_SIZE_STRINGS);

	(void)state;
	assert_int_equal(b.data[strings_end - 1], 0);
	hdr_set(&b, H_SIZE_STRINGS, hdr_get(&b, H_SIZE_STRINGS) - 1);
	expect_reject(&b, FDT_ERR_BADSTRUCT, "property name runs past the strings block");
	blob_free(&b);
}

static void test_reject_unterminated_node_name(void **state)
{
	struct blob b = blob_copy(&trees[GOOD]);
	uint32_t values = node_token(&b, "values");

	(void)state;
	/* the block ends inside "values" */
	hdr_set(&b, H_SIZE_STRUCT, values + 4 + 3 - hdr_get(&b, H_OFF_STRUCT));
	expect_reject(&b, FDT_ERR_BADSTRUCT, "unterminated node name");
	blob_free(&b);
	/* a name whose NUL and padding are overwritten, up to the block's end */
	b = blob_copy(&trees[GOOD]);
	values = node_token(&b, "values");
	memset(b.data + values + 4, 'x',
	       hdr_get(&b, H_OFF_STRUCT) + hdr_get(&b, H_SIZE_STRUCT) - (values + 4));
	expect_reject(&b, FDT_ERR_BADSTRUCT, "unterminated node name");
	blob_free(&b);
}

static void test_reject_unbalanced(void **state)
{
	struct blob b = blob_copy(&trees[GOOD]);
	const uint32_t end_node = T_END_NODE;

	(void)state;
	/* a node never closed */
	put_be32(b.data + tok_find(&b, T_END_NODE, 0), T_NOP);
	expect_reject(&b, FDT_ERR_BADSTRUCT, "unbalanced nesting: node left open");
	blob_free(&b);
	/* one FDT_END_NODE too many */
	b = blob_insert(&trees[GOOD], tok_find(&trees[GOOD], T_END, 0), &end_node, 1);
	expect_reject(&b, FDT_ERR_BADSTRUCT, "unbalanced nesting: FDT_END_NODE too many");
	blob_free(&b);
}

static void test_reject_too_deep(void **state)
{
	(void)state;
	expect_reject(&trees[DEEP17], FDT_ERR_BADSTRUCT, "nesting deeper than FDT_MAX_DEPTH");
}

static void test_reject_missing_end(void **state)
{
	struct blob b = blob_copy(&trees[GOOD]);

	(void)state;
	put_be32(b.data + tok_find(&b, T_END, 0), T_NOP);
	expect_reject(&b, FDT_ERR_BADSTRUCT, "struct block ends without FDT_END");
	put_be32(b.data + tok_find(&trees[GOOD], T_END, 0), T_END);
	hdr_set(&b, H_SIZE_STRUCT, hdr_get(&b, H_SIZE_STRUCT) - 4);
	expect_reject(&b, FDT_ERR_BADSTRUCT, "struct block ends without FDT_END");
	blob_free(&b);
}

static void test_reject_data_after_end(void **state)
{
	const uint32_t nop = T_NOP;
	struct blob b = blob_insert(&trees[GOOD], tok_find(&trees[GOOD], T_END, 0) + 4, &nop, 1);

	(void)state;
	expect_reject(&b, FDT_ERR_BADSTRUCT, "data after FDT_END in the struct block");
	blob_free(&b);
}

static void test_reject_second_root(void **state)
{
	const uint32_t root[] = { T_BEGIN_NODE, 0, T_END_NODE };
	struct blob b = blob_insert(&trees[GOOD], tok_find(&trees[GOOD], T_END, 0), root, 3);

	(void)state;
	expect_reject(&b, FDT_ERR_BADSTRUCT, "second root node");
	blob_free(&b);
}

static void test_reject_no_root(void **state)
{
	struct blob b = blob_copy(&trees[MINIMAL]);
	uint32_t off = hdr_get(&b, H_OFF_STRUCT);

	(void)state;
	/* BEGIN_NODE "" END_NODE END becomes NOP NOP NOP END */
	assert_int_equal(hdr_get(&b, H_SIZE_STRUCT), 16);
	for (int i = 0; i < 3; i++)
		put_be32(b.data + off + 4 * i, T_NOP);
	expect_reject(&b, FDT_ERR_BADSTRUCT, "no root node");
	blob_free(&b);
}

static void test_reject_misplaced_props(void **state)
{
	const uint32_t prop[] = { T_PROP, 0, 0 };
	struct blob b;

	(void)state;
	/* before the root's FDT_END_NODE: after its children */
	b = blob_insert(&trees[GOOD],
			tok_find(&trees[GOOD], T_END_NODE, tok_count(&trees[GOOD], T_END_NODE) - 1),
			prop, 3);
	expect_reject(&b, FDT_ERR_BADSTRUCT, "property after a child node");
	blob_free(&b);
	b = blob_insert(&trees[GOOD], hdr_get(&trees[GOOD], H_OFF_STRUCT), prop, 3);
	expect_reject(&b, FDT_ERR_BADSTRUCT, "property outside any node");
	blob_free(&b);
}

static void test_reject_named_root(void **state)
{
	struct blob b = blob_copy(&trees[MINIMAL]);

	(void)state;
	/* minimal's root is BEGIN_NODE, then a word holding its empty name */
	b.data[hdr_get(&b, H_OFF_STRUCT) + 4] = 'r';
	expect_reject(&b, FDT_ERR_BADSTRUCT, "root node has a name");
	blob_free(&b);
}

static void test_reject_unknown_token(void **state)
{
	struct blob b = blob_copy(&trees[GOOD]);

	(void)state;
	put_be32(b.data + tok_find(&b, T_END_NODE, 2), 5);
	expect_reject(&b, FDT_ERR_BADSTRUCT, "unknown token in the struct block");
	put_be32(b.data + tok_find(&trees[GOOD], T_END_NODE, 2), 0);
	expect_reject(&b, FDT_ERR_BADSTRUCT, "unknown token in the struct block");
	blob_free(&b);
}

/* FDT_NOP anywhere between tokens is fine: NOP every token of one property. */
static void test_nops_anywhere(void **state)
{
	const uint32_t nops[] = { T_NOP, T_NOP };
	struct blob b = blob_insert(&trees[GOOD], node_token(&trees[GOOD], "cpus"), nops, 2);
	struct fdt fdt;
	uint32_t prop = tok_find(&b, T_PROP, 0), v;

	(void)state;
	/* and the root's first property (#address-cells, 4 bytes) becomes 4 NOPs */
	for (int i = 0; i < 4; i++)
		put_be32(b.data + prop + 4 * i, T_NOP);
	init_ok(&fdt, &b);
	assert_false(fdt_prop_u32(&fdt, fdt_root(&fdt), "#address-cells", &v));
	assert_true(fdt_prop_u32(&fdt, must_path(&fdt, "/cpus"), "#address-cells", &v));
	assert_int_equal(exercise_tree(&b, &fdt), 25);
	assert_int_equal(libfdt_check_full(b.data, b.size), 0);
	compare_with_libfdt(&b, &fdt, true);
	blob_free(&b);
}

/* --- fuzzing -------------------------------------------------------------------------------- */

static uint32_t xorshift32(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Flip a few random bytes of a good tree, over and over; whatever fdt_init accepts is read with
 * every accessor, and where libfdt also accepts it the two readers must agree. */
static void fuzz(enum tree t, int iterations, uint32_t seed)
{
	const struct blob *good = &trees[t];
	uint32_t rng = seed;
	int accepted = 0, agreed = 0;

	print_message("fuzz %s: seed %#x, %d iterations\n", tree_files[t], seed, iterations);
	for (int i = 0; i < iterations; i++) {
		struct blob b = blob_copy(good);
		int flips = 1 + xorshift32(&rng) % FUZZ_MAX_FLIPS;
		/* one round in eight only touches the header, where most layout checks live */
		size_t span = xorshift32(&rng) % 8 ? b.size : HEADER_SIZE;
		const char *why = NULL;
		struct fdt fdt;
		int rc;

		for (int f = 0; f < flips; f++)
			b.data[xorshift32(&rng) % span] ^= 1 + xorshift32(&rng) % 255;
		rc = fdt_init(&fdt, b.data, b.size, &why);
		if (rc < 0) {
			if (!why || !why[0])
				fail_msg("iteration %d: rejected (%d) without a message", i, rc);
		} else {
			accepted++;
			exercise_tree(&b, &fdt);
			if (libfdt_check_full(b.data, b.size) == 0) {
				compare_with_libfdt(&b, &fdt, false);
				agreed++;
			}
		}
		blob_free(&b);
	}
	print_message("fuzz %s: %d accepted, %d of them also checked against libfdt\n",
		      tree_files[t], accepted, agreed);
	assert_true(accepted > 0);
}

static void test_fuzz_good(void **state)
{
	(void)state;
	fuzz(GOOD, FUZZ_ITERATIONS, FUZZ_SEED);
}

static void test_fuzz_qemu_virt(void **state)
{
	(void)state;
	fuzz(QEMU_VIRT, FUZZ_ITERATIONS_QEMU, FUZZ_SEED + 1);
}

/* --- runner --------------------------------------------------------------------------------- */

static int load_trees(void **state)
{
	(void)state;
	for (int t = 0; t < NTREES; t++)
		if (blob_load(tree_files[t], &trees[t]))
			return -1;
	return 0;
}

static int free_trees(void **state)
{
	(void)state;
	for (int t = 0; t < NTREES; t++)
		blob_free(&trees[t]);
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_size),
		cmocka_unit_test(test_be32_and_cells_read),
		cmocka_unit_test(test_init_accepts_good_trees),
		cmocka_unit_test(test_init_at_any_alignment),
		cmocka_unit_test(test_walk_order),
		cmocka_unit_test(test_children_and_siblings),
		cmocka_unit_test(test_parent),
		cmocka_unit_test(test_node_name),
		cmocka_unit_test(test_path_with_unit_addresses),
		cmocka_unit_test(test_path_without_unit_addresses),
		cmocka_unit_test(test_path_not_found),
		cmocka_unit_test(test_node_by_phandle),
		cmocka_unit_test(test_find_compatible),
		cmocka_unit_test(test_getprop),
		cmocka_unit_test(test_node_is_compatible),
		cmocka_unit_test(test_node_is_enabled),
		cmocka_unit_test(test_prop_u32),
		cmocka_unit_test(test_prop_string),
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_reg),
		cmocka_unit_test(test_memreserve),
		cmocka_unit_test(test_minimal_tree),
		cmocka_unit_test(test_deep_tree),
		cmocka_unit_test(test_other_versions),
		cmocka_unit_test(test_accessors_on_any_offset),
		cmocka_unit_test(test_agrees_with_libfdt_good),
		cmocka_unit_test(test_agrees_with_libfdt_qemu_virt),
		cmocka_unit_test(test_agrees_with_libfdt_qemu_aia),
		cmocka_unit_test(test_irq_lines_plic),
		cmocka_unit_test(test_irq_lines_aplic),
		cmocka_unit_test(test_agrees_with_libfdt_small_trees),
		cmocka_unit_test(test_reject_bad_magic),
		cmocka_unit_test(test_reject_truncated),
		cmocka_unit_test(test_reject_truncated_consistent_header),
		cmocka_unit_test(test_reject_totalsize),
		cmocka_unit_test(test_reject_versions),
		cmocka_unit_test(test_reject_blocks_outside),
		cmocka_unit_test(test_reject_overlapping_blocks),
		cmocka_unit_test(test_reject_misaligned_blocks),
		cmocka_unit_test(test_reject_rsvmap_unterminated),
		cmocka_unit_test(test_reject_prop_length),
		cmocka_unit_test(test_reject_prop_header_cut),
		cmocka_unit_test(test_reject_prop_nameoff),
		cmocka_unit_test(test_reject_string_without_nul),
		cmocka_unit_test(test_reject_unterminated_node_name),
		cmocka_unit_test(test_reject_unbalanced),
		cmocka_unit_test(test_reject_too_deep),
		cmocka_unit_test(test_reject_missing_end),
		cmocka_unit_test(test_reject_data_after_end),
		cmocka_unit_test(test_reject_second_root),
		cmocka_unit_test(test_reject_no_root),
		cmocka_unit_test(test_reject_misplaced_props),
		cmocka_unit_test(test_reject_named_root),
		cmocka_unit_test(test_reject_unknown_token),
		cmocka_unit_test(test_nops_anywhere),
		cmocka_unit_test(test_fuzz_good),
		cmocka_unit_test(test_fuzz_qemu_virt),
	};

	if (argc > 1)
		dtb_dir = argv[1];
	return cmocka_run_group_tests_name("fdt", tests, load_trees, free_trees);
}
