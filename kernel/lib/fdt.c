/* fdt.c: the device-tree blob reader: one validation pass, then bounds-checked accessors.
 *
 * Layout (devicetree specification, chapter 5): a header of big-endian u32 fields, then in any
 * order a memory reservation map of (address, size) u64 pairs ended by a zero pair, a structure
 * block of 4-byte-aligned tokens, and a strings block of NUL-terminated property names.
 * Validation and the accessors decode tokens with the same checked reader (tag_read), so an
 * accessor handed a wrong offset stays inside the structure block too.
 */
#include "lib/fdt.h"
#include "lib/kstring.h"

#define FDT_MAGIC	       0xd00dfeedu
#define FDT_FIRST_VERSION      16 /* 16 lacks size_dt_struct; the block then ends at FDT_END */
#define FDT_SIZED_VERSION      17 /* first version whose header has size_dt_struct */
#define FDT_LAST_COMP_VERSION  17 /* the newest format this reader was written for */
#define FDT_V16_HEADER_SIZE    36
#define FDT_V17_HEADER_SIZE    40
#define FDT_TOKEN_SIZE	       4
#define FDT_CELL_SIZE	       4
#define FDT_PROP_HEAD_SIZE     8  /* after FDT_PROP: value length, name offset */
#define FDT_RSV_ENTRY_SIZE     16 /* u64 address, u64 size */
#define FDT_RSV_SIZE_OFFSET    8
#define FDT_U64_CELLS	       2
#define FDT_RSVMAP_ALIGN       8
#define FDT_STRUCT_ALIGN       4
#define FDT_DEFAULT_ADDR_CELLS 2
#define FDT_DEFAULT_SIZE_CELLS 1
#define FDT_MAX_CELLS	       2 /* what fits a uint64_t */
#define FDT_PHANDLE_INVALID    0xffffffffu

/* Byte offsets of the header's u32 fields. */
enum fdt_header_field {
	FDT_HDR_MAGIC = 0,
	FDT_HDR_TOTALSIZE = 4,
	FDT_HDR_OFF_STRUCT = 8,
	FDT_HDR_OFF_STRINGS = 12,
	FDT_HDR_OFF_RSVMAP = 16,
	FDT_HDR_VERSION = 20,
	FDT_HDR_LAST_COMP_VERSION = 24,
	FDT_HDR_BOOT_CPUID = 28,
	FDT_HDR_SIZE_STRINGS = 32,
	FDT_HDR_SIZE_STRUCT = 36, /* version 17 on */
};

enum fdt_token {
	FDT_BEGIN_NODE = 1, /* then the NUL-terminated name, padded to 4 bytes */
	FDT_END_NODE = 2,
	FDT_PROP = 3, /* then length, name offset, the value padded to 4 bytes */
	FDT_NOP = 4,
	FDT_END = 9,
};

/* One token of the structure block, as tag_read decoded it. */
struct fdt_tag {
	uint32_t token;
	uint32_t next;	  /* offset of the following token; may lie past the block's end */
	uint32_t len;	  /* FDT_PROP: value length */
	uint32_t nameoff; /* FDT_PROP: name offset in the strings block */
};

/* Validation state while walking the token stream once. */
struct fdt_walk {
	uint32_t depth;	    /* nodes open */
	uint32_t had_child; /* bit d: the open node at depth d has had a child already */
	bool root_done;
};

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

uint32_t fdt_be32(const void *p)
{
	return get_be32(p);
}

uint64_t fdt_cells_read(const void *p, uint32_t cells)
{
	const uint8_t *b = p;

	switch (cells) {
	case 1:
		return get_be32(b);
	case 2:
		return (uint64_t)get_be32(b) << 32 | get_be32(b + FDT_CELL_SIZE);
	default:
		return 0;
	}
}

static int fail(const char **why, int err, const char *msg)
{
	if (why)
		*why = msg;
	return err;
}

/* Is [off, off + len) inside [0, limit)? Phrased so that nothing can overflow. */
static bool span_inside(uint32_t off, uint32_t len, uint32_t limit)
{
	return off <= limit && len <= limit - off;
}

