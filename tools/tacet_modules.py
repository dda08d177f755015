"""tacet_modules.py: the boot module archive format of kernel/uapi/tacet/modules.h, for
tools/mkmodules.py and tools/lsmodules.py: packing a list of files and checking and reading an
archive. The C header is the definition; tests/host/test_modules.c checks the two agree."""

import struct

MAGIC = b"TACETMOD"           # TACET_MODULES_MAGIC
VERSION = 1                   # TACET_MODULES_VERSION
NAME_MAX = 48                 # TACET_MODULE_NAME_MAX, with the terminating NUL
FILE_ALIGN = 4096             # every file, and the archive's end, on a page boundary

HEADER = struct.Struct("<8sII")                 # struct tacet_modules_header
ENTRY = struct.Struct(f"<{NAME_MAX}sQQ")        # struct tacet_module


class FormatError(Exception):
    pass


def align_up(n, align=FILE_ALIGN):
    return (n + align - 1) // align * align


def check_name(name):
    """name is bytes; raise FormatError unless it fits an entry with its NUL."""
    if not name:
        raise FormatError("empty module name")
    if b"\0" in name:
        raise FormatError(f"module name {name!r} contains a NUL byte")
    if len(name) > NAME_MAX - 1:
        raise FormatError(f"module name {name.decode(errors='replace')!r} is {len(name)} bytes;"
                          f" the limit is {NAME_MAX - 1} (TACET_MODULE_NAME_MAX less the NUL)")


def pack(modules):
    """modules: a list of (name bytes, contents bytes). Returns the archive. The end is padded
    to a page too, so the archive is whole pages and mapping it exposes nothing beyond it."""
    seen = set()
    for name, _ in modules:
        check_name(name)
        if name in seen:
            raise FormatError(f"two modules are named {name.decode(errors='replace')!r}")
        seen.add(name)

    offset = align_up(HEADER.size + ENTRY.size * len(modules))
    table = [HEADER.pack(MAGIC, VERSION, len(modules))]
    layout = []
    for name, data in modules:
        table.append(ENTRY.pack(name, offset, len(data)))
        layout.append((offset, data))
        offset = align_up(offset + len(data))

    image = bytearray(offset)
    table = b"".join(table)
    image[:len(table)] = table
    for at, data in layout:
        image[at:at + len(data)] = data
    return bytes(image)


def unpack(image):
    """Checks an archive; returns a list of (name str, offset, size) in table order."""
    if len(image) < HEADER.size:
        raise FormatError(f"{len(image)} bytes: shorter than the header")
    magic, version, count = HEADER.unpack_from(image, 0)
    if magic != MAGIC:
        raise FormatError(f"bad magic {magic!r}, expected {MAGIC!r}")
    if version != VERSION:
        raise FormatError(f"version {version}, expected {VERSION}")
    table_end = HEADER.size + ENTRY.size * count
    if table_end > len(image):
        raise FormatError(f"{count} entries do not fit in {len(image)} bytes")

    modules = []
    names = set()
    for i in range(count):
        raw, offset, size = ENTRY.unpack_from(image, HEADER.size + ENTRY.size * i)
        if b"\0" not in raw:
            raise FormatError(f"entry {i}: name not NUL-terminated")
        raw_name = raw.split(b"\0", 1)[0]
        check_name(raw_name)
        name = raw_name.decode(errors="replace")
        if raw_name in names:
            raise FormatError(f"entry {i}: duplicate name {name!r}")
        names.add(raw_name)
        if offset % FILE_ALIGN:
            raise FormatError(f"entry {i} ({name!r}): offset {offset:#x} not page aligned")
        if offset < table_end or offset + size > len(image):
            raise FormatError(f"entry {i} ({name!r}): [{offset:#x}, {offset + size:#x}) is"
                              f" outside the file area [{table_end:#x}, {len(image):#x})")
        modules.append((name, offset, size))

    spans = sorted((offset, offset + size, name) for name, offset, size in modules)
    for (_, end, a), (start, _, b) in zip(spans, spans[1:]):
        if start < end:
            raise FormatError(f"modules {a!r} and {b!r} overlap")
    return modules
