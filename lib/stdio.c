/* stdio.c: picolibc's standard streams for a server. stdout and stderr share one line buffer,
 * drained through tacet_console_write; stdin is empty. Owns that buffer and the sink pointer.
 *
 * One buffer for both output streams keeps their text in the order it was written, as a
 * terminal would show it. Not thread-safe: servers with several printing threads need a lock
 * here first.
 */
#include <stdio.h>
#include <tacet.h>

/* The longest run of output held back: a line, or this much of a longer one. */
#define CONSOLE_LINE_MAX 256

long (*tacet_console_write)(const void *buf, unsigned long len) = tacet_debug_write;

static struct {
	char buf[CONSOLE_LINE_MAX];
	unsigned int len;
} console_line;

/* Hands the buffered bytes to the sink; on failure they are dropped, so that one refused write
 * does not wedge every later line behind it. */
static int console_flush(FILE *stream)
{
	const char *p = console_line.buf;
	unsigned long left = console_line.len;

	(void)stream;
	console_line.len = 0;
	while (left) {
		long n = tacet_console_write(p, left);

		/* 0 bytes taken would loop forever: the sink is broken. */
		if (n <= 0 || (unsigned long)n > left)
			return _FDEV_ERR;
		p += n;
		left -= (unsigned long)n;
	}
	return 0;
}

static int console_put(char c, FILE *stream)
{
	console_line.buf[console_line.len++] = c;
	if (c == '\n' || console_line.len == sizeof(console_line.buf))
		return console_flush(stream);
	return 0;
}

static int console_get(FILE *stream)
{
	(void)stream;
	return _FDEV_EOF;
}

static FILE console_out = FDEV_SETUP_STREAM(console_put, NULL, console_flush, _FDEV_SETUP_WRITE);
static FILE console_in = FDEV_SETUP_STREAM(NULL, console_get, NULL, _FDEV_SETUP_READ);

FILE *const stdin = &console_in;
FILE *const stdout = &console_out;
FILE *const stderr = &console_out;

/* exit() runs destructors after the atexit handlers: a last line without '\n', or one printed
 * by a handler, still reaches the console. */
static void __attribute__((destructor)) console_exit(void)
{
	console_flush(&console_out);
}