/* Do two spans inside the blob share a byte? (Empty spans share none.) */
static bool spans_overlap(uint32_t a, uint32_t alen, uint32_t b, uint32_t blen)
{
	return alen && blen && a < b + blen && b < a + alen;
}

/* Length of the string at p, or max if there is no NUL among its first max bytes. */
static uint32_t str_len_within(const uint8_t *p, uint32_t max)
{
	uint32_t n = 0;

	while (n < max && p[n])
		n++;
	return n;
}

static uint32_t align_token(uint32_t off)
{
	return (off + FDT_TOKEN_SIZE - 1) & ~(uint32_t)(FDT_TOKEN_SIZE - 1);
}

static uint32_t header_version(const struct fdt *fdt)
{
	return get_be32(fdt->blob + FDT_HDR_VERSION);
}

static uint32_t header_size(uint32_t version)
{
	return version >= FDT_SIZED_VERSION ? FDT_V17_HEADER_SIZE : FDT_V16_HEADER_SIZE;
}

/* The NUL-terminated string at off in the strings block, or NULL if off is outside it or the
 * string runs past its end. */
static const char *string_at(const struct fdt *fdt, uint32_t off)
{
	const uint8_t *s = fdt->blob + fdt->off_strings;

	if (off >= fdt->size_strings ||
	    str_len_within(s + off, fdt->size_strings - off) == fdt->size_strings - off)
		return NULL;
	return (const char *)s + off;
}

/* Decode the token at off in the structure block; nothing outside the block is read. */
static int tag_read(const struct fdt *fdt, uint32_t off, struct fdt_tag *tag, const char **why)
{
	const uint8_t *s = fdt->blob + fdt->off_struct;
	uint32_t end = fdt->size_struct;
	uint32_t n;

	if (off % FDT_TOKEN_SIZE)
		return fail(why, FDT_ERR_BADSTRUCT, "misaligned token");
	if (!span_inside(off, FDT_TOKEN_SIZE, end))
		return fail(why, FDT_ERR_BADSTRUCT, "struct block ends without FDT_END");
	tag->token = get_be32(s + off);
	tag->len = 0;
	tag->nameoff = 0;
	off += FDT_TOKEN_SIZE;
	switch (tag->token) {
	case FDT_BEGIN_NODE:
		n = str_len_within(s + off, end - off);
		if (n == end - off)
			return fail(why, FDT_ERR_BADSTRUCT, "unterminated node name");
		off += n + 1;
		break;
	case FDT_PROP:
		if (!span_inside(off, FDT_PROP_HEAD_SIZE, end))
			return fail(why, FDT_ERR_BADSTRUCT,
				    "property header runs past the struct block");
		tag->len = get_be32(s + off);
		tag->nameoff = get_be32(s + off + FDT_CELL_SIZE);
		off += FDT_PROP_HEAD_SIZE;
		if (!span_inside(off, tag->len, end))
			return fail(why, FDT_ERR_BADSTRUCT,
				    "property length runs past the struct block");
		off += tag->len;
		break;
	case FDT_END_NODE:
	case FDT_NOP:
	case FDT_END:
		break;
	default:
		return fail(why, FDT_ERR_BADSTRUCT, "unknown token in the struct block");
	}
	tag->next = align_token(off);
	return 0;
}

