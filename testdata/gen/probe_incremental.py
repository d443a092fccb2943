#!/usr/bin/env python3
"""Incremental-read probes: what a real Hudi reader returns for a given begin instant time.

One invocation = one Spark application = one reader release, reading one or more committed fixtures
(read only: each table.zip is unzipped into a scratch directory and read there):

  probe_incremental.py --reader 1.0.2 --bundle <hudi-spark bundle jar> --out-name incremental_probes.json \
      testdata/fixtures/incr-1.0.2 testdata/fixtures/cow-services-1.0.2 ...

writes <fixture>/oracle/<out-name> for every fixture given. Format: testdata/README.md ("incremental_probes").
Never run from `go test`/CI; run.sh calls it after generating the fixtures.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import time

from pyspark.sql import SparkSession

sys.dont_write_bytecode = True  # no __pycache__ in testdata/gen
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import read_timeline, read_hoodie_props, exc_text, dump, list_files  # noqa: E402

WRITE_ACTIONS = ("commit", "deltacommit", "replacecommit")
FALLBACK_KEY = "hoodie.datasource.read.incr.fallback.fulltablescan.enable"
BEGIN_KEY = "hoodie.datasource.read.begin.instanttime"
END_KEY = "hoodie.datasource.read.end.instanttime"
FMT = "%Y%m%d%H%M%S%f"


def log(*a):
    print("[probe]", *a, flush=True)


def shift_ms(t, ms):
    """Instant time +/- ms, same 17-digit yyyyMMddHHmmssSSS form (None for other forms)."""
    if t is None or not re.fullmatch(r"\d{17}", t):
        return None
    d = datetime.datetime.strptime(t[:14] + t[14:] + "000", FMT) + datetime.timedelta(milliseconds=ms)
    return d.strftime(FMT)[:17]


def first_line(s):
    if s is None:
        return None
    s = str(s).strip()
    return s.splitlines()[0] if s else s


def spark_session(reader, bundle, scratch):
    b = (SparkSession.builder.master("local[2]").appName("hudiscope-probe-" + reader)
         .config("spark.jars", bundle)
         .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
         .config("spark.sql.extensions", "org.apache.spark.sql.hudi.HoodieSparkSessionExtension")
         .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.hudi.catalog.HoodieCatalog")
         .config("spark.sql.shuffle.partitions", "2")
         .config("spark.default.parallelism", "2")
         .config("spark.ui.enabled", "false")
         .config("spark.driver.memory", "2g")
         .config("spark.eventLog.enabled", "false")
         .config("spark.sql.warehouse.dir", os.path.join(scratch, "_warehouse"))
         .config("spark.driver.extraJavaOptions", "-Dderby.system.home=" + os.path.join(scratch, "_derby")))
    if not re.match(r"0\.(1[012]|[0-9])\.", reader):
        b = b.config("spark.kryo.registrator", "org.apache.spark.HoodieSparkKryoRegistrar")
    else:
        b = (b.config("spark.sql.legacy.parquet.nanosAsLong", "false")
             .config("spark.hadoop.spark.sql.legacy.parquet.nanosAsLong", "false"))
    s = b.getOrCreate()
    s.sparkContext.setLogLevel("ERROR")
    return s


def row_values(df):
    """Every row as {column: value}, meta columns other than commit time/record key/partition dropped,
    ordered by record key then commit time (keeps deleted-key resurrection and stale values visible)."""
    drop = {"_hoodie_commit_seqno", "_hoodie_file_name"}
    cols = [c for c in df.columns if c not in drop]
    out = []
    for r in df.select(*cols).collect():
        out.append({c: (v.isoformat() if hasattr(v, "isoformat") else v) for c, v in zip(cols, r)})
    def k(x):
        rk = x.get("_hoodie_record_key") or ""
        return (len(rk), rk, x.get("_hoodie_commit_time") or "")
    return sorted(out, key=k)


class Prober:
    def __init__(self, spark, reader, rows=False):
        self.spark = spark
        self.reader = reader
        self.is1x = not reader.startswith("0.")
        self.rows = rows  # --rows: also record every returned row's values (small tables only)

    def read(self, path, begin, end=None, fallback=None):
        opts = {"hoodie.datasource.query.type": "incremental", BEGIN_KEY: begin}
        if end is not None:
            opts[END_KEY] = end
        if fallback is not None:
            opts[FALLBACK_KEY] = "true" if fallback else "false"
        out = {"options": opts}
        t0 = time.time()
        try:
            df = self.spark.read.format("hudi").options(**opts).load(path)
            rows = df.groupBy("_hoodie_commit_time").count().collect()
            per = {r[0]: int(r[1]) for r in rows}
            out["row_count"] = sum(per.values())
            out["commit_times"] = sorted(per)
            out["rows_per_commit_time"] = dict(sorted(per.items()))
            if self.rows:
                out["rows"] = row_values(df)
            out["error"] = None
        except Exception as e:
            x = exc_text(e)
            out["row_count"] = None
            out["commit_times"] = None
            out["rows_per_commit_time"] = None
            out["error"] = {
                "class": x.get("java_class") or x.get("python_type"),
                "message": first_line(x.get("java_message")) or first_line(x.get("text")),
                "root_class": x.get("root_class"),
                "root_message": first_line(x.get("root_message")),
            }
        out["seconds"] = round(time.time() - t0, 2)
        return out


def instant_ref(e):
    if e is None:
        return None
    r = {"requested_time": e["requested_time"], "completion_time": e.get("completion_time"),
         "action": e["action"], "state": e["state"]}
    if e.get("planned_as"):
        r["planned_as"] = e["planned_as"]
    return r


def ensure_bootstrap_source(fixture_dir, summary):
    """A bootstrapped table's index names its source files by absolute path: put the shipped source back
    at that path (read-only use) when it is not there."""
    root = summary.get("bootstrap_source_root")
    if not root or os.path.isdir(root):
        return
    os.makedirs(os.path.dirname(root), exist_ok=True)
    subprocess.check_call(["unzip", "-q", os.path.join(fixture_dir, summary["bootstrap_source_zip"]), "-d",
                           os.path.dirname(root)])


def scratch_copy(scratch, fixture_dir):
    """Unzips a committed fixture's table.zip into scratch/<fixture> (replacing an older copy): every
    probe reads such a copy, never the committed table. Returns (fixture name, summary.json, table path)."""
    fx = os.path.basename(os.path.abspath(fixture_dir))
    summary = json.load(open(os.path.join(fixture_dir, "oracle", "summary.json")))
    work = os.path.join(scratch, fx)
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(work)
    subprocess.check_call(["unzip", "-q", os.path.join(fixture_dir, "table.zip"), "-d", work])
    return fx, summary, os.path.join(work, summary["table_dir"])


def probe_fixture(prober, fixture_dir, scratch, out_name, with_end):
    fx, summary, path = scratch_copy(scratch, fixture_dir)
    ensure_bootstrap_source(fixture_dir, summary)
    before = list_files(path)
    props = read_hoodie_props(path)
    tl = read_timeline(path)
    done = [e for e in tl if e["state"] == "COMPLETED"]
    writes = [e for e in done if e["action"] in WRITE_ACTIONS]
    others = [e for e in done if e["action"] not in WRITE_ACTIONS]
    pending = [e for e in tl if e["state"] != "COMPLETED"]
    archived = []
    ap = os.path.join(fixture_dir, "oracle", "java_archived_timeline.json")
    if os.path.isfile(ap):
        archived = [i for i in json.load(open(ap))["instants"]
                    if i.get("state") == "COMPLETED" and i.get("action") in WRITE_ACTIONS]
    rolled_back = []
    for line in summary.get("write_log", []):
        m = re.search(r"pending after failure: \[\('(\d+)', '(\w+)', '(\w+)'\)", line)
        if m:
            rolled_back.append({"requested_time": m.group(1), "completion_time": None,
                                "action": m.group(2), "state": "ROLLED_BACK (pending when the write failed)"})

    probes = []

    def add(kind, begin, inst=None, end=None, fallback=None, note=None):
        if begin is None:
            return
        r = prober.read(path, begin, end=end, fallback=fallback)
        p = {"id": "p%03d" % (len(probes) + 1), "kind": kind, "begin": begin, "end": end,
             "fallback_full_table_scan": fallback, "instant": instant_ref(inst)}
        if note:
            p["note"] = note
        secs = r.pop("seconds")
        p.update(r)
        probes.append(p)
        log(fx, p["id"], kind, begin, end or "", fallback, "->",
            p["row_count"] if p["error"] is None else p["error"]["class"], "(%.1fs)" % secs)

    for e in writes:
        req, comp = e["requested_time"], e.get("completion_time")
        add("requested", req, e)
        add("requested-1ms", shift_ms(req, -1), e)
        add("requested+1ms", shift_ms(req, 1), e)
        if comp:
            add("completion", comp, e)
            add("completion-1ms", shift_ms(comp, -1), e)
            add("completion+1ms", shift_ms(comp, 1), e)
    for e in others:  # savepoint (shares its commit's requested time), clean, rollback
        add(e["action"] + "_requested", e["requested_time"], e)
        if e.get("completion_time"):
            add(e["action"] + "_completion", e["completion_time"], e)
    for e in pending:
        add("pending_" + e["action"] + "_requested", e["requested_time"], e)
    for e in rolled_back:
        add("rolled_back_write_requested", e["requested_time"], e)
    first = min(e["requested_time"] for e in tl)
    first_inst = [e for e in tl if e["requested_time"] == first][0]
    for fb in (None, True, False):
        add("before_active_timeline:000", "000", None, fallback=fb)
        add("before_active_timeline:first_active-1ms", shift_ms(first, -1), first_inst, fallback=fb)
        if archived:
            last = max(archived, key=lambda i: i["requested_time"])
            a = {"requested_time": last["requested_time"], "completion_time": last.get("completion_time"),
                 "action": last["action"], "state": "COMPLETED (archived)"}
            add("archived_last_write_requested", a["requested_time"], a, fallback=fb)
            if a["completion_time"] and re.fullmatch(r"\d{17}", str(a["completion_time"])):
                add("archived_last_write_completion", a["completion_time"], a, fallback=fb)
    if prober.archived_all:
        # issue 29: every archived write's requested and completion time, every active write with the
        # fallback option set both ways, and begin 000 with an end at a few writes (archived ones included)
        arch = sorted(archived, key=lambda i: i["requested_time"])
        for i in arch:
            a = {"requested_time": i["requested_time"], "completion_time": i.get("completion_time"),
                 "action": i["action"], "state": "COMPLETED (archived)"}
            for fb in (None, True, False):
                add("archived_requested", a["requested_time"], a, fallback=fb)
                ct = a["completion_time"]
                if ct and re.fullmatch(r"\d{17}", str(ct)):
                    add("archived_completion", ct, a, fallback=fb)
        for e in writes:
            for fb in (True, False):
                add("requested", e["requested_time"], e, fallback=fb)
                if e.get("completion_time"):
                    add("completion", e["completion_time"], e, fallback=fb)
        pool = [dict(requested_time=i["requested_time"], completion_time=i.get("completion_time"), action=i["action"],
                     state="COMPLETED (archived)") for i in arch] + writes
        picks = pool[1::3] if len(pool) > 6 else pool
        for e in picks:
            for fb in (None, False):
                add("end=requested (begin 000)", "000", e, end=e["requested_time"], fallback=fb)
                ct = e.get("completion_time")
                if ct and re.fullmatch(r"\d{17}", str(ct)):
                    add("end=completion (begin 000)", "000", e, end=ct, fallback=fb)
        if len(pool) > 2:  # an archived begin with an end in the active timeline
            b, e2 = pool[1], pool[-2]
            add("begin=requested,end=requested", b["requested_time"], b, end=e2["requested_time"])
            if b.get("completion_time") and e2.get("completion_time") and prober.is1x:
                add("begin=completion,end=completion", b["completion_time"], b, end=e2["completion_time"])
    if with_end:
        for e in writes:
            add("end=requested (begin 000)", "000", e, end=e["requested_time"])
            if e.get("completion_time"):
                add("end=completion (begin 000)", "000", e, end=e["completion_time"])
            add("begin=requested,end=requested", e["requested_time"], e, end=e["requested_time"])
            if e.get("completion_time"):
                add("begin=completion,end=completion", e["completion_time"], e, end=e["completion_time"])
    after = list_files(path)
    changed = sorted(set(after.items()) ^ set(before.items()))
    res = {
        "reader": prober.reader,
        "reader_spark": prober.spark.version,
        "table": summary["table_name"],
        "fixture": fx,
        "writer": summary["hudi_release"],
        "tableVersion": int(props.get("hoodie.table.version", "0")),
        "tableType": props.get("hoodie.table.type"),
        "query": "spark.read.format('hudi').option('hoodie.datasource.query.type','incremental')"
                 ".option('%s', begin)[.option('%s', end)][.option('%s', fallback)].load(path)"
                 " -> groupBy(_hoodie_commit_time).count()" % (BEGIN_KEY, END_KEY, FALLBACK_KEY),
        "snapshot_row_count": summary.get("row_count"),
        "active_timeline": [instant_ref(e) for e in tl],
        "archived_write_instants": len(archived),
        "rolled_back_writes": rolled_back,
        "files_changed_by_reads": [c[0] for c in changed],
        "probes": probes,
    }
    if prober.rows:
        res["rows_note"] = ("rows: every returned row, meta columns except _hoodie_commit_seqno/_hoodie_file_name, "
                            "ordered by record key, commit time")
    dump(os.path.join(fixture_dir, "oracle", out_name), res)
    shutil.rmtree(work)
    log("wrote", os.path.join(fixture_dir, "oracle", out_name), len(probes), "probes")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reader", required=True, help="Hudi release of the bundle")
    ap.add_argument("--bundle", required=True)
    ap.add_argument("--out-name", default="incremental_probes.json")
    ap.add_argument("--scratch", default=os.path.join(os.environ.get("HUDISCOPE_GEN_WORK", "/tmp/hudiscope-gen"), "probe"))
    ap.add_argument("--end-probes-max-writes", type=int, default=6,
                    help="add end-instant probes for fixtures with at most this many active write instants")
    ap.add_argument("--rows", action="store_true", help="record every returned row's values")
    ap.add_argument("--archived-all", action="store_true",
                    help="probe every archived write's requested/completion time and fallback on/off everywhere")
    ap.add_argument("fixtures", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.scratch, exist_ok=True)
    spark = spark_session(a.reader, a.bundle, a.scratch)
    prober = Prober(spark, a.reader, rows=a.rows)
    prober.archived_all = a.archived_all
    failed = 0
    for fx in a.fixtures:
        try:
            s = json.load(open(os.path.join(fx, "oracle", "summary.json")))
            n_writes = sum(1 for e in s["active_timeline"] if e["state"] == "COMPLETED" and e["action"] in WRITE_ACTIONS)
            probe_fixture(prober, fx, a.scratch, a.out_name, n_writes <= a.end_probes_max_writes)
        except Exception as e:
            failed += 1
            log("FAILED", fx, e)
    spark.stop()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
