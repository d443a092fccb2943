#!/usr/bin/env python3
"""Describe probes: what a real Hudi release says of a table's properties and schema.

One invocation = one Spark application = one reader release, reading committed fixtures (read only:
each table.zip is unzipped into a scratch directory):

  probe_describe.py --reader 1.1.1 --bundle <hudi-spark bundle jar> testdata/fixtures/schema-evo-mor-1.1.1 ...

writes <fixture>/oracle/describe.json: CALL show_table_properties (every hoodie.properties entry as the
release reads it), DESCRIBE TABLE (columns, Spark types), the snapshot read's schema (nullability), and
CALL show_commit_extra_metadata(instant_time => T, metadata_key => 'schema') for every completed write T on
the active timeline (the writer schema each recorded).
Never run from `go test`/CI.
"""
import argparse
import json
import os
import shutil
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import exc_text, dump, read_timeline  # noqa: E402
from probe_incremental import spark_session, log, scratch_copy  # noqa: E402


def rows(spark, q):
    try:
        return [r.asDict() for r in spark.sql(q).collect()], None
    except Exception as e:
        x = exc_text(e)
        return None, {"class": x.get("java_class") or x.get("python_type"),
                      "message": (x.get("java_message") or x.get("text") or "").splitlines()[0][:300]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reader", required=True)
    ap.add_argument("--bundle", required=True)
    ap.add_argument("--scratch", default=os.path.join(os.environ.get("HUDISCOPE_GEN_WORK", "/tmp/hudiscope-gen"), "probe-describe"))
    ap.add_argument("fixtures", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.scratch, exist_ok=True)
    spark = spark_session(a.reader, a.bundle, a.scratch)
    for fixture_dir in a.fixtures:
        fx, summary, path = scratch_copy(a.scratch, fixture_dir)
        tname = "describe_" + fx.replace("-", "_").replace(".", "_")
        spark.sql("DROP TABLE IF EXISTS %s" % tname)
        spark.sql("CREATE TABLE %s USING hudi LOCATION '%s'" % (tname, path))
        props, props_err = rows(spark, "CALL show_table_properties(table => '%s', limit => 1000)" % tname)
        desc, desc_err = rows(spark, "DESCRIBE TABLE %s" % tname)
        # one call per completed write on the active timeline (without instant_time the procedure
        # answers for the newest write only)
        extra, extra_err = [], None
        for e in read_timeline(path):
            if e["state"] != "COMPLETED" or e["action"] not in ("commit", "deltacommit", "replacecommit"):
                continue
            r, err = rows(spark, "CALL show_commit_extra_metadata(table => '%s', limit => 1000, instant_time => '%s', "
                                 "metadata_key => 'schema')" % (tname, e["requested_time"]))
            if err:
                extra_err = err
            for x in r or []:
                x["completion_time"] = e.get("completion_time")
                extra.append(x)
        cols = []
        for r in desc or []:
            if not r["col_name"] or r["col_name"].startswith("#"):
                break  # the partition information section repeats the partition columns
            cols.append({"col_name": r["col_name"], "data_type": r["data_type"]})
        schema = json.loads(spark.read.format("hudi").load(path).schema.json())
        out = {"reader": a.reader, "reader_spark": spark.version, "fixture": fx, "writer": summary.get("hudi_release"),
               "show_table_properties": props, "show_table_properties_error": props_err,
               "describe": cols,
               "describe_error": desc_err,
               "read_schema": schema,
               "commit_schemas": [{"instant_time": r.get("instant_time"), "completion_time": r.get("completion_time"),
                                   "action": r.get("action"),
                                   "schema": json.loads(r["metadata_value"]) if r.get("metadata_value") else None}
                                  for r in (extra or [])],
               "commit_schemas_error": extra_err}
        dump(os.path.join(fixture_dir, "oracle", "describe.json"), out)
        log(fx, "properties", len(props or []), "columns", len(out["describe"]), "commit schemas", len(out["commit_schemas"]),
            props_err, desc_err, extra_err)
        spark.sql("DROP TABLE IF EXISTS %s" % tname)
        shutil.rmtree(work)
    spark.stop()


if __name__ == "__main__":
    main()