static int check_header(struct fdt *fdt, const uint8_t *b, size_t max_size, const char **why)
{
	uint32_t version, total;

	if (!b || max_size < sizeof(uint32_t))
		return fail(why, FDT_ERR_TRUNCATED, "buffer smaller than the header");
	if (get_be32(b + FDT_HDR_MAGIC) != FDT_MAGIC)
		return fail(why, FDT_ERR_BADMAGIC, "bad magic");
	if (max_size < FDT_V17_HEADER_SIZE)
		return fail(why, FDT_ERR_TRUNCATED, "buffer smaller than the header");
	version = get_be32(b + FDT_HDR_VERSION);
	if (version < FDT_FIRST_VERSION)
		return fail(why, FDT_ERR_BADVERSION, "version older than 16");
	if (get_be32(b + FDT_HDR_LAST_COMP_VERSION) > FDT_LAST_COMP_VERSION)
		return fail(why, FDT_ERR_BADVERSION, "last compatible version newer than 17");
	total = get_be32(b + FDT_HDR_TOTALSIZE);
	if (total > max_size)
		return fail(why, FDT_ERR_TRUNCATED, "totalsize exceeds the buffer");
	if (total < header_size(version))
		return fail(why, FDT_ERR_BADLAYOUT, "totalsize smaller than the header");
	/* Node offsets are ints. */
	if (total > INT32_MAX)
		return fail(why, FDT_ERR_BADLAYOUT, "totalsize too large");
	fdt->blob = b;
	fdt->size = total;
	fdt->off_struct = get_be32(b + FDT_HDR_OFF_STRUCT);
	fdt->size_struct = version >= FDT_SIZED_VERSION ? get_be32(b + FDT_HDR_SIZE_STRUCT) : 0;
	fdt->off_strings = get_be32(b + FDT_HDR_OFF_STRINGS);
	fdt->size_strings = get_be32(b + FDT_HDR_SIZE_STRINGS);
	fdt->off_rsvmap = get_be32(b + FDT_HDR_OFF_RSVMAP);
	return 0;
}

/* Bytes from start to the next block that begins after it, or to the end of the blob: the
 * most that a block of unknown size (the reservation map, a version 16 struct) may take. */
static uint32_t room_after(const struct fdt *fdt, uint32_t start)
{
	uint32_t end = fdt->size;

	if (start > end)
		return 0;
	if (fdt->off_rsvmap > start && fdt->off_rsvmap < end)
		end = fdt->off_rsvmap;
	if (fdt->off_struct > start && fdt->off_struct < end)
		end = fdt->off_struct;
	if (fdt->size_strings && fdt->off_strings > start && fdt->off_strings < end)
		end = fdt->off_strings;
	return end - start;
}

static int check_blocks(struct fdt *fdt, const char **why)
{
	uint32_t hdr = header_size(header_version(fdt));

	if (fdt->off_struct % FDT_STRUCT_ALIGN)
		return fail(why, FDT_ERR_BADLAYOUT, "misaligned struct block");
	if (!span_inside(fdt->off_strings, fdt->size_strings, fdt->size))
		return fail(why, FDT_ERR_BADLAYOUT, "strings block outside the blob");
	if (header_version(fdt) < FDT_SIZED_VERSION)
		fdt->size_struct = room_after(fdt, fdt->off_struct);
	if (!span_inside(fdt->off_struct, fdt->size_struct, fdt->size))
		return fail(why, FDT_ERR_BADLAYOUT, "struct block outside the blob");
	if (spans_overlap(0, hdr, fdt->off_struct, fdt->size_struct))
		return fail(why, FDT_ERR_BADLAYOUT, "struct block overlaps the header");
	if (spans_overlap(0, hdr, fdt->off_strings, fdt->size_strings))
		return fail(why, FDT_ERR_BADLAYOUT, "strings block overlaps the header");
	if (spans_overlap(fdt->off_struct, fdt->size_struct, fdt->off_strings, fdt->size_strings))
		return fail(why, FDT_ERR_BADLAYOUT, "struct block overlaps the strings block");
	return 0;
}

static bool rsv_is_end(const uint8_t *entry)
{
	return fdt_cells_read(entry, FDT_U64_CELLS) == 0 &&
	       fdt_cells_read(entry + FDT_RSV_SIZE_OFFSET, FDT_U64_CELLS) == 0;
}

