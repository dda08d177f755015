# Host unit tests of the kernel's memset/memcpy/memcmp and string functions (kernel/lib/kstring.c),
# renamed so that they do not replace the host C library's own.
HOST_TESTS += kstring
HOST_SRCS_kstring := kernel/lib/kstring.c
HOST_DEPS_kstring := kernel/lib/kstring.h

$(BUILD)/host/test_kstring: HOST_CFLAGS += -fno-builtin -Dmemset=kmemset -Dmemcpy=kmemcpy \
	-Dmemcmp=kmemcmp -Dstrlen=kstrlen -Dstrcmp=kstrcmp -Dstrncmp=kstrncmp
