/* console_proto.h: the console server's IPC protocol (servers/uart publishes it as "console").
 *
 *   CONSOLE_WRITE (4 words): up to CONSOLE_WRITE_MAX bytes of text packed in w0..w3, NUL-padded
 *       (so a NUL byte cannot be sent). Reply w0: bytes written, or a negative TACET_E* code.
 *       The text is queued: it reaches the UART after the reply.
 *   CONSOLE_SYNC (no words): the reply (w0: 0) comes once everything queued before has gone
 *       out to the UART, so that what the caller, or anyone it tells, prints after the reply
 *       straight to the kernel's debug output comes after it, not cut into it.
 */
#ifndef TACET_CONSOLE_PROTO_H
#define TACET_CONSOLE_PROTO_H

#define CONSOLE_WRITE 0x10
#define CONSOLE_SYNC  0x11
#define CONSOLE_WRITE_MAX 32 /* 4 words of 8 bytes */

#endif
