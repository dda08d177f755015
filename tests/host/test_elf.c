/* test_elf.c: host unit tests of kernel/lib/elf.c: a real RISC-V executable checked against readelf,
 * every rejection on images synthesized here, and byte-flip fuzzing against elf.h's guarantees. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "host_file.h"

#include "lib/elf.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define PAGE         4096ULL
/* Sv39's user half, what arch_user_top() returns on the RISC-V port. */
#define USER_TOP     0x4000000000ULL
#define MAX_SEGS     8

/* ELF64 layout, from the specification: sizes, and offsets of fields in the file header (EH_),
 * a program header (PH_), a section header (SH_) and a symbol (SYM_). */
#define EHDR_SIZE       64
#define PHDR_SIZE       56
#define EH_TYPE         16
#define EH_MACHINE      18
#define EH_VERSION      20
#define EH_ENTRY        24
#define EH_PHOFF        32
#define EH_SHOFF        40
#define EH_EHSIZE       52
#define EH_PHENTSIZE    54
#define EH_PHNUM        56
#define EH_SHENTSIZE    58
#define EH_SHNUM        60
#define PH_TYPE         0
#define PH_FLAGS        4
#define PH_OFFSET       8
#define PH_VADDR        16
#define PH_PADDR        24
#define PH_FILESZ       32
#define PH_MEMSZ        40
#define PH_ALIGN        48
#define SHDR_SIZE       64
#define SH_TYPE         4
#define SH_OFFSET       24
#define SH_SIZE         32
#define SH_LINK         40
#define SH_ENTSIZE      56
#define SHT_SYMTAB      2
#define SYM_SIZE        24
#define SYM_NAME        0
#define SYM_VALUE       8

enum { ELFCLASS32 = 1, ELFCLASS64 = 2 };
enum { ELFDATA2LSB = 1, ELFDATA2MSB = 2 };
enum { ET_REL = 1, ET_EXEC = 2, ET_DYN = 3, ET_CORE = 4 };
enum { EM_NONE = 0, EM_386 = 3, EM_X86_64 = 62, EM_AARCH64 = 183, EM_RISCV = 243 };
enum {
	PT_NULL = 0,
	PT_LOAD = 1,
	PT_DYNAMIC = 2,
	PT_NOTE = 4,
	PT_PHDR = 6,
	PT_GNU_STACK = 0x6474e551,
	PT_RISCV_ATTRIBUTES = 0x70000003,
};

#define PF_R ELF_SEG_R
#define PF_W ELF_SEG_W
#define PF_X ELF_SEG_X

static const char *prog_elf = "build/host/elf/prog.elf";
static const char *prog_readelf = "build/host/elf/prog.readelf";

/* Every message elf.c may give, for the fuzzer's check that a rejection says something known. */
static const char *const known_whys[] = {
	"shorter than an ELF header",
	"not an ELF file",
	"not little-endian ELF64",
	"not a RISC-V executable",
	"program headers outside the file",
	"segment file size exceeds its memory size",
	"segment data outside the file",
	"segment outside user space",
	"segment offset and address disagree modulo the page size",
	"segment both writable and executable",
	"too many loadable segments",
	"loadable segments share a page",
	"no loadable segment",
	"entry point outside user space",
	"entry point not in an executable segment",
};

/* --- little-endian field access, independent of elf.c's structs --- */

