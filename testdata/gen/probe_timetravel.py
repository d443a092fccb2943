#!/usr/bin/env python3
"""Time-travel probes: what a real Hudi reader returns for `as.of.instant` = T.

One invocation = one Spark application = one reader release, reading committed fixtures (read only:
each table.zip is unzipped into a scratch directory):

  probe_timetravel.py --reader 1.2.0 --bundle <hudi-spark bundle jar> testdata/fixtures/incr-1.2.0 ...

writes <fixture>/oracle/timetravel_probes.json (timetravel_probes_reader-<release>.json when another release wrote it): for every completed write, reads as of its requested
time, requested-1ms, requested+1ms and (table version >= 8) its completion time and completion-1ms, each
reduced to rows per _hoodie_commit_time (or the error). Never run from `go test`/CI.
"""
import argparse
import json
import os
import shutil
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import read_timeline, exc_text, dump  # noqa: E402
from probe_incremental import spark_session, shift_ms, first_line, instant_ref, WRITE_ACTIONS, log, row_values, ensure_bootstrap_source, scratch_copy  # noqa: E402

ROWS = False


def read_as_of(spark, path, t):
    out = {"as_of": t}
    t0 = time.time()
    try:
        df = spark.read.format("hudi").option("as.of.instant", t).load(path)
        per = {r[0]: int(r[1]) for r in df.groupBy("_hoodie_commit_time").count().collect()}
        out.update(row_count=sum(per.values()), rows_per_commit_time=dict(sorted(per.items())), error=None)
        if ROWS:
            out["rows"] = row_values(df)
    except Exception as e:
        x = exc_text(e)
        out.update(row_count=None, rows_per_commit_time=None, error={
            "class": x.get("java_class") or x.get("python_type"),
            "message": first_line(x.get("java_message")) or first_line(x.get("text")),
            "root_class": x.get("root_class"), "root_message": first_line(x.get("root_message"))})
    out["seconds"] = round(time.time() - t0, 2)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reader", required=True)
    ap.add_argument("--bundle", required=True)
    ap.add_argument("--scratch", default=os.path.join(os.environ.get("HUDISCOPE_GEN_WORK", "/tmp/hudiscope-gen"), "probe-tt"))
    ap.add_argument("--rows", action="store_true", help="record every returned row's values")
    ap.add_argument("--archived", action="store_true", help="also read as of every archived write (Java archived timeline)")
    ap.add_argument("fixtures", nargs="+")
    a = ap.parse_args()
    global ROWS
    ROWS = a.rows
    os.makedirs(a.scratch, exist_ok=True)
    spark = spark_session(a.reader, a.bundle, a.scratch)
    for fixture_dir in a.fixtures:
        fx, summary, path = scratch_copy(a.scratch, fixture_dir)
        ensure_bootstrap_source(fixture_dir, summary)
        tl = read_timeline(path)
        writes = [e for e in tl if e["state"] == "COMPLETED" and e["action"] in WRITE_ACTIONS]
        ap_ = os.path.join(fixture_dir, "oracle", "java_archived_timeline.json")
        if a.archived and os.path.isfile(ap_):
            arch = [dict(requested_time=i["requested_time"], action=i["action"], state="COMPLETED (archived)",
                         completion_time=i.get("completion_time") if summary.get("table_version", 0) >= 8 else None)
                    for i in json.load(open(ap_))["instants"]
                    if i.get("state") == "COMPLETED" and i.get("action") in WRITE_ACTIONS]
            writes = sorted(arch, key=lambda i: i["requested_time"]) + writes
        probes = []
        for e in writes:
            req, comp = e["requested_time"], e.get("completion_time")
            cands = [("requested", req), ("requested-1ms", shift_ms(req, -1)), ("requested+1ms", shift_ms(req, 1))]
            if comp:
                cands += [("completion", comp), ("completion-1ms", shift_ms(comp, -1))]
            for kind, t in cands:
                if t is None:
                    continue
                r = read_as_of(spark, path, t)
                secs = r.pop("seconds")
                p = {"id": "t%03d" % (len(probes) + 1), "kind": kind, "instant": instant_ref(e), **r}
                probes.append(p)
                log(fx, p["id"], kind, t, "->", p["row_count"] if p["error"] is None else p["error"]["class"], "(%.1fs)" % secs)
        writer = summary.get("hudi_release")
        name = "timetravel_probes.json" if writer == a.reader else "timetravel_probes_reader-%s.json" % a.reader
        dump(os.path.join(fixture_dir, "oracle", name), {
            "reader": a.reader, "reader_spark": spark.version, "fixture": fx, "writer": writer,
            "tableVersion": summary.get("table_version"), "query": "spark.read.format('hudi').option('as.of.instant', T)",
            "active_timeline": [instant_ref(x) for x in tl], "probes": probes})
        shutil.rmtree(work)
    spark.stop()


if __name__ == "__main__":
    main()
