/* hart_split.h: the markers a benchmark server places around what it measures, for
 * tools/qemu-plugins/hart_split.c (a QEMU plugin that counts each hart's user, kernel and
 * firmware instructions between them). Each is one instruction that does nothing,
 * `slti x0, x0, N`; a boot without the plugin runs it as a no-op. */
#ifndef HART_SPLIT_H
#define HART_SPLIT_H

#define HART_SPLIT_START 0x4c0 /* a measured stretch starts (every hart's counts from here) */
#define HART_SPLIT_END   0x4c1 /* it ends: the plugin records each hart's counts since START */

#ifndef HART_SPLIT_PLUGIN
#define hart_split_mark(n) __asm__ volatile("slti x0, x0, %0" : : "i"(n) : "memory")
#endif

#endif