static uint64_t get_le(const uint8_t *p, int bytes)
{
	uint64_t v = 0;

	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void put_le(uint8_t *p, int bytes, uint64_t v)
{
	for (int i = 0; i < bytes; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

/* --- a builder of synthetic images --- */

struct ph_spec {
	uint32_t type, flags;
	uint64_t offset, vaddr, filesz, memsz;
};

#define SPEC_MAX_PH 16

struct image_spec {
	uint8_t magic[4], class, data;
	uint16_t type, machine, phentsize, phnum;
	uint64_t entry, phoff;
	struct ph_spec ph[SPEC_MAX_PH]; /* written at phoff, as far as they fit in the file */
	int nph;
	size_t size;
};

#define TEXT_VADDR  0x10000ULL
#define TEXT_OFFSET 0x1000ULL
#define TEXT_SIZE   0x234ULL
#define DATA_VADDR  0x12100ULL /* congruent with DATA_OFFSET modulo the page size */
#define DATA_OFFSET 0x2100ULL
#define DATA_FILESZ 0x80ULL
#define DATA_MEMSZ  0x3000ULL
#define IMAGE_SIZE  0x2180ULL

static void add_ph(struct image_spec *s, uint32_t type, uint32_t flags, uint64_t offset,
		   uint64_t vaddr, uint64_t filesz, uint64_t memsz)
{
	assert_true(s->nph < SPEC_MAX_PH);
	s->ph[s->nph++] = (struct ph_spec){ type, flags, offset, vaddr, filesz, memsz };
	s->phnum = (uint16_t)s->nph;
}

/* A valid executable: R+X text at 0x10000, RW data with bss after it (its file data ends at the
 * end of the file), entry inside the text. */
static struct image_spec spec_valid(void)
{
	struct image_spec s = {
		.magic = { 0x7f, 'E', 'L', 'F' },
		.class = ELFCLASS64,
		.data = ELFDATA2LSB,
		.type = ET_EXEC,
		.machine = EM_RISCV,
		.phentsize = PHDR_SIZE,
		.entry = TEXT_VADDR + 0x10,
		.phoff = EHDR_SIZE,
		.size = IMAGE_SIZE,
	};

	add_ph(&s, PT_LOAD, PF_R | PF_X, TEXT_OFFSET, TEXT_VADDR, TEXT_SIZE, TEXT_SIZE);
	add_ph(&s, PT_LOAD, PF_R | PF_W, DATA_OFFSET, DATA_VADDR, DATA_FILESZ, DATA_MEMSZ);
	return s;
}

/* The image s describes, in a buffer of exactly s->size bytes (so ASan sees any over-read). */
static uint8_t *build(const struct image_spec *s)
{
	uint8_t *img = malloc(s->size ? s->size : 1);
	uint8_t hdr[EHDR_SIZE] = { 0 };

	assert_non_null(img);
	for (size_t i = 0; i < s->size; i++)
		img[i] = (uint8_t)(i * 7 + 3); /* segment contents: anything but zero */
	memcpy(hdr, s->magic, 4);
	hdr[4] = s->class;
	hdr[5] = s->data;
	hdr[6] = 1; /* EV_CURRENT */
	put_le(hdr + EH_TYPE, 2, s->type);
	put_le(hdr + EH_MACHINE, 2, s->machine);
	put_le(hdr + EH_VERSION, 4, 1);
	put_le(hdr + EH_ENTRY, 8, s->entry);
	put_le(hdr + EH_PHOFF, 8, s->phoff);
	put_le(hdr + EH_SHOFF, 8, 0);
	put_le(hdr + EH_EHSIZE, 2, EHDR_SIZE);
	put_le(hdr + EH_PHENTSIZE, 2, s->phentsize);
	put_le(hdr + EH_PHNUM, 2, s->phnum);
	put_le(hdr + EH_SHENTSIZE, 2, SHDR_SIZE);
	memcpy(img, hdr, s->size < EHDR_SIZE ? s->size : EHDR_SIZE);
	for (int i = 0; i < s->nph; i++) {
		uint8_t ph[PHDR_SIZE] = { 0 };
		uint64_t at = s->phoff + (uint64_t)i * PHDR_SIZE;

		put_le(ph + PH_TYPE, 4, s->ph[i].type);
		put_le(ph + PH_FLAGS, 4, s->ph[i].flags);
		put_le(ph + PH_OFFSET, 8, s->ph[i].offset);
		put_le(ph + PH_VADDR, 8, s->ph[i].vaddr);
		put_le(ph + PH_PADDR, 8, s->ph[i].vaddr);
		put_le(ph + PH_FILESZ, 8, s->ph[i].filesz);
		put_le(ph + PH_MEMSZ, 8, s->ph[i].memsz);
		put_le(ph + PH_ALIGN, 8, PAGE);
		if (s->size >= PHDR_SIZE && s->phoff <= s->size && at <= s->size - PHDR_SIZE)
			memcpy(img + at, ph, PHDR_SIZE);
	}
	return img;
}

/* elf_parse on a private copy of exactly size bytes of image. */
static int parse(const uint8_t *image, size_t size, uint64_t user_top, struct elf_segment *segs,
		 int max_segs, uint64_t *entry, const char **why)
{
	uint8_t *copy = malloc(size ? size : 1);
	int n;

	assert_non_null(copy);
	memcpy(copy, image, size);
	*why = NULL;
	n = elf_parse(copy, size, user_top, segs, max_segs, entry, why);
	free(copy);
	return n;
}

static int parse_spec(const struct image_spec *s, int max_segs, struct elf_segment *segs,
		      uint64_t *entry, const char **why)
{
	uint8_t *img = build(s);
	int n = parse(img, s->size, USER_TOP, segs, max_segs, entry, why);

	free(img);
	return n;
}

static void expect_reject_max(const struct image_spec *s, int max_segs, const char *why)
{
	struct elf_segment segs[SPEC_MAX_PH];
	uint64_t entry = 0;
	const char *got;
	int n = parse_spec(s, max_segs, segs, &entry, &got);

	if (n != -1)
		fail_msg("accepted (%d segments), expected \"%s\"", n, why);
	assert_non_null(got);
	assert_string_equal(got, why);
}

static void expect_reject(const struct image_spec *s, const char *why)
{
	expect_reject_max(s, MAX_SEGS, why);
}

/* Accepted with the spec's LOAD headers of non-zero memsz, in order, and its entry. */
static void expect_accept(const struct image_spec *s)
{
	struct elf_segment segs[SPEC_MAX_PH];
	uint64_t entry = 0;
	const char *why;
	int n = parse_spec(s, SPEC_MAX_PH, segs, &entry, &why);
	int k = 0;

	if (n < 0)
		fail_msg("rejected: %s", why);
	for (int i = 0; i < s->nph; i++) {
		const struct ph_spec *p = &s->ph[i];

		if (p->type != PT_LOAD || p->memsz == 0)
			continue;
		assert_true(k < n);
		assert_int_equal(segs[k].vaddr, p->vaddr);
		assert_int_equal(segs[k].memsz, p->memsz);
		assert_int_equal(segs[k].offset, p->offset);
		assert_int_equal(segs[k].filesz, p->filesz);
		assert_int_equal(segs[k].flags, p->flags);
		k++;
	}
	assert_int_equal(n, k);
	assert_int_equal(entry, s->entry);
}

/* --- the guarantees of elf.h, checked on any accepted image --- */

static uint64_t first_page(const struct elf_segment *s)
{
	return s->vaddr / PAGE;
}

static uint64_t last_page(const struct elf_segment *s)
{
	return (s->vaddr + s->memsz - 1) / PAGE;
}

static void check_guarantees(const uint8_t *image, size_t size, uint64_t user_top,
			     const struct elf_segment *segs, int n, int max_segs, uint64_t entry)
{
	uint64_t phoff = get_le(image + EH_PHOFF, 8);
	int phnum = (int)get_le(image + EH_PHNUM, 2);
	int k = 0, in_exec = 0;

	assert_true(n >= 1 && n <= max_segs);
	for (int i = 0; i < n; i++) {
		const struct elf_segment *s = &segs[i];

		assert_true(s->memsz > 0);
		assert_true(s->filesz <= s->memsz);
		assert_true(s->offset <= size && s->filesz <= size - s->offset);
		assert_true(s->vaddr < user_top && s->memsz <= user_top - s->vaddr);
		assert_false((s->flags & ELF_SEG_W) && (s->flags & ELF_SEG_X));
		if (s->filesz)
			assert_int_equal(s->vaddr % PAGE, s->offset % PAGE);
		for (int j = 0; j < i; j++) {
			const struct elf_segment *o = &segs[j];

			if (first_page(s) <= last_page(o) && first_page(o) <= last_page(s))
				fail_msg("segments %d and %d share a page", j, i);
		}
		if ((s->flags & ELF_SEG_X) && entry >= s->vaddr && entry - s->vaddr < s->memsz)
			in_exec = 1;
	}
	assert_true(entry < user_top);
	assert_true(in_exec);
	assert_int_equal(entry, get_le(image + EH_ENTRY, 8));

	/* The segments are exactly the file's PT_LOAD headers with memory, in order. */
	assert_int_equal(get_le(image + EH_PHENTSIZE, 2), PHDR_SIZE);
	assert_true(phoff <= size && (uint64_t)phnum * PHDR_SIZE <= size - phoff);
	for (int i = 0; i < phnum; i++) {
		const uint8_t *ph = image + phoff + (uint64_t)i * PHDR_SIZE;

		if (get_le(ph + PH_TYPE, 4) != PT_LOAD || get_le(ph + PH_MEMSZ, 8) == 0)
			continue;
		assert_true(k < n);
		assert_int_equal(segs[k].vaddr, get_le(ph + PH_VADDR, 8));
		assert_int_equal(segs[k].memsz, get_le(ph + PH_MEMSZ, 8));
		assert_int_equal(segs[k].offset, get_le(ph + PH_OFFSET, 8));
		assert_int_equal(segs[k].filesz, get_le(ph + PH_FILESZ, 8));
		assert_int_equal(segs[k].flags, get_le(ph + PH_FLAGS, 4));
		k++;
	}
	assert_int_equal(k, n);
}

/* --- the real executable --- */

/* The value of symbol `name` from the file's .symtab (found through its section headers). */
static uint64_t symbol_value(const struct file *f, const char *name)
{
	uint64_t shoff = get_le(f->data + EH_SHOFF, 8);
	unsigned int shnum = (unsigned int)get_le(f->data + EH_SHNUM, 2);

	assert_int_equal(get_le(f->data + EH_SHENTSIZE, 2), SHDR_SIZE);
	assert_true(shoff <= f->size && (uint64_t)shnum * SHDR_SIZE <= f->size - shoff);
	for (unsigned int i = 0; i < shnum; i++) {
		const uint8_t *sh = f->data + shoff + (uint64_t)i * SHDR_SIZE;
		const uint8_t *strsh;
		uint64_t off, size, stroff, strsize;
		uint32_t link;

		if (get_le(sh + SH_TYPE, 4) != SHT_SYMTAB)
			continue;
		off = get_le(sh + SH_OFFSET, 8);
		size = get_le(sh + SH_SIZE, 8);
		link = (uint32_t)get_le(sh + SH_LINK, 4);
		assert_int_equal(get_le(sh + SH_ENTSIZE, 8), SYM_SIZE);
		assert_true(off <= f->size && size <= f->size - off && link < shnum);
		strsh = f->data + shoff + (uint64_t)link * SHDR_SIZE;
		stroff = get_le(strsh + SH_OFFSET, 8);
		strsize = get_le(strsh + SH_SIZE, 8);
		assert_true(stroff <= f->size && strsize <= f->size - stroff);
		for (uint64_t s = 0; s + SYM_SIZE <= size; s += SYM_SIZE) {
			const uint8_t *sym = f->data + off + s;
			uint64_t nameoff = get_le(sym + SYM_NAME, 4);
			const char *sym_name = (const char *)f->data + stroff + nameoff;

			if (nameoff < strsize && !strncmp(sym_name, name, strsize - nameoff))
				return get_le(sym + SYM_VALUE, 8);
		}
	}
	fail_msg("no symbol %s in %s", name, prog_elf);
	return 0;
}

/* The segment containing address va, or -1. */
static int segment_of(const struct elf_segment *segs, int n, uint64_t va)
{
	for (int i = 0; i < n; i++)
		if (va >= segs[i].vaddr && va - segs[i].vaddr < segs[i].memsz)
			return i;
	return -1;
}

static unsigned int flags_from_readelf(const char *s)
{
	unsigned int flags = 0;

	for (; *s; s++) {
		if (*s == 'R')
			flags |= PF_R;
		else if (*s == 'W')
			flags |= PF_W;
		else if (*s == 'E')
			flags |= PF_X;
		else
			fail_msg("unexpected readelf flag '%c'", *s);
	}
	return flags;
}

static void test_real_executable(void **state)
{
	struct file f = read_file(prog_elf, "run make host-tests");
	struct elf_segment segs[MAX_SEGS];
	uint64_t entry = 0, start, counter, scratch, ref_entry = 0;
	const char *why;
	char line[256];
	int n, nref = 0, text, data;
	FILE *fp;

	(void)state;
	n = parse(f.data, f.size, USER_TOP, segs, MAX_SEGS, &entry, &why);
	if (n < 0)
		fail_msg("%s rejected: %s", prog_elf, why);
	check_guarantees(f.data, f.size, USER_TOP, segs, n, MAX_SEGS, entry);

	/* readelf's view: the same entry and LOAD segments (the attributes segment is skipped). */
	fp = fopen(prog_readelf, "r");
	if (!fp)
		fail_msg("cannot open %s (run make host-tests)", prog_readelf);
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long off, va, filesz, memsz;
		char flags[8];

		if (sscanf(line, "entry %llx", &va) == 1) {
			ref_entry = va;
			continue;
		}
		if (sscanf(line, "load %llx %llx %llx %llx %7s", &off, &va, &filesz, &memsz,
			   flags) != 5)
			fail_msg("bad line in %s: %s", prog_readelf, line);
		assert_true(nref < n);
		assert_int_equal(segs[nref].offset, off);
		assert_int_equal(segs[nref].vaddr, va);
		assert_int_equal(segs[nref].filesz, filesz);
		assert_int_equal(segs[nref].memsz, memsz);
		assert_int_equal(segs[nref].flags, flags_from_readelf(flags));
		nref++;
	}
	fclose(fp);
	assert_int_equal(n, nref);
	assert_int_equal(entry, ref_entry);

	/* Its own symbols: _start in R+X text, counter in RW file data, scratch in bss. */
	start = symbol_value(&f, "_start");
	counter = symbol_value(&f, "counter");
	scratch = symbol_value(&f, "scratch");
	assert_int_equal(entry, start);
	text = segment_of(segs, n, start);
	data = segment_of(segs, n, counter);
	assert_true(text >= 0 && data >= 0 && text != data);
	assert_int_equal(segs[text].flags, PF_R | PF_X);
	assert_int_equal(segs[data].flags, PF_R | PF_W);
	assert_true(counter + 8 <= segs[data].vaddr + segs[data].filesz);
	assert_int_equal(get_le(f.data + segs[data].offset + (counter - segs[data].vaddr), 8),
			 0x7461636574ULL);
	assert_int_equal(segment_of(segs, n, scratch), data);
	assert_true(scratch >= segs[data].vaddr + segs[data].filesz);
	assert_true(scratch + 8192 <= segs[data].vaddr + segs[data].memsz);
	print_message("%s: %d segments, entry %#llx\n", prog_elf, n, (unsigned long long)entry);
	free(f.data);
}

/* --- synthesized images: acceptance --- */

static void test_valid_image(void **state)
{
	struct image_spec s = spec_valid();
	struct elf_segment segs[2];
	uint64_t entry;
	const char *why;

	(void)state;
	expect_accept(&s);
	/* Exactly max_segs segments are enough. */
	assert_int_equal(parse_spec(&s, 2, segs, &entry, &why), 2);
}

static void test_accept_boundaries(void **state)
{
	struct image_spec s;

	(void)state;
	/* Program headers ending at the very end of the file. */
	s = spec_valid();
	s.phoff = s.size - 2 * PHDR_SIZE;
	expect_accept(&s);
	/* A segment ending exactly at user_top. */
	s = spec_valid();
	s.ph[1].vaddr = USER_TOP - s.ph[1].memsz + (DATA_VADDR % PAGE) - PAGE;
	s.ph[1].memsz = USER_TOP - s.ph[1].vaddr;
	expect_accept(&s);
	/* Segments meeting at a page boundary share no page. */
	s = spec_valid();
	s.ph[0].memsz = PAGE;
	s.ph[0].filesz = PAGE - 0x200; /* inside the file (TEXT_OFFSET + filesz <= size) */
	s.ph[1].vaddr = TEXT_VADDR + PAGE;
	s.ph[1].offset = DATA_OFFSET & ~(PAGE - 1);
	expect_accept(&s);
	/* A bss-only segment need not be congruent with its (unused) offset. */
	s = spec_valid();
	add_ph(&s, PT_LOAD, PF_R | PF_W, 0x123, 0x40000, 0, 0x2000);
	expect_accept(&s);
	/* The entry at the first and the last byte of the text. */
	s = spec_valid();
	s.entry = TEXT_VADDR;
	expect_accept(&s);
	s.entry = TEXT_VADDR + TEXT_SIZE - 1;
	expect_accept(&s);
}

static void test_memsz_zero_ignored(void **state)
{
	struct image_spec s = spec_valid();
	struct elf_segment segs[2];
	uint64_t entry;
	const char *why;

	(void)state;
	/* Every other check would reject these, had they any memory. */
	add_ph(&s, PT_LOAD, PF_R | PF_W | PF_X, 0, TEXT_VADDR, 0, 0);
	add_ph(&s, PT_LOAD, PF_R, UINT64_MAX, USER_TOP + PAGE, 0, 0);
	add_ph(&s, PT_LOAD, PF_R, 0x1234, 0x7777, 0x10, 0);
	expect_accept(&s);
	/* They do not count against max_segs either. */
	assert_int_equal(parse_spec(&s, 2, segs, &entry, &why), 2);
}

static void test_non_load_skipped(void **state)
{
	static const uint32_t types[] = { PT_NULL, PT_DYNAMIC, PT_NOTE, PT_PHDR, PT_GNU_STACK,
					  PT_RISCV_ATTRIBUTES, 0xffffffff };
	struct image_spec s = spec_valid();

	(void)state;
	/* Nonsense fields: they are not looked at. */
	for (size_t i = 0; i < ARRAY_LEN(types); i++)
		add_ph(&s, types[i], PF_W | PF_X, UINT64_MAX - i, USER_TOP + i, UINT64_MAX, 1);
	/* Interleaved with the loadable ones, which come back in file order. */
	s.ph[s.nph - 1] = s.ph[0];
	s.ph[0] = (struct ph_spec){ PT_NOTE, PF_R, 0, 0, 0x1000000, 0x10 };
	s.size += 0x400;
	s.phoff = IMAGE_SIZE; /* the headers after the segment data */
	expect_accept(&s);
}

/* --- synthesized images: each rejection --- */

static void test_reject_too_short(void **state)
{
	struct image_spec s = spec_valid();
	uint8_t *img = build(&s);
	struct elf_segment segs[MAX_SEGS];
	uint64_t entry;
	const char *why;

	(void)state;
	for (size_t size = 0; size < EHDR_SIZE; size++) {
		assert_int_equal(parse(img, size, USER_TOP, segs, MAX_SEGS, &entry, &why), -1);
		assert_string_equal(why, "shorter than an ELF header");
	}
	/* A bare header passes this check and fails the next that needs more. */
	assert_int_equal(parse(img, EHDR_SIZE, USER_TOP, segs, MAX_SEGS, &entry, &why), -1);
	assert_string_equal(why, "program headers outside the file");
	free(img);
}

static void test_reject_bad_magic(void **state)
{
	(void)state;
	for (int i = 0; i < 4; i++) {
		struct image_spec s = spec_valid();

		s.magic[i] ^= 0x20;
		expect_reject(&s, "not an ELF file");
	}
}

static void test_reject_32bit(void **state)
{
	static const uint8_t classes[] = { 0, ELFCLASS32, 3, 0xff };

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(classes); i++) {
		struct image_spec s = spec_valid();

		s.class = classes[i];
		expect_reject(&s, "not little-endian ELF64");
	}
}

static void test_reject_big_endian(void **state)
{
	static const uint8_t datas[] = { 0, ELFDATA2MSB, 3 };

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(datas); i++) {
		struct image_spec s = spec_valid();

		s.data = datas[i];
		expect_reject(&s, "not little-endian ELF64");
	}
}

