#!/usr/bin/env python3
"""Key-story probes (issue 32 item 8): what a real Hudi reader says about one record key.

One invocation = one Spark application = one reader release, reading committed fixtures (read only:
each table.zip is unzipped into a scratch directory):

  probe_key.py --reader 1.2.0 --bundle <hudi-spark bundle jar> testdata/fixtures/index-bucket-1.2.0:8,9,10 ...

writes <fixture>/oracle/key_story.json: for each key, the snapshot row (every column; its
_hoodie_file_name names the file group it lives in) and, as of every completed write's requested time
(time travel, `as.of.instant`), the key's row then or null — the versions a reader saw, each with the
_hoodie_commit_time that wrote it. Never run from `go test`/CI.
"""
import argparse
import os
import shutil
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import read_timeline, dump  # noqa: E402
from probe_incremental import spark_session, WRITE_ACTIONS, log, scratch_copy  # noqa: E402
import json  # noqa: E402


def key_rows(df, key):
    rows = df.where(df["_hoodie_record_key"] == key).collect()
    return [{c: (v.isoformat() if hasattr(v, "isoformat") else v) for c, v in r.asDict().items()} for r in rows]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reader", required=True)
    ap.add_argument("--bundle", required=True)
    ap.add_argument("--scratch", default=os.path.join(os.environ.get("HUDISCOPE_GEN_WORK", "/tmp/hudiscope-gen"), "probe-key"))
    ap.add_argument("fixtures", nargs="+", help="FIXTURE_DIR:KEY,KEY,...")
    a = ap.parse_args()
    os.makedirs(a.scratch, exist_ok=True)
    spark = spark_session(a.reader, a.bundle, a.scratch)
    for arg in a.fixtures:
        fixture_dir, keys = arg.rsplit(":", 1)
        keys = keys.split(",")
        fx, summary, path = scratch_copy(a.scratch, fixture_dir)
        tl = read_timeline(path)
        writes = [e for e in tl if e["state"] == "COMPLETED" and e["action"] in WRITE_ACTIONS]
        snap = spark.read.format("hudi").load(path)
        out = []
        for k in keys:
            cur = key_rows(snap, k)
            as_of = []
            for e in writes:
                df = spark.read.format("hudi").option("as.of.instant", e["requested_time"]).load(path)
                rows = key_rows(df, k)
                as_of.append({"as_of": e["requested_time"], "action": e["action"],
                              "completion_time": e.get("completion_time"), "rows": rows})
            log(fx, k, "current:", len(cur), "row(s)")
            out.append({"key": k, "current": cur, "as_of": as_of})
        dump(os.path.join(fixture_dir, "oracle", "key_story.json"), {
            "reader": a.reader, "reader_spark": spark.version, "fixture": fx,
            "query": "spark.read.format('hudi')[.option('as.of.instant', T)].load(path).where(_hoodie_record_key = KEY)",
            "keys": out})
        shutil.rmtree(work)
    spark.stop()


if __name__ == "__main__":
    main()
