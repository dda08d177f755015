# imsic_id.mk: host tests of an IMSIC file's identity table (kernel/arch/riscv/imsic_id.c), the
# one portable part of the AIA's controller.
HOST_TESTS += imsic_id
HOST_SRCS_imsic_id := kernel/arch/riscv/imsic_id.c
HOST_CFLAGS_imsic_id := -Ikernel/arch/riscv
