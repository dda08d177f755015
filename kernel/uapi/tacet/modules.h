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

#endif
