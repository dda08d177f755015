/* console.c: stdout through the console server (<tacet/console_proto.h>, the stubs generated
 * from lib/proto/console.proto) instead of the kernel's debug output, once
 * tacet_console_attach() found it. When the console server ends
 * (a call says TACET_EDEAD), it waits for init to restart it and goes on with the new one; a
 * piece of text the old one had taken but not yet sent is lost with it. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/console_client.h>
#include <tacet/init_proto.h>

#define CONSOLE_RECONNECT_TRIES 5000 /* 1 ms apart: how long a restart may take */

static unsigned long instance; /* the console server's instance TACET_CHILD_CONSOLE reaches */

static long console_ipc_write(const void *buf, unsigned long len)
{
	const char *s = buf;
	unsigned long done = 0;

	while (done < len) {
		uint64_t w[4] = { 0 }; /* NUL-padded */
		unsigned long n = len - done < CONSOLE_WRITE_MAX ? len - done : CONSOLE_WRITE_MAX;
		long r;

		memcpy(w, s + done, n);
		r = console_call_write(TACET_CHILD_CONSOLE, w[0], w[1], w[2], w[3]);
		if (r == -TACET_EDEAD && tacet_reconnect_next("console", TACET_CHILD_CONSOLE,
							      CONSOLE_RECONNECT_TRIES, &instance) == 0)
			continue; /* the console was restarted: write this piece again */
		if (r < 0)
			return done ? (long)done : r;
		done += n;
	}
	return (long)len;
}

long tacet_console_sync(void)
{
	fflush(stdout);
	if (tacet_console_write != console_ipc_write)
		return 0;
	return console_call_sync(TACET_CHILD_CONSOLE);
}

long tacet_console_attach(unsigned int tries)
{
	long err = tacet_lookup_instance("console", TACET_CHILD_CONSOLE, tries, &instance);

	if (err == 0)
		tacet_console_write = console_ipc_write;
	return err;
}