static void test_reject_not_exec(void **state)
{
	static const uint16_t types[] = { 0, ET_REL, ET_DYN, ET_CORE, 0xfe00 };

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(types); i++) {
		struct image_spec s = spec_valid();

		s.type = types[i];
		expect_reject(&s, "not a RISC-V executable");
	}
}

static void test_reject_not_riscv(void **state)
{
	static const uint16_t machines[] = { EM_NONE, EM_386, EM_X86_64, EM_AARCH64,
					     EM_RISCV + 1, 0xffff };

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(machines); i++) {
		struct image_spec s = spec_valid();

		s.machine = machines[i];
		expect_reject(&s, "not a RISC-V executable");
	}
}

static void test_reject_phdrs_outside(void **state)
{
	static const uint16_t entsizes[] = { 0, 32, PHDR_SIZE - 1, PHDR_SIZE + 1, 64 };
	struct image_spec s;

	(void)state;
	/* Starting past the end, or one byte too late to fit. */
	s = spec_valid();
	s.phoff = s.size + 1;
	expect_reject(&s, "program headers outside the file");
	s.phoff = UINT64_MAX;
	expect_reject(&s, "program headers outside the file");
	s = spec_valid();
	s.phoff = s.size - 2 * PHDR_SIZE + 1;
	expect_reject(&s, "program headers outside the file");
	/* One header more than the file holds. */
	s = spec_valid();
	s.phoff = s.size - 2 * PHDR_SIZE;
	s.phnum = 3;
	expect_reject(&s, "program headers outside the file");
	/* phoff + phnum * 56 wraps around to a small number. */
	s = spec_valid();
	s.phoff = UINT64_MAX - PHDR_SIZE + 1;
	s.phnum = 2;
	expect_reject(&s, "program headers outside the file");
	s = spec_valid();
	s.phoff = (uint64_t)0 - 0xffffULL * PHDR_SIZE + EHDR_SIZE;
	s.phnum = 0xffff;
	expect_reject(&s, "program headers outside the file");
	/* The largest count from a valid offset. */
	s = spec_valid();
	s.phnum = 0xffff;
	expect_reject(&s, "program headers outside the file");
	/* A program header size other than ELF64's. */
	for (size_t i = 0; i < ARRAY_LEN(entsizes); i++) {
		s = spec_valid();
		s.phentsize = entsizes[i];
		expect_reject(&s, "program headers outside the file");
	}
}

