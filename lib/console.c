/* console.c: stdout through the console server (<tacet/console_proto.h>) instead of the
 * kernel's debug output, once tacet_console_attach() found it. */
#include <string.h>
#include <tacet.h>
#include <tacet/console_proto.h>
#include <tacet/init_proto.h>

static long console_ipc_write(const void *buf, unsigned long len)
{
	const char *s = buf;
	unsigned long done = 0;

	while (done < len) {
		struct tacet_msg msg = { .tag = TACET_TAG(CONSOLE_WRITE, 4) };
		unsigned long n = len - done < CONSOLE_WRITE_MAX ? len - done : CONSOLE_WRITE_MAX;
		long err;

		memcpy(msg.w, s + done, n);
		err = tacet_call(TACET_CHILD_CONSOLE, &msg);
		if (err < 0)
			return done ? (long)done : err;
		if ((long)msg.w[0] < 0)
			return done ? (long)done : (long)msg.w[0];
		done += n;
	}
	return (long)len;
}

long tacet_console_attach(unsigned int tries)
{
	long err = tacet_lookup("console", TACET_CHILD_CONSOLE, tries);

	if (err == 0)
		tacet_console_write = console_ipc_write;
	return err;
}
