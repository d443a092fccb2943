#!/usr/bin/env python3
"""Metadata-table probes: what Hudi's own Spark procedures say about a fixture's metadata table.

One invocation = one Spark application = one reader release, reading committed fixtures (read only:
each table.zip is unzipped into a scratch directory):

  probe_metadata.py --reader 1.2.0 --bundle <hudi-spark bundle jar> testdata/fixtures/cow-services-1.2.0 ...

writes <fixture>/oracle/metadata_procedures.json with the rows of
  CALL show_metadata_table_partitions(table => T)   (T: the copy registered as an external table)
  CALL show_metadata_table_files(table => T, partition => P)   for every partition P it listed
  CALL show_metadata_table_stats(table => T)
  CALL validate_metadata_table_files(table => T, verbose => true)
(each one's error instead when it fails). `hudiscope metadata validate-files|stats` are compared with it by
cli/metadata_oracle_test.go. Never run from `go test`/CI.
"""
import argparse
import os
import shutil
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import exc_text, dump  # noqa: E402
from probe_incremental import spark_session, first_line, log, scratch_copy  # noqa: E402
import json  # noqa: E402


def call(spark, sql):
    t0 = time.time()
    try:
        rows = [r.asDict() for r in spark.sql(sql).collect()]
        out = {"sql": sql, "rows": rows, "error": None}
    except Exception as e:
        x = exc_text(e)
        out = {"sql": sql, "rows": None, "error": {
            "class": x.get("java_class") or x.get("python_type"),
            "message": first_line(x.get("java_message")) or first_line(x.get("text"))}}
    log(sql, "->", len(out["rows"]) if out["rows"] is not None else out["error"]["class"], "(%.1fs)" % (time.time() - t0))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reader", required=True)
    ap.add_argument("--bundle", required=True)
    ap.add_argument("--scratch", default=os.path.join(os.environ.get("HUDISCOPE_GEN_WORK", "/tmp/hudiscope-gen"), "probe-mdt"))
    ap.add_argument("fixtures", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.scratch, exist_ok=True)
    spark = spark_session(a.reader, a.bundle, a.scratch)
    for fixture_dir in a.fixtures:
        fx, summary, path = scratch_copy(a.scratch, fixture_dir)
        # The metadata procedures take a catalog table name (not a path): register the scratch copy
        # as an external table of Spark's in-memory catalog.
        q = "mdt_" + "".join(c if c.isalnum() else "_" for c in fx)
        spark.sql("CREATE TABLE %s USING hudi LOCATION '%s'" % (q, path))
        parts = call(spark, "CALL show_metadata_table_partitions(table => '%s')" % q)
        files = {}
        for r in parts["rows"] or []:
            p = r.get("partition")
            files[p] = call(spark, "CALL show_metadata_table_files(table => '%s', partition => '%s')" % (q, p))
        stats = call(spark, "CALL show_metadata_table_stats(table => '%s')" % q)
        validate = call(spark, "CALL validate_metadata_table_files(table => '%s', verbose => true)" % q)
        spark.sql("DROP TABLE %s" % q)  # external: drops the catalog entry only
        dump(os.path.join(fixture_dir, "oracle", "metadata_procedures.json"), {
            "reader": a.reader, "reader_spark": spark.version, "fixture": fx, "writer": summary.get("hudi_release"),
            "tableVersion": summary.get("table_version"),
            "show_metadata_table_partitions": parts, "show_metadata_table_files": files,
            "show_metadata_table_stats": stats, "validate_metadata_table_files": validate})
        shutil.rmtree(work)
    spark.stop()


if __name__ == "__main__":
    main()