static void test_reject_filesz_gt_memsz(void **state)
{
	struct image_spec s = spec_valid();

	(void)state;
	s.ph[1].filesz = 0x81;
	s.ph[1].memsz = 0x80;
	expect_reject(&s, "segment file size exceeds its memory size");
	s.ph[1].filesz = UINT64_MAX;
	s.ph[1].memsz = 1;
	expect_reject(&s, "segment file size exceeds its memory size");
}

static void test_reject_data_outside(void **state)
{
	struct image_spec s;

	(void)state;
	/* One byte past the end. */
	s = spec_valid();
	s.ph[1].filesz = s.size - DATA_OFFSET + 1;
	expect_reject(&s, "segment data outside the file");
	/* Starting past the end, even with nothing to read there. */
	s = spec_valid();
	s.ph[1].offset = s.size + PAGE + (DATA_VADDR % PAGE);
	expect_reject(&s, "segment data outside the file");
	s.ph[1].offset = UINT64_MAX - PAGE + 1 + (DATA_VADDR % PAGE);
	expect_reject(&s, "segment data outside the file");
	/* offset + filesz wraps around to a small number. */
	s = spec_valid();
	s.ph[1].filesz = UINT64_MAX - DATA_OFFSET + 0x11;
	s.ph[1].memsz = s.ph[1].filesz;
	expect_reject(&s, "segment data outside the file");
}