static int check_rsvmap(const struct fdt *fdt, const char **why)
{
	uint32_t start = fdt->off_rsvmap, room, len;

	if (start % FDT_RSVMAP_ALIGN)
		return fail(why, FDT_ERR_BADLAYOUT, "misaligned memory reservation map");
	if (!span_inside(start, FDT_RSV_ENTRY_SIZE, fdt->size))
		return fail(why, FDT_ERR_BADLAYOUT, "memory reservation map outside the blob");
	room = room_after(fdt, start);
	for (len = 0; span_inside(len, FDT_RSV_ENTRY_SIZE, room); len += FDT_RSV_ENTRY_SIZE)
		if (rsv_is_end(fdt->blob + start + len))
			break;
	if (!span_inside(len, FDT_RSV_ENTRY_SIZE, room))
		return fail(why, FDT_ERR_BADLAYOUT,
			    "memory reservation map has no terminating entry");
	len += FDT_RSV_ENTRY_SIZE;
	if (spans_overlap(0, header_size(header_version(fdt)), start, len))
		return fail(why, FDT_ERR_BADLAYOUT, "memory reservation map overlaps the header");
	if (spans_overlap(start, len, fdt->off_struct, fdt->size_struct) ||
	    spans_overlap(start, len, fdt->off_strings, fdt->size_strings))
		return fail(why, FDT_ERR_BADLAYOUT,
			    "memory reservation map overlaps another block");
	return 0;
}

/* The rules of nesting for the token at off; its own bounds tag_read has checked. */
static int check_token(const struct fdt *fdt, uint32_t off, const struct fdt_tag *tag,
		       struct fdt_walk *w, const char **why)
{
	switch (tag->token) {
	case FDT_BEGIN_NODE:
		if (w->root_done)
			return fail(why, FDT_ERR_BADSTRUCT, "second root node");
		/* fdt_path and fdt_node_name promise "" for "/" */
		if (w->depth == 0 && fdt->blob[fdt->off_struct + off + FDT_TOKEN_SIZE])
			return fail(why, FDT_ERR_BADSTRUCT, "root node has a name");
		if (w->depth == FDT_MAX_DEPTH)
			return fail(why, FDT_ERR_BADSTRUCT, "nesting deeper than FDT_MAX_DEPTH");
		w->had_child |= 1u << w->depth;
		w->depth++;
		w->had_child &= ~(1u << w->depth);
		return 0;
	case FDT_END_NODE:
		if (w->depth == 0)
			return fail(why, FDT_ERR_BADSTRUCT,
				    "unbalanced nesting: FDT_END_NODE too many");
		if (--w->depth == 0)
			w->root_done = true;
		return 0;
	case FDT_PROP:
		if (w->depth == 0)
			return fail(why, FDT_ERR_BADSTRUCT, "property outside any node");
		/* The spec puts properties first; fdt_getprop relies on it. */
		if (w->had_child & (1u << w->depth))
			return fail(why, FDT_ERR_BADSTRUCT, "property after a child node");
		if (tag->nameoff >= fdt->size_strings)
			return fail(why, FDT_ERR_BADSTRUCT,
				    "property name offset outside the strings block");
		if (!string_at(fdt, tag->nameoff))
			return fail(why, FDT_ERR_BADSTRUCT,
				    "property name runs past the strings block");
		return 0;
	case FDT_END:
		if (w->depth)
			return fail(why, FDT_ERR_BADSTRUCT, "unbalanced nesting: node left open");
		if (!w->root_done)
			return fail(why, FDT_ERR_BADSTRUCT, "no root node");
		return 0;
	default:
		return 0;
	}
}

static int check_struct(struct fdt *fdt, const char **why)
{
	struct fdt_walk w = { 0 };
	struct fdt_tag tag;
	uint32_t off = 0;
	int err;

	for (;;) {
		err = tag_read(fdt, off, &tag, why);
		if (!err)
			err = check_token(fdt, off, &tag, &w, why);
		if (err)
			return err;
		if (tag.token == FDT_END)
			break;
		off = tag.next;
	}
	if (header_version(fdt) < FDT_SIZED_VERSION)
		fdt->size_struct = tag.next;
	else if (tag.next != fdt->size_struct)
		return fail(why, FDT_ERR_BADSTRUCT, "data after FDT_END in the struct block");
	return 0;
}

int fdt_init(struct fdt *fdt, const void *blob, size_t max_size, const char **why)
{
	int err;

	err = check_header(fdt, blob, max_size, why);
	if (!err)
		err = check_blocks(fdt, why);
	if (!err)
		err = check_rsvmap(fdt, why);
	if (!err)
		err = check_struct(fdt, why);
	if (!err && why)
		*why = NULL;
	return err;
}

