#!/usr/bin/env python3
"""Print the incremental probes of committed fixtures compactly (stdlib only).

  python3 testdata/gen/probe_summary.py                      # every oracle/incremental_probes*.json
  python3 testdata/gen/probe_summary.py incr-1.0.2 ...        # only these fixtures

One line per probe: id, kind, begin[, end, fallback], the instant it came from (action@requested/completion),
then rows and the distinct _hoodie_commit_time values as c<N> (N = position of that requested time among the
fixture's active completed write instants; '?' = not an active write instant) or the error class.
"""
import glob
import json
import os
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures")
want = set(sys.argv[1:])
for f in sorted(glob.glob(os.path.join(root, "*", "oracle", "incremental_probes*.json"))):
    fx = f.split(os.sep)[-3]
    if want and fx not in want:
        continue
    d = json.load(open(f))
    writes = [e for e in d["active_timeline"]
              if e["state"] == "COMPLETED" and e["action"] in ("commit", "deltacommit", "replacecommit")]
    label = {}
    for i, e in enumerate(writes, 1):
        label.setdefault(e["requested_time"], "c%d" % i)
    print("== %s/oracle/%s  reader %s  writer %s  v%d %s  %d probes" % (
        fx, os.path.basename(f), d["reader"], d["writer"], d["tableVersion"], d.get("tableType"), len(d["probes"])))
    for i, e in enumerate(writes, 1):
        print("   c%-3d %-13s %s %s %s" % (i, e["action"], e["requested_time"], e.get("completion_time"),
                                          e.get("planned_as", "")))
    for p in d["probes"]:
        inst = p.get("instant") or {}
        src = ""
        if inst:
            src = "%s %s@%s" % (label.get(inst["requested_time"], "-"), inst["action"], inst["requested_time"])
        if p["error"]:
            res = "ERROR %s: %s" % (p["error"]["class"], (p["error"]["message"] or "")[:150])
        else:
            res = "%d rows %s" % (p["row_count"], " ".join(
                "%s:%d" % (label.get(t, "?" + t), n) for t, n in p["rows_per_commit_time"].items()))
        extra = ""
        if p.get("end"):
            extra += " end=" + p["end"]
        if p.get("fallback_full_table_scan") is not None:
            extra += " fallback=" + str(p["fallback_full_table_scan"]).lower()
        print("   %s %-40s %-17s%s  [%s] -> %s" % (p["id"], p["kind"], p["begin"], extra, src, res))