static void test_reject_outside_user_space(void **state)
{
	struct image_spec s;

	(void)state;
	/* Starting at or above user_top. */
	s = spec_valid();
	s.ph[1].vaddr = USER_TOP + (DATA_OFFSET % PAGE);
	expect_reject(&s, "segment outside user space");
	s.ph[1].vaddr = USER_TOP;
	s.ph[1].filesz = 0;
	expect_reject(&s, "segment outside user space");
	s.ph[1].vaddr = UINT64_MAX;
	expect_reject(&s, "segment outside user space");
	/* Ending one byte past user_top. */
	s = spec_valid();
	s.ph[1].vaddr = USER_TOP - 2 * PAGE + (DATA_OFFSET % PAGE);
	s.ph[1].memsz = USER_TOP - s.ph[1].vaddr + 1;
	expect_reject(&s, "segment outside user space");
	/* vaddr + memsz wraps around past user_top to a small number. */
	s = spec_valid();
	s.ph[1].memsz = UINT64_MAX - DATA_VADDR + 0x100;
	expect_reject(&s, "segment outside user space");
	s.ph[1].memsz = UINT64_MAX;
	expect_reject(&s, "segment outside user space");
}

static void test_reject_congruence(void **state)
{
	struct image_spec s = spec_valid();

	(void)state;
	s.ph[1].vaddr = DATA_VADDR + 8;
	expect_reject(&s, "segment offset and address disagree modulo the page size");
	s = spec_valid();
	s.ph[0].vaddr = TEXT_VADDR + PAGE / 2;
	s.entry = s.ph[0].vaddr;
	expect_reject(&s, "segment offset and address disagree modulo the page size");
}

