#!/usr/bin/env python3
"""check_genproto.py: the checks of tools/genproto.py that a C test cannot make (tests/run.py's
proto/genproto): every description in lib/proto/ parses, names only labels its header defines,
and the headers the build compiled ($(BUILD)/gen/include/tacet/) are what the generator makes
of it now; malformed descriptions are refused with a message, never turned into code.
Prints one line per problem; exits non-zero if there is any.

  python3 tests/host/proto/check_genproto.py BUILD
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import genproto  # noqa: E402

BAD = {
    "two capabilities": "protocol p\nop a A (cap x, cap y) -> ()\n",
    "five words": "protocol p\nop a A (a, b, c, d, e) -> ()\n",
    "five reply words": "protocol p\nop a A () -> (a, b, c, d, e)\n",
    "status not first": "protocol p\nop a A () -> (x, status)\n",
    "a refusal code on a reply capability": "protocol p\nop a A () -> (status, cap c !EPERM)\n",
    "an op named twice": "protocol p\nop a A () -> ()\nop a B () -> ()\n",
    "no protocol": "op a A () -> ()\n",
    "no op": "protocol p\n",
    "an unknown statement": "protocol p\nopp a A () -> ()\n",
    "a bad argument": "protocol p\nop a A (x y) -> ()\n",
    "no reply": "protocol p\nop a A ()\n",
    "a required word after an optional one": "protocol p\nop a A (x?, y) -> ()\n",
    "an optional reply word": "protocol p\nop a A () -> (status, x?)\n",
    "a capability named as the stub's endpoint": "protocol p\nop a A (cap ep) -> ()\n",
    "an optional request capability": "protocol p\nop a A (cap x?) -> ()\n",
}


def check_lib(build):
    problems = []
    for path in sorted(glob.glob(os.path.join(ROOT, "lib", "proto", "*.proto"))):
        with open(path) as f:
            proto = genproto.parse(f.read(), path)
        labels = set()
        for inc in proto["includes"]:
            with open(os.path.join(ROOT, "lib", "include", inc)) as f:
                labels |= set(re.findall(r"^#define\s+(\w+)", f.read(), re.M))
                f.seek(0)
                labels |= set(re.findall(r"^\s*(\w+)\s*=", f.read(), re.M))
        for op in proto["ops"]:
            if op["label"] not in labels:
                problems.append(f"{path}: {op['name']}'s label {op['label']} is in no header it "
                                f"includes")
        for side, text in (("client", genproto.gen_client(proto)),
                           ("server", genproto.gen_server(proto))):
            built = os.path.join(build, "gen", "include", "tacet", f"{proto['name']}_{side}.h")
            try:
                with open(built) as f:
                    if f.read() != text:
                        problems.append(f"{built} is not what the generator makes of {path}")
            except OSError as e:
                problems.append(f"{built}: {e}")
    return problems


def check_refusals():
    problems = []
    for what, text in BAD.items():
        try:
            genproto.parse(text, what)
            problems.append(f"a description with {what} was taken")
        except genproto.ProtoError:
            pass
    return problems


def main():
    problems = check_lib(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build"))
    problems += check_refusals()
    for p in problems:
        print(p)
    if not problems:
        print(f"genproto: lib/proto's descriptions and {len(BAD)} malformed ones: fine")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
