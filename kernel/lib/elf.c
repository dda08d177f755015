/* elf.c: ELF64 executable checking (see elf.h); reads only inside the image. */
#include "elf.h" /* same-folder names: init builds this file too */
#include "kstring.h"

#define EI_NIDENT 16
#define ELFCLASS64 2
#define ELFDATA2LSB 1
#define ET_EXEC 2
#define EM_RISCV 243
#define PT_LOAD 1
#define PAGE 4096

struct elf64_ehdr {
	unsigned char e_ident[EI_NIDENT];
	uint16_t e_type, e_machine;
	uint32_t e_version;
	uint64_t e_entry, e_phoff, e_shoff;
	uint32_t e_flags;
	uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
};

struct elf64_phdr {
	uint32_t p_type, p_flags;
	uint64_t p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
};

struct elf64_shdr {
	uint32_t sh_name, sh_type;
	uint64_t sh_flags, sh_addr, sh_offset, sh_size;
	uint32_t sh_link, sh_info;
	uint64_t sh_addralign, sh_entsize;
};

#define SHT_NOBITS 8

static int fail(const char **why, const char *msg)
{
	*why = msg;
	return -1;
}

static int check_segment(const struct elf64_phdr *ph, size_t size, uint64_t user_top,
			 const char **why)
{
	if (ph->p_filesz > ph->p_memsz)
		return fail(why, "segment file size exceeds its memory size");
	if (ph->p_offset > size || ph->p_filesz > size - ph->p_offset)
		return fail(why, "segment data outside the file");
	if (ph->p_vaddr >= user_top || ph->p_memsz > user_top - ph->p_vaddr)
		return fail(why, "segment outside user space");
	if (ph->p_vaddr % PAGE != ph->p_offset % PAGE && ph->p_filesz)
		return fail(why, "segment offset and address disagree modulo the page size");
	if ((ph->p_flags & ELF_SEG_W) && (ph->p_flags & ELF_SEG_X))
		return fail(why, "segment both writable and executable");
	return 0;
}

static int overlaps(const struct elf_segment *a, const struct elf_segment *b)
{
	uint64_t a0 = a->vaddr & ~(uint64_t)(PAGE - 1), a1 = a->vaddr + a->memsz;
	uint64_t b0 = b->vaddr & ~(uint64_t)(PAGE - 1), b1 = b->vaddr + b->memsz;

	return a0 < b1 && b0 < a1;
}

/* Whether va lies inside one of the n segments that are executable. */
static int in_exec_segment(const struct elf_segment *segs, int n, uint64_t va)
{
	for (int i = 0; i < n; i++)
		if ((segs[i].flags & ELF_SEG_X) && va >= segs[i].vaddr &&
		    va - segs[i].vaddr < segs[i].memsz)
			return 1;
	return 0;
}

int elf_parse(const void *image, size_t size, uint64_t user_top, struct elf_segment *segs,
	      int max_segs, uint64_t *entry, const char **why)
{
	struct elf64_ehdr eh;
	int n = 0;

	if (size < sizeof(eh))
		return fail(why, "shorter than an ELF header");
	memcpy(&eh, image, sizeof(eh));
	if (memcmp(eh.e_ident, "\177ELF", 4))
		return fail(why, "not an ELF file");
	if (eh.e_ident[4] != ELFCLASS64 || eh.e_ident[5] != ELFDATA2LSB)
		return fail(why, "not little-endian ELF64");
	if (eh.e_type != ET_EXEC || eh.e_machine != EM_RISCV)
		return fail(why, "not a RISC-V executable");
	if (eh.e_phentsize != sizeof(struct elf64_phdr) || eh.e_phoff > size ||
	    (uint64_t)eh.e_phnum * sizeof(struct elf64_phdr) > size - eh.e_phoff)
		return fail(why, "program headers outside the file");
	for (int i = 0; i < eh.e_phnum; i++) {
		struct elf64_phdr ph;

		memcpy(&ph, (const char *)image + eh.e_phoff + (uint64_t)i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
			continue;
		if (check_segment(&ph, size, user_top, why) < 0)
			return -1;
		if (n == max_segs)
			return fail(why, "too many loadable segments");
		segs[n] = (struct elf_segment){ ph.p_vaddr, ph.p_memsz, ph.p_offset, ph.p_filesz,
						ph.p_flags };
		for (int j = 0; j < n; j++)
			if (overlaps(&segs[j], &segs[n]))
				return fail(why, "loadable segments share a page");
		n++;
	}
	if (n == 0)
		return fail(why, "no loadable segment");
	if (eh.e_entry >= user_top)
		return fail(why, "entry point outside user space");
	if (!in_exec_segment(segs, n, eh.e_entry))
		return fail(why, "entry point not in an executable segment");
	*entry = eh.e_entry;
	return n;
}

/* Section header i, which the caller has checked lies inside the image. */
static struct elf64_shdr section_header(const void *image, const struct elf64_ehdr *eh,
					unsigned int i)
{
	struct elf64_shdr sh;

	memcpy(&sh, (const char *)image + eh->e_shoff + (uint64_t)i * sizeof(sh), sizeof(sh));
	return sh;
}

/* Does sh's name, at sh_name in the names section (strtab, strsize bytes), equal name? */
static int section_named(const struct elf64_shdr *sh, const char *strtab, uint64_t strsize,
			 const char *name)
{
	uint64_t n = strlen(name) + 1;

	return sh->sh_name < strsize && n <= strsize - sh->sh_name &&
	       !memcmp(strtab + sh->sh_name, name, n);
}

int elf_section(const void *image, size_t size, const char *name, uint64_t *offset,
		uint64_t *len, const char **why)
{
	struct elf64_ehdr eh;
	struct elf64_shdr names, sh;

	if (size < sizeof(eh))
		return fail(why, "shorter than an ELF header");
	memcpy(&eh, image, sizeof(eh));
	if (eh.e_shoff == 0 || eh.e_shnum == 0)
		return 0; /* no section headers: no sections */
	if (eh.e_shentsize != sizeof(sh) || eh.e_shoff > size ||
	    (uint64_t)eh.e_shnum * sizeof(sh) > size - eh.e_shoff)
		return fail(why, "section headers outside the file");
	if (eh.e_shstrndx >= eh.e_shnum)
		return fail(why, "no section names");
	names = section_header(image, &eh, eh.e_shstrndx);
	if (names.sh_type == SHT_NOBITS || names.sh_offset > size ||
	    names.sh_size > size - names.sh_offset)
		return fail(why, "section names outside the file");
	for (unsigned int i = 0; i < eh.e_shnum; i++) {
		sh = section_header(image, &eh, i);
		if (!section_named(&sh, (const char *)image + names.sh_offset, names.sh_size, name))
			continue;
		if (sh.sh_type == SHT_NOBITS) /* no file data */
			sh.sh_offset = sh.sh_size = 0;
		if (sh.sh_offset > size || sh.sh_size > size - sh.sh_offset)
			return fail(why, "section data outside the file");
		*offset = sh.sh_offset;
		*len = sh.sh_size;
		return 1;
	}
	return 0;
}
