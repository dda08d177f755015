/* strerror.c: tacet_strerror(), the text of each TACET_E* code of <tacet/abi.h>. */
#include <limits.h>
#include <stdio.h>
#include <tacet.h>

static const char *const tacet_errors[TACET_ERRNO_COUNT] = {
	[TACET_OK] = "success",
	[TACET_EINVAL] = "invalid argument",
	[TACET_ENOSYS] = "no such system call",
	[TACET_EBADSLOT] = "slot outside the capability table",
	[TACET_EEMPTY] = "empty capability slot",
	[TACET_ETYPE] = "wrong capability type",
	[TACET_EPERM] = "capability lacks a needed right",
	[TACET_EFAULT] = "bad user address",
	[TACET_EALIGN] = "misaligned address",
	[TACET_ENOMEM] = "out of memory (budget)",
	[TACET_EEXIST] = "slot or address already in use",
	[TACET_ENOREPLY] = "server received again without replying",
	[TACET_EDEAD] = "the other side is gone",
	[TACET_ERANGE] = "length or count too large",
	[TACET_ENOENT] = "no such entry",
	[TACET_EBUSY] = "object busy",
	[TACET_EDISABLED] = "interrupt line disabled by the kernel",
	[TACET_ENODEV] = "no such device on this machine",
	[TACET_ECORRUPT] = "data failed its check (not what was written)",
};

/* "unknown error " and a long in decimal. */
#define UNKNOWN_ERROR_LEN 40

const char *tacet_strerror(long err)
{
	static char unknown[UNKNOWN_ERROR_LEN];
	/* -LONG_MIN overflows; that code is unknown either way. */
	long code = err < 0 && err != LONG_MIN ? -err : err;

	if (code >= 0 && code < TACET_ERRNO_COUNT && tacet_errors[code])
		return tacet_errors[code];
	snprintf(unknown, sizeof(unknown), "unknown error %ld", err);
	return unknown;
}
