/* fdt.h: a bounds-checked reader of flattened device trees (DTB); owns nothing but the parsing.
 *
 * fdt_init validates a whole blob once; every other function assumes a struct fdt that fdt_init
 * accepted (and that the blob has not changed since). Even so, each one bounds-checks what it
 * reads, so a stale or made-up node offset yields "none", never a read outside the blob.
 * All functions are pure: no allocation, no global state, no locks, no printing, so they may be
 * called from any context, on any hart, concurrently. The blob needs only 4-byte alignment (or
 * none): multi-byte values are read bytewise. Pointers returned point into the blob.
 */
#ifndef KERNEL_FDT_H
#define KERNEL_FDT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Deepest nesting fdt_init accepts, counting the root as 1. */
#define FDT_MAX_DEPTH 16

enum fdt_err {
	FDT_ERR_NOTFOUND = -1,	 /* no such node, property or index */
	FDT_ERR_BADMAGIC = -2,	 /* not a DTB */
	FDT_ERR_BADVERSION = -3, /* a format version this reader does not speak */
	FDT_ERR_TRUNCATED = -4,	 /* the blob is larger than the buffer it is in */
	FDT_ERR_BADLAYOUT = -5,	 /* blocks outside the blob, misaligned or overlapping */
	FDT_ERR_BADSTRUCT = -6,	 /* the structure block is not a well-formed token stream */
	FDT_ERR_BADVALUE = -7,	 /* a property whose size or value makes no sense */
};

/* A validated tree; fields are private to fdt.c. Offsets are from the start of the blob. */
struct fdt {
	const uint8_t *blob;
	uint32_t size; /* totalsize */
	uint32_t off_struct, size_struct, off_strings, size_strings, off_rsvmap;
};

/* Validate the whole blob, which the caller knows to be readable for max_size bytes: header
 * (magic, version >= 16 with last compatible version <= 17, totalsize within max_size), blocks
 * inside totalsize, aligned and disjoint, a terminated reservation map, and a well-formed
 * structure block: one root (named ""), properties before subnodes, nesting <= FDT_MAX_DEPTH.
 * Returns 0 and fills *fdt, or a negative FDT_ERR_*; if why is not NULL, *why becomes NULL on
 * success and a short static message on failure. Reads at most max_size bytes whatever the
 * blob holds. */
int fdt_init(struct fdt *fdt, const void *blob, size_t max_size, const char **why);
/* The header's totalsize, for a caller that must map the blob before fdt_init can look at it;
 * 0 if the magic is wrong. Reads exactly the first 8 bytes. */
uint32_t fdt_header_size(const void *blob);

/* Nodes are named by their offset in the structure block (>= 0); negative means none. Every
 * function taking a node accepts a negative one and then answers none / false / NULL. */
int fdt_root(const struct fdt *fdt);
int fdt_first_child(const struct fdt *fdt, int node);
int fdt_next_sibling(const struct fdt *fdt, int node);
/* -1 for the root. Costs a walk from the root. */
int fdt_parent(const struct fdt *fdt, int node);
/* The node after `node` in a depth-first walk of the whole tree, or -1 after the last one:
 * for (n = fdt_root(fdt); n >= 0; n = fdt_next_node(fdt, n)) visits every node once. */
int fdt_next_node(const struct fdt *fdt, int node);
/* "" for the root, "cpu@0" etc.; NULL if node is not a node. */
const char *fdt_node_name(const struct fdt *fdt, int node);
/* The node at an absolute path ("/", "/cpus", "/soc/serial@10000000"). A component matches a
 * node's full name or, if the component has no '@', the node's name before its '@' ("/memory"
 * finds memory@80000000); the first match in tree order wins. */
int fdt_path(const struct fdt *fdt, const char *path);
/* The node whose "phandle" (or legacy "linux,phandle") is phandle; 0 and ~0 name nothing. */
int fdt_node_by_phandle(const struct fdt *fdt, uint32_t phandle);
/* The next node after `from` (-1: from the start, the root included) whose "compatible" list
 * contains compat. */
int fdt_find_compatible(const struct fdt *fdt, int from, const char *compat);

/* The value of property name of node and, if len is not NULL, its length in *len; NULL if
 * absent. The value is unaligned: read it with fdt_be32 / fdt_cells_read. */
const void *fdt_getprop(const struct fdt *fdt, int node, const char *name, uint32_t *len);
bool fdt_node_is_compatible(const struct fdt *fdt, int node, const char *compat);
/* True if "status" is absent, "okay" or "ok". */
bool fdt_node_is_enabled(const struct fdt *fdt, int node);
/* A u32 property of exactly 4 bytes; false if absent or of another size. */
bool fdt_prop_u32(const struct fdt *fdt, int node, const char *name, uint32_t *out);
/* The line of a device's first interrupt: the first cell of "interrupts", whatever its
 * controller's #interrupt-cells (the PLIC's one cell; the APLIC's two, line then sense). False
 * if absent or not whole cells. */
bool fdt_irq(const struct fdt *fdt, int node, uint32_t *out);
/* A string property with a NUL within its length; NULL otherwise. */
const char *fdt_prop_string(const struct fdt *fdt, int node, const char *name);
/* #address-cells / #size-cells that apply to node's reg, read from its parent (2 and 1 when
 * absent, as the devicetree spec says). False for the root, for a value that is not one cell,
 * and for more than 2 cells, which nothing here can hold. */
bool fdt_cells(const struct fdt *fdt, int node, uint32_t *addr_cells, uint32_t *size_cells);
/* The index-th (address, size) pair of node's "reg": 0, or FDT_ERR_NOTFOUND if reg is absent
 * or index out of range, or FDT_ERR_BADVALUE if the cells are unusable or the length is not a
 * multiple of one pair (a malformed reg is an error, not silently truncated). addr or size may
 * be NULL. */
int fdt_reg(const struct fdt *fdt, int node, int index, uint64_t *addr, uint64_t *size);
/* The same two with the bus given: the cells bus sets for its children (fdt_cells without the
 * walk from the root that finds a node's parent: a loop over one bus's children reads them
 * once), and fdt_reg with those cells. */
bool fdt_bus_cells(const struct fdt *fdt, int bus, uint32_t *addr_cells, uint32_t *size_cells);
int fdt_reg_cells(const struct fdt *fdt, int node, uint32_t addr_cells, uint32_t size_cells,
		  int index, uint64_t *addr, uint64_t *size);
/* Entries of the memory reservation map, and the index-th one (0 or FDT_ERR_NOTFOUND; addr or
 * size may be NULL). */
int fdt_num_memreserve(const struct fdt *fdt);
int fdt_memreserve(const struct fdt *fdt, int index, uint64_t *addr, uint64_t *size);

/* Big-endian readers for property values, at any alignment. fdt_cells_read takes 1 or 2 cells
 * (0 reads nothing and gives 0; more than 2 is a caller bug and also gives 0). */
uint32_t fdt_be32(const void *p);
uint64_t fdt_cells_read(const void *p, uint32_t cells);

#endif
