#!/usr/bin/env python3
"""Print the fixture table of testdata/README.md from the committed oracles (stdlib only)."""
import json
import os
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures")
print("| fixture | scenario | Hudi | table ver | type | completed instants by action (active) | archived (completed, Java API) | pending | rows | oracle files | event log (codec) | size |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for fx in sorted(os.listdir(root)):
    d = os.path.join(root, fx)
    sp = os.path.join(d, "oracle", "summary.json")
    if not os.path.isfile(sp):
        continue
    s = json.load(open(sp))
    done = ", ".join("%s×%d" % kv for kv in s["completed_by_action"].items())
    pend = ", ".join("%s×%d" % kv for kv in s["pending_by_action"].items()) or "0"
    arch = "n/a"
    ap = os.path.join(d, "oracle", "java_archived_timeline.json")
    if os.path.isfile(ap):
        cnt = {}
        for i in json.load(open(ap))["instants"]:
            if i.get("state") == "COMPLETED":
                cnt[i["action"]] = cnt.get(i["action"], 0) + 1
        arch = ", ".join("%s×%d" % kv for kv in sorted(cnt.items())) or "0"
    oracles = ", ".join(sorted(x[:-5] for x in os.listdir(os.path.join(d, "oracle")) if x.endswith(".json")))
    size = 0
    for r, _, fs in os.walk(d):
        size += sum(os.path.getsize(os.path.join(r, f)) for f in fs)
    ev = s.get("event_logs", [])
    evcell = "`%s` (%s)" % (ev[0] if ev else "?", s["event_log_codec"])
    if s.get("event_log_codec") == "off":
        evcell = "— (off: no event log)"
    print("| `%s` | %s | %s | %d | %s | %s | %s | %s | %d | %s | %s | %.1f MB |" % (
        fx, s["scenario"], s["hudi_release"], s["table_version"],
        "COW" if s["table_type"] == "COPY_ON_WRITE" else "MOR", done, arch, pend, s["row_count"], oracles,
        evcell, size / 1e6))