uint32_t fdt_header_size(const void *blob)
{
	const uint8_t *b = blob;

	if (get_be32(b + FDT_HDR_MAGIC) != FDT_MAGIC)
		return 0;
	return get_be32(b + FDT_HDR_TOTALSIZE);
}

/* --- walking nodes ------------------------------------------------------------------------ */

static bool read_tag(const struct fdt *fdt, int off, struct fdt_tag *tag)
{
	return off >= 0 && tag_read(fdt, (uint32_t)off, tag, NULL) == 0;
}

static bool is_node(const struct fdt *fdt, int node, struct fdt_tag *tag)
{
	return read_tag(fdt, node, tag) && tag->token == FDT_BEGIN_NODE;
}

/* The first node token at off, after FDT_NOPs (and properties if skip_props), or -1. */
static int node_at(const struct fdt *fdt, uint32_t off, bool skip_props)
{
	struct fdt_tag tag;

	while (tag_read(fdt, off, &tag, NULL) == 0) {
		if (tag.token == FDT_BEGIN_NODE)
			return (int)off;
		if (tag.token != FDT_NOP && !(skip_props && tag.token == FDT_PROP))
			return -1;
		off = tag.next;
	}
	return -1;
}

/* The offset just past node's FDT_END_NODE, or -1. */
static int subtree_end(const struct fdt *fdt, int node)
{
	struct fdt_tag tag;
	uint32_t depth = 1, off;

	if (!is_node(fdt, node, &tag))
		return -1;
	for (off = tag.next; depth && tag_read(fdt, off, &tag, NULL) == 0; off = tag.next) {
		if (tag.token == FDT_BEGIN_NODE)
			depth++;
		else if (tag.token == FDT_END_NODE)
			depth--;
		else if (tag.token == FDT_END)
			return -1;
	}
	return depth ? -1 : (int)off;
}

int fdt_root(const struct fdt *fdt)
{
	return node_at(fdt, 0, false);
}

int fdt_first_child(const struct fdt *fdt, int node)
{
	struct fdt_tag tag;

	if (!is_node(fdt, node, &tag))
		return -1;
	return node_at(fdt, tag.next, true);
}

int fdt_next_sibling(const struct fdt *fdt, int node)
{
	int end = subtree_end(fdt, node);

	return end < 0 ? -1 : node_at(fdt, (uint32_t)end, false);
}

int fdt_parent(const struct fdt *fdt, int node)
{
	int open[FDT_MAX_DEPTH];
	uint32_t depth = 0, off;
	struct fdt_tag tag;

	if (node < 0)
		return -1;
	for (off = 0; tag_read(fdt, off, &tag, NULL) == 0 && tag.token != FDT_END; off = tag.next) {
		if (tag.token == FDT_BEGIN_NODE) {
			if (off == (uint32_t)node)
				return depth ? open[depth - 1] : -1;
			if (depth == FDT_MAX_DEPTH)
				return -1;
			open[depth++] = (int)off;
		} else if (tag.token == FDT_END_NODE && depth) {
			depth--;
		}
	}
	return -1;
}

int fdt_next_node(const struct fdt *fdt, int node)
{
	struct fdt_tag tag;
	uint32_t off;

	if (!is_node(fdt, node, &tag))
		return -1;
	/* Depth-first order is the order of FDT_BEGIN_NODE tokens in the stream. */
	for (off = tag.next; tag_read(fdt, off, &tag, NULL) == 0; off = tag.next) {
		if (tag.token == FDT_BEGIN_NODE)
			return (int)off;
		if (tag.token == FDT_END)
			return -1;
	}
	return -1;
}

const char *fdt_node_name(const struct fdt *fdt, int node)
{
	struct fdt_tag tag;

	if (!is_node(fdt, node, &tag))
		return NULL;
	return (const char *)fdt->blob + fdt->off_struct + (uint32_t)node + FDT_TOKEN_SIZE;
}

