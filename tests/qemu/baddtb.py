#!/usr/bin/env python3
"""baddtb.py [--aia] GOOD.dtb OUTDIR: write the malformed device trees the QEMU tests boot with.

OpenSBI parses the tree before the kernel does and hangs on a broken token stream, so these are
the malformations that get past it and must be caught by the kernel:
  bad-nameoff.dtb  a property whose name offset points outside the strings block
  bad-memreg.dtb   /memory's reg is 3 cells long, not a whole (address, size) pair
and, with --aia, from the AIA machine's tree:
  bad-imsic-ids.dtb  the S-level IMSIC's riscv,ipi-id is 5, one of the lines' identities
"""
import os
import struct
import sys

FDT_BEGIN_NODE, FDT_END_NODE, FDT_PROP, FDT_NOP, FDT_END = 1, 2, 3, 4, 9


def header(blob):
    keys = ("magic totalsize off_struct off_strings off_rsvmap version last_comp "
            "boot_cpu size_strings size_struct").split()
    return dict(zip(keys, struct.unpack(">10I", blob[:40])))


def props(blob):
    """Yield (offset of the FDT_PROP token, name, value length) for every property."""
    h = header(blob)
    strings = blob[h["off_strings"]:h["off_strings"] + h["size_strings"]]
    i, end = h["off_struct"], h["off_struct"] + h["size_struct"]
    while i < end:
        tok = struct.unpack(">I", blob[i:i + 4])[0]
        if tok == FDT_BEGIN_NODE:
            i = (blob.index(0, i + 4) + 1 + 3) & ~3
        elif tok == FDT_PROP:
            length, nameoff = struct.unpack(">II", blob[i + 4:i + 12])
            name = strings[nameoff:strings.index(0, nameoff)].decode()
            yield i, name, length
            i = (i + 12 + length + 3) & ~3
        else:
            i += 4


def bad_nameoff(blob):
    out = bytearray(blob)
    for off, name, _ in props(blob):
        if name == "bootargs":
            out[off + 8:off + 12] = struct.pack(">I", 0x00fffff0)
            return bytes(out)
    raise SystemExit("baddtb: no bootargs property to corrupt")


def bad_memreg(blob):
    """Rewrite /memory's 16-byte reg as 12 bytes plus a NOP, keeping the token stream valid."""
    out = bytearray(blob)
    want = struct.pack(">IIII", 0, 0x80000000, 0, 0x8000000)
    for off, name, length in props(blob):
        if name == "reg" and length == 16 and blob[off + 12:off + 28] == want:
            out[off + 4:off + 8] = struct.pack(">I", 12)
            out[off + 24:off + 28] = struct.pack(">I", FDT_NOP)
            return bytes(out)
    raise SystemExit("baddtb: no 128 MiB memory reg to corrupt")


def bad_imsic_ids(blob):
    """The first IMSIC's riscv,ipi-id (QEMU dumps the S-level one, 0x28000000, first) becomes
    5. OpenSBI checks every IMSIC's riscv,num-ids (it stops at a bad count), not this."""
    out = bytearray(blob)
    for off, name, length in props(blob):
        if name == "riscv,ipi-id" and length == 4:
            out[off + 12:off + 16] = struct.pack(">I", 5)
            return bytes(out)
    raise SystemExit("baddtb: no riscv,ipi-id to corrupt")


def main():
    aia = sys.argv[1] == "--aia"
    good, outdir = sys.argv[1 + aia], sys.argv[2 + aia]
    blob = open(good, "rb").read()
    os.makedirs(outdir, exist_ok=True)
    trees = (("bad-imsic-ids", bad_imsic_ids),) if aia else (
        ("bad-nameoff", bad_nameoff), ("bad-memreg", bad_memreg))
    for name, fn in trees:
        with open(os.path.join(outdir, name + ".dtb"), "wb") as f:
            f.write(fn(blob))


if __name__ == "__main__":
    main()
