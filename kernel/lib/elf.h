/* elf.h: a bounds-checked reader of ELF64 executables (the servers in the boot module archive):
 * their loadable segments, and a section by name. Pure functions; any context. */
#ifndef KERNEL_ELF_H
#define KERNEL_ELF_H

#include <stddef.h>
#include <stdint.h>

#define ELF_SEG_R 4 /* p_flags bits, as in the ELF specification */
#define ELF_SEG_W 2
#define ELF_SEG_X 1

struct elf_segment {
	uint64_t vaddr;
	uint64_t memsz;
	uint64_t offset; /* of the file data in the image */
	uint64_t filesz;
	uint32_t flags;  /* ELF_SEG_* */
};

/* Check image: a little-endian ELF64 RISC-V executable whose loadable segments lie inside the
 * image and below user_top, do not overlap, are not writable and executable at once, and number
 * at most max_segs, and whose entry point lies in an executable one. Fills segs[] and *entry;
 * returns the segment count or -1 with *why set. */
int elf_parse(const void *image, size_t size, uint64_t user_top, struct elf_segment *segs,
	      int max_segs, uint64_t *entry, const char **why);

/* The section called `name` in image (size bytes; any ELF64 file, checked as far as this reads
 * it): 1 with its data's offset in the image and its length (both inside the image; 0 bytes
 * for a section without file data), 0 if no section has that name, -1 with *why set if the
 * section headers or their names lie outside the image. For what a server declares to init in
 * a section of its image (a device's quiesce descriptions). */
int elf_section(const void *image, size_t size, const char *name, uint64_t *offset,
		uint64_t *len, const char **why);

#endif
