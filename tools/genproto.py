#!/usr/bin/env python3
"""genproto.py: a protocol's client stubs and server dispatch from its description
(lib/proto/NAME.proto), so that both sides of a protocol come from one text.

    genproto.py lib/proto/rtc.proto OUTDIR   writes OUTDIR/tacet/rtc_client.h and rtc_server.h

The description, one statement a line (# starts a comment):

    protocol rtc                 the C prefix of everything generated
    include tacet/rtc_proto.h    the header that defines the labels (and documents the protocol)
    error_label RNG_ERROR        optional: an error reply has this label, w0 the code (default:
                                 label 0, w0 the code; a reply whose w0 is negative is an error)
    op alarm RTC_ALARM (at, bits, cap ntfn) -> ()
    op claim PCI_CLAIM (vendor, device, index, cap process !EPERM) -> (status, irq, cap bar0)
    op off INIT_POWEROFF (status?) -> ()

An operation: its name, its label, the request's words in order (w0, w1, ...) and at most one
capability (`cap NAME`, its absence refused with TACET_EINVAL or the code after `!`); a word
marked `?` may be absent from a request, and so may every one after it (all marked: the handler
gets 0 for each), for a protocol whose older clients send fewer words; then the reply: `status` is the handler's return value (>= 0) in that word, every other name an out
word; `cap NAME` a capability the reply carries (the handler sets its slot, 0 for none), which
the client requires of a success unless it is written `cap NAME?`.

Generated, for each operation OP:
  client  static inline long NAME_call_OP(unsigned long ep, request words..., [unsigned long
          cap_slot], [out words...], [unsigned long recv_slot]): the call; 0 (or the status) or
          a negative TACET_E* code, the call's or the server's (-TACET_EEMPTY: a success whose
          reply capability did not come); outs filled only on success.
  server  long NAME_serve_OP(struct tacet_service *s, request words..., [unsigned long cap],
          [out words...]): the server defines it; a negative return is the error reply.
          static inline void NAME_dispatch(s, msg, reply): a switch on the label that checks
          the word count (between the words required and all) and the capability's presence
          exactly and refuses anything else with the error (TACET_EINVAL unless the description
          says) before any handler runs.
Standard library only: it runs at build time (the Makefile's rule), its output under build/.
"""
import re
import sys

MAX_WORDS = 4  # TACET_MSG_WORDS
# the generated code's own names: no word or capability may take one
RESERVED = {"ep", "s", "m", "err", "msg", "reply", "words", "cap", "r"}

OP_RE = re.compile(r"op\s+(\w+)\s+(\w+)\s*\((.*?)\)\s*->\s*\((.*?)\)\s*$")


class ProtoError(Exception):
    pass


def parse_args(text, where, reply):
    """A parenthesised list: (words, cap name or None, cap's refusal code, words required)."""
    words, cap, refuse, required = [], None, "TACET_EINVAL", None
    for item in [a.strip() for a in text.split(",") if a.strip()]:
        parts = item.split()
        if parts[-1].rstrip("?") in RESERVED:
            raise ProtoError(f"{where}: {parts[-1]!r} is a name the generated code uses")
        if parts[0] == "cap":
            if cap or len(parts) not in (2, 3) or (len(parts) == 3 and not parts[2].startswith("!")):
                raise ProtoError(f"{where}: one capability, `cap NAME [!ECODE]`")
            cap = parts[1]
            if cap.endswith("?") and not reply:
                raise ProtoError(f"{where}: only a reply's capability may be optional")
            if len(parts) == 3:
                if reply:
                    raise ProtoError(f"{where}: a reply's capability has no refusal code")
                refuse = "TACET_" + parts[2][1:]
        elif len(parts) == 1 and re.fullmatch(r"[a-z_][a-z0-9_]*\??", parts[0]):
            optional = parts[0].endswith("?")
            if optional and reply:
                raise ProtoError(f"{where}: a reply's words are all sent")
            if not optional and required is not None:
                raise ProtoError(f"{where}: a required word after an optional one")
            if optional and required is None:
                required = len(words)
            words.append(parts[0].rstrip("?"))
        else:
            raise ProtoError(f"{where}: bad argument {item!r}")
    if len(words) > MAX_WORDS:
        raise ProtoError(f"{where}: more than {MAX_WORDS} words")
    return words, cap, refuse, len(words) if required is None else required