/* Does node name match the path component comp[0..len)? */
static bool name_matches(const char *name, const char *comp, size_t len)
{
	size_t i;

	if (strncmp(name, comp, len))
		return false;
	if (name[len] == '\0')
		return true;
	if (name[len] != '@')
		return false;
	for (i = 0; i < len; i++)
		if (comp[i] == '@')
			return false;
	return true;
}

int fdt_path(const struct fdt *fdt, const char *path)
{
	int node = fdt_root(fdt);
	size_t len;

	if (!path || path[0] != '/')
		return -1;
	while (node >= 0) {
		while (*path == '/')
			path++;
		if (!*path)
			return node;
		for (len = 0; path[len] && path[len] != '/'; len++)
			;
		for (node = fdt_first_child(fdt, node); node >= 0;
		     node = fdt_next_sibling(fdt, node))
			if (name_matches(fdt_node_name(fdt, node), path, len))
				break;
		path += len;
	}
	return -1;
}

/* "phandle" if it is one cell, else the legacy "linux,phandle"; 0 if neither. */
static uint32_t node_phandle(const struct fdt *fdt, int node)
{
	uint32_t ph;

	if (fdt_prop_u32(fdt, node, "phandle", &ph) ||
	    fdt_prop_u32(fdt, node, "linux,phandle", &ph))
		return ph;
	return 0;
}

int fdt_node_by_phandle(const struct fdt *fdt, uint32_t phandle)
{
	int node;

	if (phandle == 0 || phandle == FDT_PHANDLE_INVALID)
		return -1;
	for (node = fdt_root(fdt); node >= 0; node = fdt_next_node(fdt, node))
		if (node_phandle(fdt, node) == phandle)
			return node;
	return -1;
}

int fdt_find_compatible(const struct fdt *fdt, int from, const char *compat)
{
	int node = from < 0 ? fdt_root(fdt) : fdt_next_node(fdt, from);

	for (; node >= 0; node = fdt_next_node(fdt, node))
		if (fdt_node_is_compatible(fdt, node, compat))
			return node;
	return -1;
}

/* --- properties --------------------------------------------------------------------------- */

const void *fdt_getprop(const struct fdt *fdt, int node, const char *name, uint32_t *len)
{
	struct fdt_tag tag;
	const char *pname;
	uint32_t off;

	if (!is_node(fdt, node, &tag))
		return NULL;
	for (off = tag.next; tag_read(fdt, off, &tag, NULL) == 0; off = tag.next) {
		if (tag.token == FDT_NOP)
			continue;
		if (tag.token != FDT_PROP)
			break;
		pname = string_at(fdt, tag.nameoff);
		if (pname && !strcmp(pname, name)) {
			if (len)
				*len = tag.len;
			return fdt->blob + fdt->off_struct + off + FDT_TOKEN_SIZE +
			       FDT_PROP_HEAD_SIZE;
		}
	}
	return NULL;
}

bool fdt_node_is_compatible(const struct fdt *fdt, int node, const char *compat)
{
	uint32_t len, n;
	const char *list = fdt_getprop(fdt, node, "compatible", &len);

	if (!list)
		return false;
	/* A list of NUL-terminated strings; an unterminated tail is not a string. */
	while (len) {
		n = str_len_within((const uint8_t *)list, len);
		if (n == len)
			return false;
		if (!strcmp(list, compat))
			return true;
		list += n + 1;
		len -= n + 1;
	}
	return false;
}

bool fdt_node_is_enabled(const struct fdt *fdt, int node)
{
	const char *status;

	if (!fdt_node_name(fdt, node))
		return false;
	if (!fdt_getprop(fdt, node, "status", NULL))
		return true;
	status = fdt_prop_string(fdt, node, "status");
	return status && (!strcmp(status, "okay") || !strcmp(status, "ok"));
}

bool fdt_prop_u32(const struct fdt *fdt, int node, const char *name, uint32_t *out)
{
	uint32_t len;
	const void *p = fdt_getprop(fdt, node, name, &len);

	if (!p || len != sizeof(uint32_t))
		return false;
	*out = fdt_be32(p);
	return true;
}

