#!/usr/bin/env python3
"""mkmodules.py OUT FILE...: packs the server ELF files into the boot module archive OUT
(kernel/uapi/tacet/modules.h), in the order given. A module is named after its file, less a
".elf" suffix: build/servers/init.elf becomes "init". OUT is replaced only when all is well."""

import argparse
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import tacet_modules  # noqa: E402


def module_name(path):
    name = os.path.basename(path)
    if name.endswith(".elf"):
        name = name[:-len(".elf")]
    return os.fsencode(name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", metavar="OUT")
    ap.add_argument("files", metavar="FILE", nargs="*")
    args = ap.parse_args()

    modules = []
    paths = {}
    for path in args.files:
        name = module_name(path)
        try:
            tacet_modules.check_name(name)
        except tacet_modules.FormatError as e:
            sys.exit(f"mkmodules: {path}: {e}")
        if name in paths:
            sys.exit(f"mkmodules: {paths[name]} and {path} would both be module"
                     f" {os.fsdecode(name)!r}")
        paths[name] = path
        try:
            with open(path, "rb") as f:
                modules.append((name, f.read()))
        except OSError as e:
            sys.exit(f"mkmodules: {path}: {e.strerror}")

    image = tacet_modules.pack(modules)
    out_dir = os.path.dirname(args.out) or "."
    fd, tmp = tempfile.mkstemp(dir=out_dir, prefix=os.path.basename(args.out) + ".")
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.fchmod(fd, 0o666 & ~umask)  # mkstemp makes it private; OUT is an ordinary file
        with os.fdopen(fd, "wb") as f:
            f.write(image)
        os.replace(tmp, args.out)
    except BaseException:
        os.unlink(tmp)
        raise


if __name__ == "__main__":
    main()