static void test_reject_wx(void **state)
{
	static const uint32_t flags[] = { PF_W | PF_X, PF_R | PF_W | PF_X, 0xfffffff7 };

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(flags); i++) {
		struct image_spec s = spec_valid();

		s.ph[0].flags = flags[i];
		expect_reject(&s, "segment both writable and executable");
		s = spec_valid();
		s.ph[1].flags = flags[i];
		expect_reject(&s, "segment both writable and executable");
	}
}

static void test_reject_too_many(void **state)
{
	struct image_spec s = spec_valid();

	(void)state;
	expect_reject_max(&s, 1, "too many loadable segments");
	expect_reject_max(&s, 0, "too many loadable segments");
	/* Many small segments, one per page. */
	s = spec_valid();
	for (int i = 0; s.nph < SPEC_MAX_PH; i++)
		add_ph(&s, PT_LOAD, PF_R, 0, 0x100000 + i * PAGE, 0, 0x10);
	expect_reject_max(&s, SPEC_MAX_PH - 1, "too many loadable segments");
	expect_accept(&s);
}

static void test_reject_shared_page(void **state)
{
	struct image_spec s;

	(void)state;
	/* Data starting in the text's page, after the text's last byte. */
	s = spec_valid();
	s.ph[1].vaddr = TEXT_VADDR + 0xf00;
	s.ph[1].offset = TEXT_OFFSET + 0xf00;
	expect_reject(&s, "loadable segments share a page");
	/* Text in the data's last page, after the bss's last byte, listed first. */
	s = spec_valid();
	s.ph[0].vaddr = ((DATA_VADDR + DATA_MEMSZ) & ~(PAGE - 1)) + 0x200;
	s.ph[0].offset = TEXT_OFFSET + 0x200;
	s.ph[0].memsz = 0x10;
	s.ph[0].filesz = 0x10;
	s.entry = s.ph[0].vaddr;
	expect_reject(&s, "loadable segments share a page");
	/* Identical and nested segments. */
	s = spec_valid();
	s.ph[1] = s.ph[0];
	s.ph[1].flags = PF_R;
	expect_reject(&s, "loadable segments share a page");
	s = spec_valid();
	s.ph[1].vaddr = TEXT_VADDR - 16 * PAGE + (DATA_OFFSET % PAGE);
	s.ph[1].memsz = 32 * PAGE;
	expect_reject(&s, "loadable segments share a page");
	/* Bss-only segments share pages too. */
	s = spec_valid();
	add_ph(&s, PT_LOAD, PF_R | PF_W, 0, 0x40000, 0, 0x801);
	add_ph(&s, PT_LOAD, PF_R | PF_W, 0, 0x40fff, 0, 1);
	expect_reject(&s, "loadable segments share a page");
	/* A third segment against the first, not just its neighbour. */
	s = spec_valid();
	add_ph(&s, PT_LOAD, PF_R, 0, TEXT_VADDR + PAGE - 1, 0, 1);
	expect_reject(&s, "loadable segments share a page");
}

