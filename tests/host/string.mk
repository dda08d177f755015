# Host unit tests of user space's memcpy/memmove/memset (lib/string.c), renamed so that they do
# not replace the host C library's own.
HOST_TESTS += string
HOST_SRCS_string := lib/string.c

$(BUILD)/host/test_string: HOST_CFLAGS += -fno-builtin -Dmemset=umemset -Dmemcpy=umemcpy \
	-Dmemmove=umemmove
