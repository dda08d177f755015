# lib.mk: the user-space build (included by the Makefile): libtacet.a, crt0.o, and the generic
# rule that links a server, $(BUILD)/servers/NAME.elf, from the sources servers/servers.mk
# lists in SERVER_SRCS_NAME.
#
# picolibc comes through its gcc specs. Its libraries exist only for the multilibs gcc was
# built with: rv64gc with lp64 has none (gcc would fall back to the lp64d one, which does not
# link). User space is therefore rv64imac/lp64. (The FPU is not the reason: the kernel gives a
# thread the FPU at its first floating-point instruction and from then on saves and restores
# its registers lazily, by sstatus.FS: kernel/arch/riscv/context.c.)

USER_CC := $(CROSS)gcc
USER_AR := $(CROSS)ar
USER_ARCH := -march=rv64imac -mabi=lp64 -mcmodel=medany
USER_CFLAGS := --specs=picolibc.specs $(USER_ARCH) -O2 -g -fno-omit-frame-pointer \
	-Wall -Wextra -Werror -std=gnu11 -Ikernel/uapi -Ilib/include -MMD -MP
USER_LDSCRIPT := lib/user.ld
USER_LDFLAGS := --specs=picolibc.specs $(USER_ARCH) -nostartfiles -static -T $(USER_LDSCRIPT)

USER_CRT0 := $(BUILD)/lib/crt0.o
LIBTACET := $(BUILD)/lib/libtacet.a
# memcpy, memmove, memset by words, in place of picolibc's byte loops
LIBTACET_SRCS := lib/string.c lib/stdio.c lib/exit.c lib/heap.S lib/strerror.c lib/names.c lib/console.c lib/pci.c
LIBTACET_SRCS += lib/slot.c lib/va.c lib/dma.c lib/device.c lib/device_bus.c lib/compatible.c
LIBTACET_SRCS += lib/time.c
LIBTACET_SRCS += lib/service.c lib/session.c lib/rtc.c lib/thread.c
# quiesce descriptions: the interpreter, and its MMIO side (<tacet/quiesce.h>)
LIBTACET_SRCS += lib/quiesce.c lib/quiesce_mmio.c
# virtio devices (docs/virtio.md): the generic sequence, its two transports (virtio-mmio and
# virtio-pci with its capability walk), the probe that picks one, split virtqueues
LIBTACET_SRCS += lib/virtio.c lib/virtio_mmio.c lib/virtio_pci.c lib/virtio_pci_caps.c
LIBTACET_SRCS += lib/virtio_probe.c lib/virtio_queue.c lib/virtio_id.c
# the entropy service's client (servers/rng)
LIBTACET_SRCS += lib/random.c
# the block service's client (servers/blk), its sealed sectors (<tacet/blk_seal.h>)
LIBTACET_SRCS += lib/blk.c lib/blk_seal.c
# the interrupt and hart figures as text: the shell's tables, Prometheus (<tacet/metrics.h>)
LIBTACET_SRCS += lib/metrics.c lib/metrics_kernel.c lib/clock.c lib/sink.c
# an HTTP/1.0 request parser and responder, no network code (<tacet/http.h>)
LIBTACET_SRCS += lib/http.c
# shared-memory rings between two servers (docs/userspace.md, "Rings")
LIBTACET_SRCS += lib/ring.c
# the network device service's client (servers/net, docs/net.md)
LIBTACET_SRCS += lib/netdev.c
# the IP stack's clients (servers/ip): ping and info; sockets
LIBTACET_SRCS += lib/ip.c lib/net.c
LIBTACET_OBJS := $(patsubst lib/%,$(BUILD)/lib/%.o,$(basename $(LIBTACET_SRCS)))

# Each protocol's description, lib/proto/NAME.proto, yields its client stubs and its server's
# decode and dispatch: $(BUILD)/gen/include/tacet/NAME_client.h and NAME_server.h
# (tools/genproto.py). Every user object waits for them (its .d names those it includes).
PROTOS := $(patsubst lib/proto/%.proto,%,$(wildcard lib/proto/*.proto))
PROTO_HEADERS := $(foreach p,$(PROTOS),$(BUILD)/gen/include/tacet/$(p)_client.h \
	$(BUILD)/gen/include/tacet/$(p)_server.h)
USER_CFLAGS += -I$(BUILD)/gen/include

$(BUILD)/gen/include/tacet/%_client.h $(BUILD)/gen/include/tacet/%_server.h: lib/proto/%.proto \
		tools/genproto.py
	@mkdir -p $(@D)
	python3 tools/genproto.py $< $(BUILD)/gen/include

# servers/NAME/x.c -> $(BUILD)/servers/NAME/x.o; a kernel source a server builds too
# (kernel/lib/elf.c for init, servers/servers.mk) -> $(BUILD)/user/kernel/lib/elf.o, apart
# from the kernel's own object of it.
user_objs = $(patsubst $(BUILD)/kernel/%,$(BUILD)/user/kernel/%,\
	$(patsubst %,$(BUILD)/%.o,$(basename $(1))))

$(LIBTACET_OBJS) $(call user_objs,$(wildcard servers/*/*.c)): | $(PROTO_HEADERS)

$(BUILD)/lib/%.o: lib/%.c
	@mkdir -p $(@D)
	$(USER_CC) $(USER_CFLAGS) -c -o $@ $<

$(BUILD)/lib/%.o: lib/%.S
	@mkdir -p $(@D)
	$(USER_CC) $(USER_CFLAGS) -c -o $@ $<

$(LIBTACET): $(LIBTACET_OBJS)
	@rm -f $@
	$(USER_AR) rcs $@ $^

$(BUILD)/servers/%.o: servers/%.c
	@mkdir -p $(@D)
	$(USER_CC) $(USER_CFLAGS) -c -o $@ $<

$(BUILD)/servers/%.o: servers/%.S
	@mkdir -p $(@D)
	$(USER_CC) $(USER_CFLAGS) -c -o $@ $<

$(BUILD)/user/kernel/%.o: kernel/%.c
	@mkdir -p $(@D)
	$(USER_CC) $(USER_CFLAGS) -c -o $@ $<

# libtacet.a and picolibc's libc.a in one group, since each needs the other: libc wants the
# hooks (stdout for printf, _exit for exit, __heap_start for sbrk), strerror.o wants snprintf.
# picolibc's specs add libgcc and --gc-sections.
.SECONDEXPANSION:
# SERVER_LIBS_NAME: libraries a server links besides lib's (servers/ip: lwIP's).
$(BUILD)/servers/%.elf: $$(call user_objs,$$(SERVER_SRCS_$$*)) $(USER_CRT0) $(LIBTACET) \
		$$(SERVER_LIBS_$$*) $(USER_LDSCRIPT)
	$(USER_CC) $(USER_LDFLAGS) -o $@ $(USER_CRT0) $(call user_objs,$(SERVER_SRCS_$*)) \
		-Wl,--start-group $(SERVER_LIBS_$*) $(LIBTACET) -lc -Wl,--end-group

# The servers' objects come from the pattern rules above: without this make would delete them
# as intermediates after each link.
.SECONDARY: $(USER_CRT0) $(call user_objs,$(wildcard servers/*/*.c servers/*/*.S))

-include $(wildcard $(BUILD)/lib/*.d $(BUILD)/servers/*/*.d $(BUILD)/user/kernel/*/*.d)

# The archive's format lives in tools/tacet_modules.py, beside the Makefile's mkmodules.py.
$(BUILD)/modules.img: tools/tacet_modules.py