static void test_reject_no_loadable(void **state)
{
	struct image_spec s;

	(void)state;
	s = spec_valid();
	s.nph = 0;
	s.phnum = 0;
	expect_reject(&s, "no loadable segment");
	s.phoff = 0; /* no headers: where they would be does not matter */
	expect_reject(&s, "no loadable segment");
	s = spec_valid();
	s.ph[0].type = PT_NOTE;
	s.ph[1].type = PT_GNU_STACK;
	expect_reject(&s, "no loadable segment");
	s = spec_valid();
	s.ph[0].memsz = s.ph[0].filesz = 0;
	s.ph[1].memsz = s.ph[1].filesz = 0;
	expect_reject(&s, "no loadable segment");
}

static void test_reject_entry_outside_user_space(void **state)
{
	struct image_spec s = spec_valid();

	(void)state;
	s.entry = USER_TOP;
	expect_reject(&s, "entry point outside user space");
	s.entry = UINT64_MAX;
	expect_reject(&s, "entry point outside user space");
}

static void test_reject_entry_not_executable(void **state)
{
	static const uint64_t entries[] = {
		0,
		TEXT_VADDR - 1,		    /* just below the text */
		TEXT_VADDR + TEXT_SIZE,	    /* just past it (still in its page) */
		TEXT_VADDR + PAGE,	    /* in the gap between the segments */
		DATA_VADDR,		    /* in the data */
		DATA_VADDR + DATA_MEMSZ - 1, /* in the bss */
		USER_TOP - 1,
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(entries); i++) {
		struct image_spec s = spec_valid();

		s.entry = entries[i];
		expect_reject(&s, "entry point not in an executable segment");
	}
	/* A readable text without X is not executable. */
	{
		struct image_spec s = spec_valid();

		s.ph[0].flags = PF_R;
		expect_reject(&s, "entry point not in an executable segment");
	}
}

/* --- fuzzing --- */

#define FUZZ_ITERATIONS 20000
#define FUZZ_MAX_FLIPS  4

/* xorshift64: the same sequence on every host, unlike rand(). */
static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static uint64_t rng_below(uint64_t *s, uint64_t n)
{
	return rng_next(s) % n;
}

/* Values worth planting in a 64-bit field: the edges of every check. */
static uint64_t interesting(uint64_t *rng, size_t size)
{
	const uint64_t v[] = {
		0, 1, PAGE - 1, PAGE, size - 1, size, size + 1, 0 - (uint64_t)size,
		USER_TOP - 1, USER_TOP, USER_TOP + 1, TEXT_VADDR, DATA_VADDR,
		UINT64_MAX - PAGE, UINT64_MAX, 1ULL << 63,
	};

	return v[rng_below(rng, ARRAY_LEN(v))];
}

