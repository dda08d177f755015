/* tacet/sink.h: where text goes, for lib's renderers (<tacet/metrics.h>, <tacet/http.h>): a
 * write callback, or a caller's buffer (lib/sink.c). Portable C, no system call, no allocation;
 * a sink is its owner's (not thread-safe). */
#ifndef TACET_SINK_H
#define TACET_SINK_H

#include <stdbool.h>
#include <stddef.h>

/* write(ctx, text, len): text not NUL-terminated; called many times for one rendering. */
struct tacet_sink {
	void (*write)(void *ctx, const char *text, size_t len);
	void *ctx;
};

/* A caller's buffer as a sink: the text as far as it fits, NUL-terminated (size > 0), and its
 * whole length (len: size or more means it was cut). */
struct tacet_buf {
	char *buf;
	size_t size, len;
};
struct tacet_sink tacet_buf_sink(struct tacet_buf *b, char *buf, size_t size);
static inline bool tacet_buf_cut(const struct tacet_buf *b)
{
	return b->len >= b->size;
}

/* printf onto a sink, a piece of at most 255 bytes (a longer one is cut). */
void tacet_sink_printf(const struct tacet_sink *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* len bytes of text onto a sink, as they are. */
static inline void tacet_sink_write(const struct tacet_sink *out, const char *text, size_t len)
{
	out->write(out->ctx, text, len);
}

#endif
