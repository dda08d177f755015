# blk_seal: lib/blk_seal.c, sealed sectors: CRC-32C's check value, every bit flip of a sealed
# sector found, a sector of another number, an older generation, a sector never sealed.
HOST_TESTS += blk_seal
HOST_SRCS_blk_seal := lib/blk_seal.c
HOST_CFLAGS_blk_seal := -Ilib/include
HOST_DEPS_blk_seal := lib/include/tacet/blk_seal.h
