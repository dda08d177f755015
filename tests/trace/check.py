"""check.py: the checks of a trace.json that tools/trace/trace.py wrote (tests/run.py's trace/
cases): one track per hart, slices on a track that nest (each inside the one around it or after
it, never across its end), every flow arrow from a top half's slice to a run of the thread it
woke that begins after it, every run named after its thread's process (a thread that ended
before the dump too), no event dropped, and on each line asked about as many top halves as the
kernel counted. Returns a list of problems (empty: it passed)."""
import bisect
import collections

EPS = 1e-6  # microseconds: ts and dur are rounded to the nanosecond


def slices_by_track(events):
    tracks = collections.defaultdict(list)
    for e in events:
        if e["ph"] == "X":
            tracks[e["tid"]].append((e["ts"], e["ts"] + e["dur"], e))
    for t in tracks.values():
        t.sort(key=lambda s: (s[0], -s[1]))
    return tracks


def nesting_problems(track, slices):
    stack = []
    for begin, end, e in slices:
        while stack and stack[-1][1] <= begin + EPS:
            stack.pop()
        if stack and end > stack[-1][1] + EPS:
            outer = stack[-1][2]
            return [f"hart {track}: {e['name']} at {begin} (to {end}) crosses the end of "
                    f"{outer['name']} at {outer['ts']} (to {stack[-1][1]})"]
        stack.append((begin, end, e))
    return []


def enclosing(slices, starts, at, want):
    """A slice of slices (sorted by start) that holds time `at` and satisfies want, or None."""
    for i in range(bisect.bisect_right(starts, at + EPS) - 1, -1, -1):
        begin, end, e = slices[i]
        if begin - EPS <= at <= end + EPS and want(e):
            return e
    return None


def problems(trace, lines=()):
    ev, other = trace["traceEvents"], trace["otherData"]
    harts = other["harts"]
    p = []
    names = {e["tid"]: e["args"]["name"] for e in ev
             if e["ph"] == "M" and e["name"] == "thread_name"}
    if names != {h: f"hart {h}" for h in range(harts)}:
        p.append(f"the tracks are {names}, not one per hart (hart 0..{harts - 1})")
    stray = {e.get("tid") for e in ev if e["ph"] != "M"} - set(range(harts))
    if stray:
        p.append(f"events on tracks that are no hart: {sorted(stray)}")
    tracks = slices_by_track(ev)
    for h, slices in sorted(tracks.items()):
        p += nesting_problems(h, slices)
    starts = {h: [s[0] for s in slices] for h, slices in tracks.items()}
    begins = {e["id"]: e for e in ev if e["ph"] == "s"}
    ends = {e["id"]: e for e in ev if e["ph"] == "f"}
    if set(begins) != set(ends):
        p.append(f"flows without both ends: {sorted(set(begins) ^ set(ends))[:10]}")
    if len(begins) != other["flows"]:
        p.append(f"{len(begins)} flows; otherData says {other['flows']}")
    for fid in sorted(set(begins) & set(ends)):
        s, f = begins[fid], ends[fid]
        irq = enclosing(tracks[s["tid"]], starts[s["tid"]], s["ts"],
                        lambda e: e["cat"] == "top half" and e["args"]["line"] ==
                        s["args"]["line"])
        run = enclosing(tracks[f["tid"]], starts[f["tid"]], f["ts"],
                        lambda e: e["cat"] == "run" and e["args"]["tid"] == s["args"]["tid"])
        if irq is None:
            p.append(f"flow {fid} starts at {s['ts']} on hart {s['tid']} outside a top half of "
                     f"line {s['args']['line']}")
        if run is None or run["ts"] + EPS < s["ts"]:
            p.append(f"flow {fid} ends at {f['ts']} on hart {f['tid']} outside a run of thread "
                     f"{s['args']['tid']} begun after the wake at {s['ts']}")
        if len(p) > 20:
            break
    unnamed = sorted({e["args"]["tid"] for e in ev if e["ph"] == "X" and e["cat"] == "run"
                      and e["name"] == f"thread:{e['args']['tid']}"})
    if unnamed:
        p.append(f"runs of threads without a name (thread:TID): {unnamed[:10]}")
    dropped = {h: n for h, n in other["dropped"].items() if n}
    if dropped:
        p.append(f"events dropped (a ring was full): {dropped}")
    tops = collections.Counter(e["args"]["line"] for e in ev
                               if e["ph"] == "X" and e["cat"] == "top half")
    for line in lines:
        kernel = other["irq_count_kernel"].get(str(line))
        if kernel is None or tops[line] != kernel:
            p.append(f"line {line}: {tops[line]} top halves in the trace, the kernel counted "
                     f"{kernel}")
    return p
