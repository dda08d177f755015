/* modules.h: the boot module archive (build/modules.img, passed with QEMU -initrd) that holds
 * the server ELF files. Little-endian; built by tools/mkmodules.py; read by the kernel (init)
 * and by init (the others). Every file starts on a 4 KiB boundary.
 *
 *   struct tacet_modules_header | count x struct tacet_module | padding | files...
 */
#ifndef TACET_MODULES_H
#define TACET_MODULES_H

#include <stdint.h>

#define TACET_MODULES_MAGIC "TACETMOD"
#define TACET_MODULES_VERSION 1
#define TACET_MODULE_NAME_MAX 48

struct tacet_modules_header {
	char magic[8];
	uint32_t version;
	uint32_t count;
};

struct tacet_module {
	char name[TACET_MODULE_NAME_MAX]; /* NUL-terminated, e.g. "init" */
	uint64_t offset;                  /* from the start of the archive */
	uint64_t size;
};

/* The module called name in an archive of size bytes, or NULL (also for a malformed archive or
 * an entry outside it). Freestanding: used by the kernel (init's module) and by init. */
static inline const struct tacet_module *tacet_module_find(const void *archive, uint64_t size,
							   const char *name)
{
	const struct tacet_modules_header *h = (const struct tacet_modules_header *)archive;
	const struct tacet_module *m = (const struct tacet_module *)(h + 1);

	if (size < sizeof(*h) || h->version != TACET_MODULES_VERSION ||
	    h->count > (size - sizeof(*h)) / sizeof(*m))
		return 0;
	for (unsigned int i = 0; i < sizeof(h->magic); i++)
		if (h->magic[i] != TACET_MODULES_MAGIC[i])
			return 0;
	for (uint32_t i = 0; i < h->count; i++) {
		unsigned int k = 0;

		while (k < TACET_MODULE_NAME_MAX && m[i].name[k] == name[k] && name[k])
			k++;
		if ((k == TACET_MODULE_NAME_MAX || m[i].name[k] == name[k]) &&
		    m[i].offset <= size && m[i].size <= size - m[i].offset)
			return &m[i];
	}
	return 0;
}

#endif