def parse(text, filename="<proto>"):
    proto = {"name": None, "includes": [], "error_label": None, "ops": []}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        where = f"{filename}:{n}"
        if not line:
            continue
        key = line.split()[0]
        if key == "protocol":
            proto["name"] = line.split()[1]
        elif key == "include":
            proto["includes"].append(line.split()[1])
        elif key == "error_label":
            proto["error_label"] = line.split()[1]
        elif key == "op":
            m = OP_RE.match(line)
            if not m:
                raise ProtoError(f"{where}: op NAME LABEL (args) -> (reply)")
            words, cap, refuse, required = parse_args(m.group(3), where, False)
            outs, rcap, _, _ = parse_args(m.group(4), where, True)
            rcap_optional = bool(rcap) and rcap.endswith("?")
            rcap = rcap.rstrip("?") if rcap else rcap
            if not outs:
                outs = ["status"]  # a reply is never empty: w0 = 0 or the error
            status = "status" in outs
            if status and outs[0] != "status":
                raise ProtoError(f"{where}: status is the reply's first word")
            proto["ops"].append({"name": m.group(1), "label": m.group(2), "words": words,
                                 "cap": cap, "refuse": refuse, "required": required, "outs": outs, "rcap": rcap, "rcap_optional": rcap_optional,
                                 "status": status})
        else:
            raise ProtoError(f"{where}: unknown statement {key!r}")
    if not proto["name"] or not proto["ops"]:
        raise ProtoError(f"{filename}: a protocol and at least one op")
    names = [op["name"] for op in proto["ops"]]
    if len(set(names)) != len(names):
        raise ProtoError(f"{filename}: an op named twice")
    return proto


def out_words(op):
    return [o for o in op["outs"] if o != "status"]


def header(proto, side):
    guard = f"TACET_GEN_{proto['name'].upper()}_{side.upper()}_H"
    lines = [f"/* {proto['name']}_{side}.h: generated by tools/genproto.py from "
             f"lib/proto/{proto['name']}.proto; do not edit. */",
             f"#ifndef {guard}", f"#define {guard}", "", "#include <stdint.h>",
             "#include <tacet.h>"]
    lines += [f"#include <{inc}>" for inc in proto["includes"]]
    return lines + [""], guard


def client_params(op):
    params = ["unsigned long ep"] + [f"uint64_t {w}" for w in op["words"]]
    if op["cap"]:
        params.append(f"unsigned long {op['cap']}")
    params += [f"uint64_t *{o}" for o in out_words(op)]
    if op["rcap"]:
        params.append(f"unsigned long {op['rcap']}_into")
    return params


def gen_client(proto):
    lines, guard = header(proto, "client")
    elabel = proto["error_label"]
    for op in proto["ops"]:
        n = len(op["words"])
        tag = (f"TACET_TAG_CAP({op['label']}, {n}, {op['cap']})" if op["cap"]
               else f"TACET_TAG({op['label']}, {n})")
        init = ", ".join(op["words"])
        lines.append(f"static inline long {proto['name']}_call_{op['name']}("
                     + ", ".join(client_params(op)) + ")")
        lines.append("{")
        lines.append(f"\tstruct tacet_msg m = {{ .tag = {tag}" + (f", .w = {{ {init} }}" if n else "")
                     + " };")
        recv = f"{op['rcap']}_into" if op["rcap"] else "0"
        lines.append(f"\tlong err = tacet_call_cap(ep, &m, {recv});")
        lines.append("")
        lines.append("\tif (err)")
        lines.append("\t\treturn err;")
        if elabel:
            lines.append(f"\tif (TACET_TAG_LABEL(m.tag) == {elabel})")
        else:
            lines.append("\tif ((long)m.w[0] < 0)")
        lines.append("\t\treturn (long)m.w[0];")
        if op["rcap"] and not op["rcap_optional"]:
            lines.append("\tif (!TACET_TAG_HAS_CAP(m.tag))")
            lines.append("\t\treturn -TACET_EEMPTY; /* the server said yes but sent nothing */")
        for i, o in enumerate(op["outs"]):
            if o != "status":
                lines.append(f"\t*{o} = m.w[{i}];")
        lines.append("\treturn " + ("(long)m.w[0];" if op["status"] else "0;"))
        lines.append("}")
        lines.append("")
    lines.append(f"#endif /* {guard} */")
    return "\n".join(lines) + "\n"