static void fuzz(const char *name, const uint8_t *valid, size_t valid_size, uint64_t seed)
{
	uint64_t rng = seed, phoff = get_le(valid + EH_PHOFF, 8);
	size_t headers_end = phoff + get_le(valid + EH_PHNUM, 2) * PHDR_SIZE;
	int accepted = 0, rejected = 0;

	print_message("fuzz %s: seed %#llx, %d iterations\n", name, (unsigned long long)seed,
		      FUZZ_ITERATIONS);
	assert_true(headers_end <= valid_size);
	for (int it = 0; it < FUZZ_ITERATIONS; it++) {
		size_t size = valid_size;
		uint8_t *img = malloc(size);
		struct elf_segment segs[MAX_SEGS];
		int flips = 1 + (int)rng_below(&rng, FUZZ_MAX_FLIPS), max_segs, n;
		uint64_t entry = 0;
		const char *why = NULL;

		assert_non_null(img);
		memcpy(img, valid, size);
		for (int f = 0; f < flips; f++) {
			/* Mostly the headers, where the checks are; sometimes anywhere. */
			size_t span = rng_below(&rng, 8) ? headers_end : size;
			size_t at = rng_below(&rng, span);

			switch (rng_below(&rng, 4)) {
			case 0:
				img[at] ^= (uint8_t)(1 << rng_below(&rng, 8));
				break;
			case 1:
				img[at] = (uint8_t)rng_next(&rng);
				break;
			default:
				at &= ~(size_t)7;
				if (at + 8 <= size)
					put_le(img + at, 8, interesting(&rng, size));
				break;
			}
		}
		if (rng_below(&rng, 16) == 0) {
			/* Truncated, into a buffer of the new size so ASan sees over-reads. */
			uint8_t *cut;

			size = rng_below(&rng, size + 1);
			cut = malloc(size ? size : 1);
			assert_non_null(cut);
			memcpy(cut, img, size);
			free(img);
			img = cut;
		}
		max_segs = 1 + (int)rng_below(&rng, MAX_SEGS);
		n = elf_parse(img, size, USER_TOP, segs, max_segs, &entry, &why);
		if (n >= 0) {
			check_guarantees(img, size, USER_TOP, segs, n, max_segs, entry);
			accepted++;
		} else {
			size_t k = 0;

			assert_int_equal(n, -1);
			assert_non_null(why);
			while (k < ARRAY_LEN(known_whys) && strcmp(why, known_whys[k]))
				k++;
			if (k == ARRAY_LEN(known_whys))
				fail_msg("unknown rejection \"%s\"", why);
			rejected++;
		}
		free(img);
	}
	print_message("fuzz %s: %d accepted, %d rejected\n", name, accepted, rejected);
	assert_true(accepted > 0 && rejected > 0);
}

static void test_fuzz_synthetic(void **state)
{
	struct image_spec s = spec_valid();
	uint8_t *img;

	(void)state;
	add_ph(&s, PT_NOTE, PF_R, DATA_OFFSET, 0, 0x10, 0x10);
	add_ph(&s, PT_LOAD, PF_R, TEXT_OFFSET, 0x30000, 0x20, 0x1800);
	img = build(&s);
	fuzz("synthetic", img, s.size, 0x7ac37e1f5eedULL);
	free(img);
}

static void test_fuzz_real(void **state)
{
	struct file f = read_file(prog_elf, "run make host-tests");

	(void)state;
	fuzz(prog_elf, f.data, f.size, 0x5eed0fe1f64ULL);
	free(f.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_executable),
		cmocka_unit_test(test_valid_image),
		cmocka_unit_test(test_accept_boundaries),
		cmocka_unit_test(test_memsz_zero_ignored),
		cmocka_unit_test(test_non_load_skipped),
		cmocka_unit_test(test_reject_too_short),
		cmocka_unit_test(test_reject_bad_magic),
		cmocka_unit_test(test_reject_32bit),
		cmocka_unit_test(test_reject_big_endian),
		cmocka_unit_test(test_reject_not_exec),
		cmocka_unit_test(test_reject_not_riscv),
		cmocka_unit_test(test_reject_phdrs_outside),
		cmocka_unit_test(test_reject_filesz_gt_memsz),
		cmocka_unit_test(test_reject_data_outside),
		cmocka_unit_test(test_reject_outside_user_space),
		cmocka_unit_test(test_reject_congruence),
		cmocka_unit_test(test_reject_wx),
		cmocka_unit_test(test_reject_too_many),
		cmocka_unit_test(test_reject_shared_page),
		cmocka_unit_test(test_reject_no_loadable),
		cmocka_unit_test(test_reject_entry_outside_user_space),
		cmocka_unit_test(test_reject_entry_not_executable),
		cmocka_unit_test(test_fuzz_synthetic),
		cmocka_unit_test(test_fuzz_real),
	};

	return cmocka_run_group_tests_name("elf", tests, NULL, NULL);
}