bool fdt_irq(const struct fdt *fdt, int node, uint32_t *out)
{
	uint32_t len;
	const void *p = fdt_getprop(fdt, node, "interrupts", &len);

	if (!p || len < sizeof(uint32_t) || len % sizeof(uint32_t))
		return false;
	*out = fdt_be32(p);
	return true;
}

const char *fdt_prop_string(const struct fdt *fdt, int node, const char *name)
{
	uint32_t len;
	const char *p = fdt_getprop(fdt, node, name, &len);

	if (!p || str_len_within((const uint8_t *)p, len) == len)
		return NULL;
	return p;
}

/* One #...-cells property of a bus node: the default when absent, else one cell <= 2. */
static bool cells_prop(const struct fdt *fdt, int bus, const char *name, uint32_t dflt,
		       uint32_t *out)
{
	if (!fdt_getprop(fdt, bus, name, NULL)) {
		*out = dflt;
		return true;
	}
	return fdt_prop_u32(fdt, bus, name, out) && *out <= FDT_MAX_CELLS;
}

bool fdt_cells(const struct fdt *fdt, int node, uint32_t *addr_cells, uint32_t *size_cells)
{
	return fdt_bus_cells(fdt, fdt_parent(fdt, node), addr_cells, size_cells);
}

bool fdt_bus_cells(const struct fdt *fdt, int bus, uint32_t *addr_cells, uint32_t *size_cells)
{
	return bus >= 0 &&
	       cells_prop(fdt, bus, "#address-cells", FDT_DEFAULT_ADDR_CELLS, addr_cells) &&
	       cells_prop(fdt, bus, "#size-cells", FDT_DEFAULT_SIZE_CELLS, size_cells);
}

int fdt_reg(const struct fdt *fdt, int node, int index, uint64_t *addr, uint64_t *size)
{
	uint32_t ac, sc;

	if (!fdt_getprop(fdt, node, "reg", NULL))
		return FDT_ERR_NOTFOUND;
	if (!fdt_cells(fdt, node, &ac, &sc))
		return FDT_ERR_BADVALUE;
	return fdt_reg_cells(fdt, node, ac, sc, index, addr, size);
}

int fdt_reg_cells(const struct fdt *fdt, int node, uint32_t ac, uint32_t sc, int index,
		  uint64_t *addr, uint64_t *size)
{
	uint32_t len, pair;
	const uint8_t *reg = fdt_getprop(fdt, node, "reg", &len);

	if (!reg)
		return FDT_ERR_NOTFOUND;
	if (ac + sc == 0 || ac > FDT_MAX_CELLS || sc > FDT_MAX_CELLS)
		return FDT_ERR_BADVALUE;
	pair = (ac + sc) * FDT_CELL_SIZE;
	if (len % pair)
		return FDT_ERR_BADVALUE;
	if (index < 0 || (uint32_t)index >= len / pair)
		return FDT_ERR_NOTFOUND;
	reg += (uint32_t)index * pair;
	if (addr)
		*addr = fdt_cells_read(reg, ac);
	if (size)
		*size = fdt_cells_read(reg + ac * FDT_CELL_SIZE, sc);
	return 0;
}

/* --- memory reservation map --------------------------------------------------------------- */

int fdt_num_memreserve(const struct fdt *fdt)
{
	uint32_t off = fdt->off_rsvmap;
	int n = 0;

	while (span_inside(off, FDT_RSV_ENTRY_SIZE, fdt->size) && !rsv_is_end(fdt->blob + off)) {
		off += FDT_RSV_ENTRY_SIZE;
		n++;
	}
	return n;
}

int fdt_memreserve(const struct fdt *fdt, int index, uint64_t *addr, uint64_t *size)
{
	const uint8_t *entry;

	if (index < 0 || index >= fdt_num_memreserve(fdt))
		return FDT_ERR_NOTFOUND;
	entry = fdt->blob + fdt->off_rsvmap + (uint32_t)index * FDT_RSV_ENTRY_SIZE;
	if (addr)
		*addr = fdt_cells_read(entry, FDT_U64_CELLS);
	if (size)
		*size = fdt_cells_read(entry + FDT_RSV_SIZE_OFFSET, FDT_U64_CELLS);
	return 0;
}
