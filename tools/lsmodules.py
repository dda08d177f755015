#!/usr/bin/env python3
"""lsmodules.py IMG: checks a boot module archive (kernel/uapi/tacet/modules.h) and lists its
modules, one line each: offset (hex), size (decimal bytes), name. Exits 1 if the archive is
malformed, saying how."""

import argparse
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import tacet_modules  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("image", metavar="IMG")
    args = ap.parse_args()

    try:
        with open(args.image, "rb") as f:
            image = f.read()
        modules = tacet_modules.unpack(image)
    except OSError as e:
        sys.exit(f"lsmodules: {args.image}: {e.strerror}")
    except tacet_modules.FormatError as e:
        sys.exit(f"lsmodules: {args.image}: {e}")

    plural = "" if len(modules) == 1 else "s"
    print(f"{args.image}: version {tacet_modules.VERSION}, {len(modules)} module{plural},"
          f" {len(image)} bytes")
    print(f"{'offset':>10} {'size':>10}  name")
    for name, offset, size in modules:
        print(f"{offset:#10x} {size:10d}  {name}")


if __name__ == "__main__":
    main()
