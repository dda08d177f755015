/* sink.c: text sinks for lib's renderers (<tacet/sink.h>): a caller's buffer, and printf onto
 * any sink. No state but the caller's; portable C (host-tested with its users). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <tacet/sink.h>

static void buf_write(void *ctx, const char *text, size_t len)
{
	struct tacet_buf *b = ctx;
	size_t room = b->len < b->size ? b->size - 1 - b->len : 0;
	size_t n = len < room ? len : room;

	memcpy(b->buf + b->len, text, n);
	if (n)
		b->buf[b->len + n] = '\0';
	b->len += len;
}

struct tacet_sink tacet_buf_sink(struct tacet_buf *b, char *buf, size_t size)
{
	b->buf = buf;
	b->size = size;
	b->len = 0;
	buf[0] = '\0';
	return (struct tacet_sink){ .write = buf_write, .ctx = b };
}

void tacet_sink_printf(const struct tacet_sink *out, const char *fmt, ...)
{
	char text[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (n > 0)
		out->write(out->ctx, text, (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1);
}
