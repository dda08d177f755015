#!/usr/bin/env python3
"""badmodules.py GOOD.img OUTDIR: write the bad boot module archives the QEMU tests boot with,
made from the real one (build/modules.img). With any of them the kernel cannot start init: it
must say why and power off with a failure status, not idle for ever.
  bad-magic.img       the header's magic is not TACETMOD
  no-init.img         a well-formed archive of every server but init
  init-not-elf.img    init's file does not start with the ELF magic
  init-truncated.img  init cut to its first page: its segments lie outside the file
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import tacet_modules  # noqa: E402


def modules_of(image):
    """The archive's modules as (name bytes, contents) in table order, for repacking."""
    return [(name.encode(), image[offset:offset + size])
            for name, offset, size in tacet_modules.unpack(image)]


def bad_magic(image):
    return b"NOTTACET" + image[len(tacet_modules.MAGIC):]


def no_init(image):
    return tacet_modules.pack([m for m in modules_of(image) if m[0] != b"init"])


def with_init(image, change):
    """The archive again, with init's contents passed through change."""
    modules = modules_of(image)
    if not any(name == b"init" for name, _ in modules):
        raise SystemExit("badmodules: no init in the archive")
    return tacet_modules.pack([(name, change(data) if name == b"init" else data)
                               for name, data in modules])


def init_not_elf(image):
    return with_init(image, lambda elf: b"\0NOT" + elf[4:])


def init_truncated(image):
    return with_init(image, lambda elf: elf[:tacet_modules.FILE_ALIGN])


BAD = (("bad-magic", bad_magic), ("no-init", no_init), ("init-not-elf", init_not_elf),
       ("init-truncated", init_truncated))


def main():
    good, outdir = sys.argv[1], sys.argv[2]
    image = open(good, "rb").read()
    os.makedirs(outdir, exist_ok=True)
    for name, fn in BAD:
        with open(os.path.join(outdir, name + ".img"), "wb") as f:
            f.write(fn(image))


if __name__ == "__main__":
    main()
