/* elf.c: init checks executables with the kernel's own bounds-checked ELF reader. */
#include "../../kernel/lib/elf.c"
