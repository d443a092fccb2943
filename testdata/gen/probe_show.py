#!/usr/bin/env python3
"""Write-statistics probes: what Hudi's own procedures say about each commit (the oracle of `hudiscope show`).

One invocation = one Spark application = one reader release, reading committed fixtures (read only: each
table.zip is unzipped into a scratch directory, registered there as an external table):

  probe_show.py --reader 1.2.0 --bundle <hudi-spark bundle jar> testdata/fixtures/cow-services-1.2.0 ...

writes <fixture>/oracle/show_probes.json: for every completed commit, deltacommit and replacecommit of the
active timeline, CALL show_commit_partitions, show_commit_files and show_commit_write_stats (instant_time =>
its requested time); once per table CALL stats_wa and stats_file_sizes (partition_path => '*', the fixtures'
one-level partitions). Each result is {"columns", "rows"} as Spark returned them, or {"error"}. Never run
from `go test`/CI.
"""
import argparse
import os
import shutil
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import read_timeline, exc_text, dump, df_json  # noqa: E402
from probe_incremental import spark_session, instant_ref, WRITE_ACTIONS, log, scratch_copy  # noqa: E402
import json  # noqa: E402


def call(spark, q):
    try:
        return df_json(spark.sql(q))
    except Exception as e:
        x = exc_text(e)
        return {"error": {"class": x.get("java_class") or x.get("python_type"),
                          "message": (x.get("java_message") or x.get("text") or "").split("\n")[0]}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reader", required=True)
    ap.add_argument("--bundle", required=True)
    ap.add_argument("--scratch", default=os.path.join(os.environ.get("HUDISCOPE_GEN_WORK", "/tmp/hudiscope-gen"), "probe-show"))
    ap.add_argument("fixtures", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.scratch, exist_ok=True)
    spark = spark_session(a.reader, a.bundle, a.scratch)
    for fixture_dir in a.fixtures:
        fx, summary, path = scratch_copy(a.scratch, fixture_dir)
        name = "probe_show_" + fx.replace("-", "_").replace(".", "_")
        spark.sql("DROP TABLE IF EXISTS %s" % name)
        spark.sql("CREATE TABLE %s USING hudi LOCATION '%s'" % (name, path))
        tl = read_timeline(path)
        writes = [e for e in tl if e["state"] == "COMPLETED" and e["action"] in WRITE_ACTIONS]
        commits = []
        for e in writes:
            t = e["requested_time"]
            args = "table => '%s', instant_time => '%s', limit => 100000" % (name, t)
            c = {"instant": instant_ref(e)}
            for proc in ("show_commit_partitions", "show_commit_files", "show_commit_write_stats"):
                c[proc] = call(spark, "CALL %s(%s)" % (proc, args))
            log(fx, t, e["action"], {k: len(v.get("rows", [])) if "rows" in v else "error" for k, v in c.items() if k != "instant"})
            commits.append(c)
        out = {"reader": a.reader, "reader_spark": spark.version, "fixture": fx, "writer": summary.get("hudi_release"),
               "tableVersion": summary.get("table_version"),
               "active_timeline": [instant_ref(x) for x in tl], "commits": commits,
               "stats_wa": call(spark, "CALL stats_wa(table => '%s', limit => 100000)" % name),
               "stats_file_sizes": call(spark, "CALL stats_file_sizes(table => '%s', partition_path => '*', limit => 100000)" % name)}
        dump(os.path.join(fixture_dir, "oracle", "show_probes.json"), out)
        spark.sql("DROP TABLE IF EXISTS %s" % name)
        shutil.rmtree(work)
    spark.stop()


if __name__ == "__main__":
    main()
