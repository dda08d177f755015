# modules.mk: host test of the boot module archive: an archive tools/mkmodules.py packs at build
# time from files of awkward sizes, checked byte for byte against kernel/uapi/tacet/modules.h.
HOST_TESTS += modules

MODULES_TEST_DIR := $(BUILD)/host/modules
# NAME=SIZE: sizes around the page boundary, an empty file, a name without ".elf", and the
# longest name the format holds (47 bytes). tests/host/test_modules.c expects this list.
MODULES_TEST_LONG := module-name-of-forty-seven-bytes-the-format-max
MODULES_TEST_INPUTS := init.elf=1 console.elf=4096 blk=4097 empty.elf=0 \
	$(MODULES_TEST_LONG).elf=12345
HOST_DEPS_modules := $(MODULES_TEST_DIR)/test.img

# File contents: never 0 (so stray padding shows), different in every file and at every offset.
MODULES_TEST_PATTERN := import sys; n = int(sys.argv[1]); \
	sys.stdout.buffer.write(bytes((7 * i + n) % 251 + 1 for i in range(n)))

$(MODULES_TEST_DIR)/test.img: tools/mkmodules.py tools/tacet_modules.py tests/host/modules.mk
	rm -rf $(MODULES_TEST_DIR)/in
	mkdir -p $(MODULES_TEST_DIR)/in
	for input in $(MODULES_TEST_INPUTS); do \
		python3 -c '$(MODULES_TEST_PATTERN)' $${input#*=} \
			> $(MODULES_TEST_DIR)/in/$${input%=*} || exit 1; \
	done
	python3 tools/mkmodules.py $@ $(foreach input,$(MODULES_TEST_INPUTS), \
		$(MODULES_TEST_DIR)/in/$(firstword $(subst =, ,$(input))))