def handler_proto(proto, op):
    params = ["struct tacet_service *s"] + [f"uint64_t {w}" for w in op["words"]]
    if op["cap"]:
        params.append(f"unsigned long {op['cap']}")
    params += [f"uint64_t *{o}" for o in out_words(op)]
    if op["rcap"]:
        params.append(f"unsigned long *{op['rcap']}")
    return f"long {proto['name']}_serve_{op['name']}(" + ", ".join(params) + ")"


def gen_server(proto):
    lines, guard = header(proto, "server")
    lines.append("/* The handlers: the server defines each one (a negative return is the error "
                 "reply). */")
    for op in proto["ops"]:
        lines.append(handler_proto(proto, op) + ";")
    lines.append("")
    elabel = proto["error_label"] or "0"
    name = proto["name"]
    lines += [f"/* Decode msg (label, word count, capability) and call its handler; a malformed "
              f"message gets the",
              f" * error reply without any handler running. reply comes in as the loop set it "
              f"(label 0, one word). */",
              f"static inline void {name}_dispatch(struct tacet_service *s, "
              f"const struct tacet_msg *msg, struct tacet_msg *reply)",
              "{",
              "\tunsigned long words = TACET_TAG_WORDS(msg->tag), cap = TACET_TAG_HAS_CAP(msg->tag);",
              "\tlong r = -TACET_EINVAL;",
              "",
              "\tswitch (TACET_TAG_LABEL(msg->tag)) {"]
    for op in proto["ops"]:
        outs = out_words(op)
        lines.append(f"\tcase {op['label']}: {{")
        for o in outs:
            lines.append(f"\t\tuint64_t {o} = 0;")
        if op["rcap"]:
            lines.append(f"\t\tunsigned long {op['rcap']} = 0;")
        if outs or op["rcap"]:
            lines.append("")
        nwords, required = len(op["words"]), op["required"]
        count = (f"words != {nwords}" if required == nwords
                 else f"words > {nwords}" if not required
                 else f"words < {required} || words > {nwords}")
        if op["cap"] and op["refuse"] != "TACET_EINVAL":
            lines.append(f"\t\tif ({count})")
            lines.append("\t\t\tbreak;")
            lines.append("\t\tif (!cap) {")
            lines.append(f"\t\t\tr = -{op['refuse']};")
            lines.append("\t\t\tbreak;")
            lines.append("\t\t}")
        else:
            lines.append(f"\t\tif ({count} || " + ("!cap)" if op["cap"] else "cap)"))
            lines.append("\t\t\tbreak;")
        args = ["s"] + [f"msg->w[{i}]" if i < required else f"(words > {i} ? msg->w[{i}] : 0)"
                        for i in range(nwords)]
        if op["cap"]:
            args.append("s->recv")
        args += [f"&{o}" for o in outs]
        if op["rcap"]:
            args.append(f"&{op['rcap']}")
        lines.append(f"\t\tr = {name}_serve_{op['name']}(" + ", ".join(args) + ");")
        lines.append("\t\tif (r < 0)")
        lines.append("\t\t\tbreak;")
        n = len(op["outs"])
        if op["rcap"]:
            lines.append(f"\t\treply->tag = {op['rcap']} ? TACET_TAG_CAP(0, {n}, {op['rcap']}) "
                         f": TACET_TAG(0, {n});")
        else:
            lines.append(f"\t\treply->tag = TACET_TAG(0, {n});")
        for i, o in enumerate(op["outs"]):
            lines.append(f"\t\treply->w[{i}] = " + ("(unsigned long)r;" if o == "status" else f"{o};"))
        lines.append("\t\treturn;")
        lines.append("\t}")
    lines += ["\t}",
              f"\treply->tag = TACET_TAG({elabel}, 1);",
              "\treply->w[0] = (unsigned long)r;",
              "}",
              "",
              f"#endif /* {guard} */"]
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: genproto.py PROTO OUTDIR")
    with open(argv[1]) as f:
        try:
            proto = parse(f.read(), argv[1])
        except ProtoError as e:
            sys.exit(f"genproto: {e}")
    for side, text in (("client", gen_client(proto)), ("server", gen_server(proto))):
        with open(f"{argv[2]}/tacet/{proto['name']}_{side}.h", "w") as f:
            f.write(text)


if __name__ == "__main__":
    main(sys.argv)
