#!/usr/bin/env python3
"""Generate one hudiscope test fixture with real Spark + real Hudi.

One invocation = one Spark application = one fixture directory:

  testdata/fixtures/<fixture>/
      table.zip            the table; single top-level folder = table name
      writer.properties    the Hudi writer options (Java properties syntax)
      <event log>          Spark event log of this run (plain, .lz4, .zstd, .snappy or eventlog_v2_* dir)
      oracle/*.json        what Spark/Hudi itself says about the table

Never run from `go test`/CI; see testdata/README.md and run.sh.
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
import traceback
import zipfile

from pyspark.sql import SparkSession, Row
from pyspark.sql import functions as F
from pyspark.sql.types import StructType, StructField, IntegerType, LongType, StringType, DecimalType, DateType, TimestampType, ArrayType, MapType, BinaryType, DoubleType

SCHEMA = StructType([
    StructField("id", IntegerType(), False),
    StructField("name", StringType(), True),
    StructField("ts", LongType(), False),
])
PSCHEMA = StructType([
    StructField("id", IntegerType(), False),
    StructField("name", StringType(), True),
    StructField("ts", LongType(), False),
    StructField("dt", StringType(), False),
])

# Spark writes Parquet columns nullable; upserts into a bootstrapped table must use the same (nullable) schema
# (1.1.1: "SchemaCompatibilityException: Field id has no default value and is non-nullable" otherwise)
PSCHEMA_NULLABLE = StructType([StructField(f.name, f.dataType, True) for f in PSCHEMA.fields])

MOR_NOTE = ("\nWrites 17-19 override: hoodie.compact.inline=false, hoodie.compact.schedule.inline=true;"
            "\nwrites 20-21: hoodie.compact.inline=false, hoodie.compact.schedule.inline=false.")


def log(*a):
    print("[gen]", *a, flush=True)


# ---------------------------------------------------------------- helpers

def java_props_escape(s, key=False):
    out = []
    for i, ch in enumerate(str(s)):
        if ch in "\\":
            out.append("\\\\")
        elif ch in "=:#!":
            out.append("\\" + ch)
        elif ch == " " and (key or i == 0):
            out.append("\\ ")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) > 126 or ord(ch) < 32:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    return "".join(out)


def write_props(path, props, header):
    with open(path, "w") as f:
        for line in header.splitlines():
            f.write("# " + line + "\n")
        for k in sorted(props):
            f.write("%s=%s\n" % (java_props_escape(k, True), java_props_escape(props[k])))


def jval(v):
    """Make a Spark value JSON-friendly."""
    if isinstance(v, Row):
        return {k: jval(x) for k, x in v.asDict(recursive=False).items()}
    if isinstance(v, (list, tuple)):
        return [jval(x) for x in v]
    if isinstance(v, dict):
        return {str(k): jval(x) for k, x in v.items()}
    if isinstance(v, (datetime.datetime, datetime.date)):
        return v.isoformat()
    if isinstance(v, (bytes, bytearray)):
        return v.hex()
    if hasattr(v, "__float__") and not isinstance(v, (int, float, bool)):
        return float(v)
    return v


def df_json(df, order_by=None):
    if order_by:
        df = df.orderBy(*order_by)
    rows = df.collect()
    return {"columns": df.columns, "rows": [[jval(x) for x in r] for r in rows]}


def exc_text(e):
    """Java exception class + message from a py4j / pyspark error."""
    out = {"python_type": type(e).__name__}
    jexc = getattr(e, "java_exception", None)
    if jexc is not None:
        try:
            out["java_class"] = jexc.getClass().getName()
            out["java_message"] = jexc.getMessage()
            root = jexc
            while root.getCause() is not None and root.getCause() != root:
                root = root.getCause()
            out["root_class"] = root.getClass().getName()
            out["root_message"] = root.getMessage()
        except Exception:  # pragma: no cover
            pass
    # pyspark's own rendering (first lines only; no JVM stack)
    txt = str(e)
    out["text"] = "\n".join(txt.splitlines()[:6])
    return out


def dump(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=False, default=str)
        f.write("\n")


TL2 = re.compile(r"^(\d+)(?:_(\d+))?\.([a-z_]+)(?:\.(requested|inflight))?$")


def read_timeline(table_path):
    """Active timeline straight from the file names (what a reader sees)."""
    props = read_hoodie_props(table_path)
    layout = int(props.get("hoodie.timeline.layout.version", "1"))
    ver = int(props.get("hoodie.table.version", "0"))
    tdir = os.path.join(table_path, ".hoodie")
    rel = ".hoodie/"
    if ver >= 8:
        tdir = os.path.join(tdir, props.get("hoodie.timeline.path", "timeline"))
        rel = ".hoodie/" + props.get("hoodie.timeline.path", "timeline") + "/"
    inst = {}
    for name in sorted(os.listdir(tdir)):
        p = os.path.join(tdir, name)
        if os.path.isdir(p) or name.endswith(".crc") or name.startswith("hoodie.properties"):
            continue
        m = TL2.match(name)
        if not m:
            continue
        req, comp, action, state = m.group(1), m.group(2), m.group(3), m.group(4)
        if action == "inflight" and state is None:  # <ts>.inflight = commit inflight
            action, state = "commit", "inflight"
        # NB: key by (requested time, action): a savepoint instant reuses the requested time of the
        # commit it savepoints, so two completed files can share one requested time.
        e = inst.setdefault((req, action), {"requested_time": req, "action": action, "files": []})
        e["files"].append(rel + name)
        if state is None:
            e["state"] = "COMPLETED"
            e["completion_time"] = comp
            e["completed_file"] = rel + name
            e["completed_file_mtime"] = datetime.datetime.fromtimestamp(
                os.path.getmtime(p), datetime.timezone.utc).isoformat()
        elif e.get("state") != "COMPLETED":
            if state == "inflight" or e.get("state") is None:
                e["state"] = state.upper()
    # clustering completes as replacecommit, compaction as commit, logcompaction as deltacommit
    for (req, action), done_action in list(((k, {"clustering": "replacecommit", "compaction": "commit",
                                                  "logcompaction": "deltacommit"}.get(k[1])) for k in inst)):
        if done_action and inst.get((req, done_action), {}).get("state") == "COMPLETED":
            pend = inst.pop((req, action))
            tgt = inst[(req, done_action)]
            tgt["files"] = sorted(tgt["files"] + pend["files"])
            tgt["planned_as"] = action
    out = [inst[k] for k in sorted(inst)]
    for e in out:
        e.setdefault("completion_time", None)
    return out


def read_hoodie_props(table_path):
    props = {}
    with open(os.path.join(table_path, ".hoodie", "hoodie.properties")) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            k, _, v = line.partition("=")
            props[k.replace("\\:", ":").replace("\\=", "=")] = v.replace("\\:", ":").replace("\\=", "=").replace("\\\\", "\\")
    return props


def count_by(timeline, pred):
    out = {}
    for e in timeline:
        if pred(e):
            out[e["action"]] = out.get(e["action"], 0) + 1
    return dict(sorted(out.items()))


def zip_table(table_path, zip_path):
    parent, name = os.path.split(table_path.rstrip("/"))
    if os.path.exists(zip_path):
        os.remove(zip_path)
    subprocess.check_call(["zip", "-q", "-r", "-X", zip_path, name], cwd=parent)


def args_off(a):
    """--eventlog-codec off: no event log at all (small fixtures; the repository is the size budget)."""
    return a.eventlog_codec == "off"


def list_files(table_path):
    out = {}
    for root, dirs, files in os.walk(table_path):
        for fn in files:
            p = os.path.join(root, fn)
            out[os.path.relpath(p, table_path)] = os.path.getsize(p)
    return dict(sorted(out.items()))


# ---------------------------------------------------------------- generator

class Gen:
    def __init__(self, args):
        self.a = args
        self.release = args.hudi_release
        self.is1x = not self.release.startswith("0.")
        self.fixture_dir = os.path.abspath(args.out)
        self.work = os.path.abspath(args.work)
        self.oracle = os.path.join(self.fixture_dir, "oracle")
        if os.path.exists(self.fixture_dir):
            shutil.rmtree(self.fixture_dir)
        os.makedirs(self.oracle)
        os.makedirs(self.work, exist_ok=True)
        self.errors = []
        self.notes = []
        self.spark = self._spark()

    def _spark(self):
        b = (SparkSession.builder.master("local[2]").appName("hudiscope-gen-" + self.a.fixture)
             .config("spark.jars", self.a.bundle)
             .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
             .config("spark.sql.extensions", "org.apache.spark.sql.hudi.HoodieSparkSessionExtension")
             .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.hudi.catalog.HoodieCatalog")
             .config("spark.sql.shuffle.partitions", "2")
             .config("spark.default.parallelism", "2")
             .config("spark.ui.enabled", "false")
             .config("spark.driver.memory", "2g")
             .config("spark.sql.warehouse.dir", os.path.join(self.work, "_warehouse"))
             .config("spark.driver.extraJavaOptions", "-Dderby.system.home=" + os.path.join(self.work, "_derby"))
             .config("spark.eventLog.enabled", "false" if args_off(self.a) else "true")
             .config("spark.eventLog.dir", "file://" + self.fixture_dir))
        if self.a.scenario == "eventlog-pair":  # recorded in the event log's Spark Properties
            b = b.config("hoodie.upsert.shuffle.parallelism", {"before": "200", "after": "2"}[self.a.variant])
        if not re.match(r"0\.(1[012]|[0-9])\.", self.release):  # registrar exists since 0.13
            b = b.config("spark.kryo.registrator", "org.apache.spark.HoodieSparkKryoRegistrar")
        else:  # Hudi 0.12 was built on Spark 3.3.1; Spark 3.3.2+ readers need this key in the Hadoop conf
            b = (b.config("spark.sql.legacy.parquet.nanosAsLong", "false")
                 .config("spark.hadoop.spark.sql.legacy.parquet.nanosAsLong", "false"))
        codec = self.a.eventlog_codec
        if codec == "off":
            pass
        elif codec in ("lz4", "zstd", "snappy"):
            b = b.config("spark.eventLog.compress", "true").config("spark.eventLog.compression.codec", codec)
        else:
            b = b.config("spark.eventLog.compress", "false")
        if self.a.eventlog_rolling:
            b = (b.config("spark.eventLog.rolling.enabled", "true")
                 .config("spark.eventLog.rolling.maxFileSize", "10m"))
        s = b.getOrCreate()
        s.sparkContext.setLogLevel("WARN")
        return s

    # --- writes
    def base_opts(self, name, table_type="COPY_ON_WRITE", partitioned=False):
        o = {
            "hoodie.table.name": name,
            "hoodie.datasource.write.table.name": name,
            "hoodie.datasource.write.table.type": table_type,
            "hoodie.datasource.write.recordkey.field": "id",
            "hoodie.datasource.write.precombine.field": "ts",
            "hoodie.index.bloom.num_entries": "1000",
            "hoodie.upsert.shuffle.parallelism": "2",
            "hoodie.insert.shuffle.parallelism": "2",
            "hoodie.bulkinsert.shuffle.parallelism": "2",
            "hoodie.delete.shuffle.parallelism": "2",
        }
        if self.is1x and not self.release.startswith("1.0."):  # key introduced in 1.1; 1.0.x knows only precombine
            o["hoodie.table.ordering.fields"] = "ts"
        if partitioned:
            o["hoodie.datasource.write.partitionpath.field"] = "dt"
            o["hoodie.datasource.write.keygenerator.class"] = "org.apache.hudi.keygen.SimpleKeyGenerator"
        else:
            o["hoodie.datasource.write.partitionpath.field"] = ""
            o["hoodie.datasource.write.keygenerator.class"] = "org.apache.hudi.keygen.NonpartitionedKeyGenerator"
        return o

    def write(self, path, rows, opts, op="upsert", schema=None, extra=None):
        o = dict(opts)
        o["hoodie.datasource.write.operation"] = op
        if extra:
            o.update(extra)
        df = self.spark.createDataFrame(rows, schema or SCHEMA)
        df.write.format("hudi").options(**o).mode("append").save(path)

    def register(self, name, path):
        self.spark.sql("DROP TABLE IF EXISTS %s" % name)
        self.spark.sql("CREATE TABLE %s USING hudi LOCATION '%s'" % (name, path))

    def sql_json(self, q, order_by=None):
        return df_json(self.spark.sql(q), order_by)

    def try_oracle(self, fname, fn):
        try:
            obj = fn()
            dump(os.path.join(self.oracle, fname), obj)
            return obj
        except Exception as e:  # keep going; record the failure
            log("oracle %s failed: %s" % (fname, e))
            self.errors.append({"oracle": fname, "error": exc_text(e)})
            return None

    # --- common oracles
    def common_oracles(self, name, path, partitions=None):
        spark = self.spark
        self.register(name, path)
        props = read_hoodie_props(path)
        tl = read_timeline(path)
        snap = spark.read.format("hudi").load(path)
        row_count = snap.count()
        if partitions is None:
            if props.get("hoodie.table.partition.fields"):
                partitions = sorted(r[0] for r in snap.select("_hoodie_partition_path").distinct().collect())
            else:
                partitions = [""]
        self.try_oracle("show_commits.json", lambda: self.sql_json(
            "CALL show_commits(table => '%s', limit => 1000)" % name))
        def archived():
            q = ("CALL show_archived_commits(table => '%s', limit => 1000, "
                 "start_ts => '00000000000000000', end_ts => '99999999999999999')" % name)
            try:
                return dict(query=q, **self.sql_json(q))
            except Exception:
                q = "CALL show_archived_commits(table => '%s', limit => 1000)" % name
                return dict(query=q, **self.sql_json(q))
        self.try_oracle("show_archived_commits.json", archived)
        self.try_oracle("java_archived_timeline.json", lambda: self.java_archived(path))
        def fsview():
            out = {"procedure": "show_fsview_latest", "partitions": {}}
            for p in partitions:
                out["partitions"][p] = df_json(spark.sql(
                    "CALL show_fsview_latest(table => '%s', partition_path => '%s')" % (name, p)))
            return out
        self.try_oracle("latest_file_slices.json", fsview)
        self.try_oracle("java_fsview_latest.json", lambda: self.java_fsview(path, partitions))
        self.try_oracle("show_savepoints.json", lambda: self.sql_json(
            "CALL show_savepoints(table => '%s')" % name))
        summary = {
            "fixture": self.a.fixture,
            "scenario": self.a.scenario,
            "hudi_release": self.release,
            "spark_version": spark.version,
            "java_version": spark.sparkContext._jvm.java.lang.System.getProperty("java.version"),
            "table_name": name,
            "table_dir": os.path.basename(path),
            "table_type": props.get("hoodie.table.type"),
            "table_version": int(props.get("hoodie.table.version", "0")),
            "timeline_layout_version": int(props.get("hoodie.timeline.layout.version", "0")),
            "metadata_partitions": props.get("hoodie.table.metadata.partitions", ""),
            "row_count": row_count,
            "partitions": partitions,
            "completed_by_action": count_by(tl, lambda e: e.get("state") == "COMPLETED"),
            "pending_by_action": count_by(tl, lambda e: e.get("state") != "COMPLETED"),
            "active_timeline": tl,
            "event_log_codec": self.a.eventlog_codec + (" rolling" if self.a.eventlog_rolling else ""),
            "application_id": spark.sparkContext.applicationId,
            "notes": self.notes,
        }
        return summary

    def storage_conf(self):
        jvm = self.spark.sparkContext._jvm
        hconf = self.spark.sparkContext._jsc.hadoopConfiguration()
        try:  # 0.15+: hudi-io storage abstraction
            return jvm.org.apache.hudi.storage.hadoop.HadoopStorageConfiguration(hconf)
        except Exception:  # 0.12-0.14: plain Hadoop Configuration
            return hconf

    def java_archived(self, path):
        """Archived timeline as Hudi's Java API loads it (1.x: LSM history; 0.x: .commits_.archive.N)."""
        jvm = self.spark.sparkContext._jvm
        hconf = self.spark.sparkContext._jsc.hadoopConfiguration()
        sconf = self.storage_conf()
        mc = jvm.org.apache.hudi.common.table.HoodieTableMetaClient.builder().setConf(sconf).setBasePath(path).build()
        at = mc.getArchivedTimeline()
        out = []
        it = at.getInstants().iterator()
        while it.hasNext():
            i = it.next()
            e = {"action": i.getAction(), "state": str(i.getState())}
            for k, getters in (("requested_time", ("requestedTime", "getTimestamp")),
                               ("completion_time", ("getCompletionTime", "getStateTransitionTime"))):
                for g in getters:
                    try:
                        e[k] = getattr(i, g)()
                        break
                    except Exception:
                        continue
            out.append(e)
        return {"api": "HoodieTableMetaClient.getArchivedTimeline().getInstants()", "count": len(out),
                "instants": out}

    def java_fsview(self, path, partitions):
        """Latest file slices via Hudi's Java FileSystemView (py4j)."""
        jvm = self.spark.sparkContext._jvm
        jsc = self.spark.sparkContext._jsc
        hconf = jsc.hadoopConfiguration()
        sconf = self.storage_conf()
        mc = jvm.org.apache.hudi.common.table.HoodieTableMetaClient.builder().setConf(sconf).setBasePath(path).build()
        engine = jvm.org.apache.hudi.common.engine.HoodieLocalEngineContext(sconf)
        mdcfg = jvm.org.apache.hudi.common.config.HoodieMetadataConfig.newBuilder().enable(False).build()
        tl = mc.getActiveTimeline().filterCompletedAndCompactionInstants()
        fsv = jvm.org.apache.hudi.common.table.view.FileSystemViewManager.createInMemoryFileSystemViewWithTimeline(
            engine, mc, mdcfg, tl)
        out = {"api": "FileSystemViewManager.createInMemoryFileSystemViewWithTimeline(...).getLatestFileSlices(partition)",
               "partitions": {}}
        for p in partitions:
            slices = []
            it = fsv.getLatestFileSlices(p).iterator()
            while it.hasNext():
                fs = it.next()
                bf = fs.getBaseFile()
                base = None
                if bf.isPresent():
                    b = bf.get()
                    base = {"name": b.getFileName(), "size": b.getFileSize(), "commit_time": b.getCommitTime()}
                    try:  # METADATA_ONLY bootstrap: the skeleton's source file (absolute path)
                        bb = b.getBootstrapBaseFile()
                        if bb.isPresent():
                            base["bootstrap_base_file"] = {"path": bb.get().getPath(), "name": bb.get().getFileName(),
                                                           "size": bb.get().getFileSize()}
                    except Exception as e:
                        base["bootstrap_base_file_error"] = str(e)[:200]
                logs = []
                lit = fs.getLogFiles().iterator()
                while lit.hasNext():
                    lf = lit.next()
                    logs.append({"name": lf.getFileName(), "size": lf.getFileSize()})
                slices.append({"file_id": fs.getFileId(), "base_instant": fs.getBaseInstantTime(),
                               "base_file": base, "log_files": logs})
            slices.sort(key=lambda s: s["file_id"])
            out["partitions"][p] = slices
        fsv.close()
        return out

    def finish(self, name, path, summary, writer_opts, extra_props_note=""):
        self.spark.sql("DROP TABLE IF EXISTS %s" % name)
        write_props(os.path.join(self.fixture_dir, "writer.properties"), writer_opts,
                    "Hudi writer options used for table '%s' (%s, Hudi %s, Spark %s).\n"
                    "Passed as DataFrame writer options; same keys a --props file holds.%s"
                    % (name, self.a.scenario, self.release, self.spark.version, extra_props_note))
        summary["storage_files"] = list_files(path)
        summary["generator_errors"] = self.errors
        dump(os.path.join(self.oracle, "summary.json"), summary)
        self.spark.stop()
        time.sleep(1)
        zip_table(path, os.path.join(self.fixture_dir, "table.zip"))
        # tidy event log names list
        ev = sorted(x for x in os.listdir(self.fixture_dir) if x.startswith("local-") or x.startswith("eventlog_v2_"))
        summary["event_logs"] = ev
        dump(os.path.join(self.oracle, "summary.json"), summary)
        log("done", self.a.fixture, "events:", ev, "errors:", len(self.errors))

    def table_path(self, name):
        p = os.path.join(self.work, self.a.fixture, name)
        if os.path.exists(p):
            shutil.rmtree(p)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        return p

    # ---------------------------------------------------------------- scenarios
    def incr(self):
        name = "incr"
        path = self.table_path(name)
        opts = self.base_opts(name)
        self.write(path, [(1, "a", 1), (2, "b", 1), (3, "c", 1)], opts, op="insert")
        self.write(path, [(1, "a2", 2), (4, "d", 2)], opts)
        self.write(path, [(2, "b3", 3)], opts)
        tl = read_timeline(path)
        commits = [e for e in tl if e.get("action") == "commit" and e["state"] == "COMPLETED"]
        assert len(commits) == 3, commits
        c1 = commits[0]
        commit_times = sorted(r[0] for r in self.spark.read.format("hudi").load(path)
                              .select("_hoodie_commit_time").distinct().collect())
        res = {
            "commits": [{"requested_time": c["requested_time"], "completion_time": c["completion_time"],
                         "completed_file": c["completed_file"], "completed_file_mtime": c["completed_file_mtime"]}
                        for c in commits],
            "distinct__hoodie_commit_time": commit_times,
            "c1_requested_time": c1["requested_time"],
            "c1_completion_time": c1["completion_time"],
        }

        def incr_read(begin, key="hoodie.datasource.read.begin.instanttime"):
            df = (self.spark.read.format("hudi")
                  .option("hoodie.datasource.query.type", "incremental")
                  .option(key, begin).load(path))
            return df_json(df.select("_hoodie_commit_time", "id", "name", "ts"), ["id"])

        r = incr_read(c1["requested_time"])
        res["begin_requested"] = {"option": "hoodie.datasource.read.begin.instanttime",
                                  "begin": c1["requested_time"], "row_count": len(r["rows"]), **r}
        if c1["completion_time"]:
            r = incr_read(c1["completion_time"])
            res["begin_completion"] = {"option": "hoodie.datasource.read.begin.instanttime",
                                       "begin": c1["completion_time"], "row_count": len(r["rows"]), **r}
        else:
            res["begin_completion"] = None
            self.notes.append("table version < 8: no completion time in instant file names")
        try:
            r = incr_read(c1["requested_time"], key="hoodie.datasource.read.start.commit")
            res["start_commit_option"] = {"raised": False, "row_count": len(r["rows"]), **r}
        except Exception as e:
            res["start_commit_option"] = {"raised": True, "error": exc_text(e)}
        # CDC query on this non-CDC table
        self.register(name, path)
        try:
            self.sql_json("SELECT * FROM hudi_table_changes('%s', 'cdc', 'earliest')" % name)
            res["cdc_query_on_non_cdc_table"] = {"raised": False}
        except Exception as e:
            res["cdc_query_on_non_cdc_table"] = {"raised": True, "error": exc_text(e)}
        dump(os.path.join(self.oracle, "incremental.json"), res)
        summary = self.common_oracles(name, path)
        summary["c1_requested_time"] = c1["requested_time"]
        summary["c1_completion_time"] = c1["completion_time"]
        self.finish(name, path, summary, opts)

    def cdc(self):
        name = "cdc"
        path = self.table_path(name)
        # variants: "" (COW, DATA_BEFORE_AFTER), op_key_only, data_before (COW), mor (MERGE_ON_READ,
        # DATA_BEFORE_AFTER), mor_logs (MOR, small-file limit 0: updates in log files) -- the other
        # supplemental logging modes and the MOR log-file case
        variant = {"cdc-ops": "ops", "cdc-morlog": "mor_logs"}.get(self.a.scenario, self.a.variant)
        opts = self.base_opts(name, table_type="MERGE_ON_READ" if variant in ("mor", "mor_logs") else "COPY_ON_WRITE")
        opts["hoodie.table.cdc.enabled"] = "true"
        mode = variant.upper() if variant in ("op_key_only", "data_before") else "DATA_BEFORE_AFTER"
        if not self.is1x:
            mode = {"OP_KEY_ONLY": "op_key", "DATA_BEFORE": "data_before", "DATA_BEFORE_AFTER": "data_before_after"}[mode]
        opts["hoodie.table.cdc.supplemental.logging.mode"] = mode
        if variant in ("mor", "mor_logs"):
            opts["hoodie.compact.inline"] = "false"
        if variant == "mor_logs":
            # every insert opens a new file group, so updates land in log files (Hudi's LOG_FILE case)
            opts["hoodie.parquet.small.file.limit"] = "0"
            opts["hoodie.index.type"] = "BLOOM"
        if variant == "ops":
            # a replaced file group (insert_overwrite) and a delete that empties a file group
            self.write(path, [(1, "a", 1), (2, "b", 1)], opts, op="insert")
            self.write(path, [(1, "a2", 2)], opts)
            self.write(path, [(3, "c", 2)], opts, op="insert_overwrite")
            self.write(path, [(3, "c", 3)], opts, op="delete")
        else:
            self.write(path, [(1, "a", 1), (2, "b", 1)], opts, op="insert")
            self.write(path, [(1, "a2", 2), (3, "c", 2)], opts)
            self.write(path, [(2, "b", 3)], opts, op="delete")
        self.register(name, path)
        res = {}
        q = "SELECT * FROM hudi_table_changes('%s', '%s', 'earliest')"
        for mode in ("cdc", "latest_state"):
            try:
                df = self.spark.sql(q % (name, mode))
                order = ["ts_ms", "op"] if mode == "cdc" else ["id"]
                d = df_json(df, order)
                res[mode] = {"query": q % (name, mode), "row_count": len(d["rows"]), **d}
            except Exception as e:
                res[mode] = {"query": q % (name, mode), "error": exc_text(e)}
        # error text of a CDC query on the non-CDC incr table (generated earlier in the same run.sh)
        incr_path = os.path.join(self.work, "incr-" + self.release, "incr")
        if not os.path.exists(incr_path):
            # run alone (a variant, or without incr-<release> first): a one-write non-CDC table
            incr_path = self.table_path("incr")
            self.write(incr_path, [(1, "a", 1)], self.base_opts("incr"), op="insert")
        if os.path.exists(incr_path):
            self.register("incr", incr_path)
            try:
                self.spark.sql(q % ("incr", "cdc")).collect()
                res["cdc_query_on_non_cdc_incr_table"] = {"raised": False}
            except Exception as e:
                res["cdc_query_on_non_cdc_incr_table"] = {"raised": True, "query": q % ("incr", "cdc"),
                                                          "error": exc_text(e)}
            self.spark.sql("DROP TABLE IF EXISTS incr")
        dump(os.path.join(self.oracle, "cdc.json"), res)
        summary = self.common_oracles(name, path)
        self.finish(name, path, summary, opts)

    def pdata(self, n, start_id, ts, parts, name_prefix="v"):
        rows = []
        for i in range(n):
            k = start_id + i
            rows.append((k, "%s%d_%d" % (name_prefix, k, ts), ts, parts[k % len(parts)]))
        return rows

    def cow_services(self):
        name = "cow_services"
        path = self.table_path(name)
        parts = ["2024-01-01", "2024-01-02", "2024-01-03"]
        opts = self.base_opts(name, partitioned=True)
        opts.update({
            "hoodie.clean.automatic": "true",
            "hoodie.cleaner.policy": "KEEP_LATEST_COMMITS",
            "hoodie.cleaner.commits.retained": "2",
            "hoodie.keep.min.commits": "4",
            "hoodie.keep.max.commits": "6",
            "hoodie.archive.automatic": "true",
            "hoodie.clustering.inline": "true",
            "hoodie.clustering.inline.max.commits": "12",
            "hoodie.clustering.plan.strategy.sort.columns": "name",
            "hoodie.clustering.plan.strategy.small.file.limit": "1048576",
            "hoodie.clustering.plan.strategy.target.file.max.bytes": "2097152",
            "hoodie.parquet.small.file.limit": "0",
            "hoodie.metadata.enable": "true",
            "hoodie.metadata.compact.max.delta.commits": "5",
            "hoodie.metadata.keep.min.commits": "4" if not self.is1x else "4",
        })
        if not self.is1x:
            opts["hoodie.metadata.keep.max.commits"] = "6"
        if self.is1x:
            opts["hoodie.timeline.compaction.batch.size"] = "4"
        events = []
        self.write(path, self.pdata(12, 0, 0, parts), opts, op="insert", schema=PSCHEMA)
        events.append("c0 insert 12 rows")
        savepoint_at = 30
        next_id = 12
        for i in range(1, 44):
            if i == 41:
                # a failing write: an executor-side exception after Hudi created the instant
                @F.udf(LongType())
                def boom(x):
                    if x is not None and x >= 0:
                        raise RuntimeError("hudiscope-gen: deliberate failure inside the write")
                    return x
                df = self.spark.createDataFrame(self.pdata(3, 100, i, parts), PSCHEMA).withColumn("ts", boom(F.col("ts")))
                o = dict(opts)
                o["hoodie.datasource.write.operation"] = "upsert"
                o["hoodie.clustering.inline"] = "false"
                o["hoodie.clean.automatic"] = "false"
                o["hoodie.archive.automatic"] = "false"
                try:
                    df.write.format("hudi").options(**o).mode("append").save(path)
                    events.append("c%d failing write did NOT fail" % i)
                except Exception as e:
                    failed = [x for x in read_timeline(path) if x["state"] != "COMPLETED"]
                    events.append("c%d failing write raised %s; pending after failure: %s" % (
                        i, exc_text(e).get("root_message", "")[:200], [(x["requested_time"], x["action"], x["state"]) for x in failed]))
                continue
            if i == 33:
                self.write(path, self.pdata(4, 1000, i, ["2024-01-02"]), opts, op="insert_overwrite", schema=PSCHEMA)
                events.append("c%d insert_overwrite partition 2024-01-02" % i)
                continue
            upd = [(k, "u%d_%d" % (k, i), i, parts[k % 3]) for k in range(i % 6, 12, 5)]
            ins = self.pdata(2, next_id, i, parts)
            next_id += 2
            self.write(path, upd + ins, opts, schema=PSCHEMA)
            events.append("c%d upsert %d rows" % (i, len(upd) + len(ins)))
            if i == savepoint_at:
                self.register(name, path)
                last = [x for x in read_timeline(path) if x["state"] == "COMPLETED" and x["action"] in ("commit", "replacecommit")][-1]
                self.spark.sql("CALL create_savepoint(table => '%s', commit_time => '%s')" % (name, last["requested_time"])).collect()
                events.append("savepoint at %s" % last["requested_time"])
        summary = self.common_oracles(name, path)
        summary["write_log"] = events
        self.finish(name, path, summary, opts)

    def mor_services(self):
        name = "mor_services"
        path = self.table_path(name)
        parts = ["2024-01-01", "2024-01-02", "2024-01-03"]
        opts = self.base_opts(name, table_type="MERGE_ON_READ", partitioned=True)
        opts.update({
            "hoodie.clean.automatic": "true",
            "hoodie.cleaner.policy": "KEEP_LATEST_COMMITS",
            "hoodie.cleaner.commits.retained": "2",
            "hoodie.keep.min.commits": "4",
            "hoodie.keep.max.commits": "6",
            "hoodie.compact.inline": "true",
            "hoodie.compact.inline.max.delta.commits": "3",
            "hoodie.metadata.enable": "true",
            "hoodie.metadata.record.index.enable": "true",
            "hoodie.metadata.compact.max.delta.commits": "5",
            "hoodie.index.type": "RECORD_INDEX" if self.is1x else "BLOOM",
        })
        events = []
        self.write(path, self.pdata(12, 0, 0, parts), opts, op="insert", schema=PSCHEMA)
        events.append("dc0 insert 12")
        for i in range(1, 16):
            upd = [(k, "u%d_%d" % (k, i), i, parts[k % 3]) for k in range(i % 4, 12, 4)]
            self.write(path, upd, opts, schema=PSCHEMA)
            events.append("dc%d update %d rows (inline compaction every 3)" % (i, len(upd)))
        # now: schedule only -> one pending compaction, then keep writing below the trigger
        sched = dict(opts)
        sched["hoodie.compact.inline"] = "false"
        sched["hoodie.compact.schedule.inline"] = "true"
        for i in range(16, 21):
            upd = [(k, "u%d_%d" % (k, i), i, parts[k % 3]) for k in range(i % 4, 12, 4)]
            self.write(path, upd, sched if i <= 18 else dict(sched, **{"hoodie.compact.schedule.inline": "false"}),
                       schema=PSCHEMA)
            events.append("dc%d update (compaction schedule.inline=%s)" % (i, "true" if i <= 18 else "false"))
        summary = self.common_oracles(name, path)
        summary["write_log"] = events
        try:
            self.register(name, path)
            summary["show_compaction"] = self.sql_json("CALL show_compaction(table => '%s')" % name)
        except Exception as e:
            summary["show_compaction_error"] = exc_text(e)
        self.finish(name, path, summary, opts, MOR_NOTE)

    def mor_compaction(self):
        """Small MOR table whose inline compaction stays in the active timeline (for incremental probes)."""
        name = "mor_compaction"
        path = self.table_path(name)
        opts = self.base_opts(name, table_type="MERGE_ON_READ")
        opts.update({
            "hoodie.compact.inline": "true",
            "hoodie.compact.inline.max.delta.commits": "3",
            "hoodie.index.type": "BLOOM",
        })
        events = []
        self.write(path, [(1, "a", 1), (2, "b", 1), (3, "c", 1), (4, "d", 1)], opts, op="insert")
        events.append("dc1 insert ids 1-4")
        self.write(path, [(1, "a2", 2), (2, "b2", 2)], opts)
        events.append("dc2 update ids 1,2 (log files)")
        self.write(path, [(3, "c3", 3)], opts)
        events.append("dc3 update id 3; inline compaction after 3 delta commits")
        self.write(path, [(4, "d4", 4), (5, "e", 4)], opts)
        events.append("dc4 update id 4 + insert id 5")
        summary = self.common_oracles(name, path)
        summary["write_log"] = events
        self.finish(name, path, summary, opts)

    def types(self):
        """MOR table with logical and nested types: base file (Parquet) and log file (Avro) values."""
        name = "types"
        path = self.table_path(name)
        opts = self.base_opts(name, table_type="MERGE_ON_READ")
        opts.update({"hoodie.compact.inline": "false", "hoodie.index.type": "BLOOM"})
        schema = StructType([
            StructField("id", IntegerType(), False), StructField("name", StringType(), True),
            StructField("ts", LongType(), False),
            StructField("price", DecimalType(10, 2), True), StructField("big", DecimalType(30, 6), True),
            StructField("d", DateType(), True), StructField("t", TimestampType(), True),
            StructField("x", DoubleType(), True), StructField("bin", BinaryType(), True),
            StructField("tags", ArrayType(StringType()), True),
            StructField("attrs", MapType(StringType(), IntegerType()), True),
            StructField("addr", StructType([StructField("city", StringType(), True), StructField("zip", IntegerType(), True),
                                            StructField("since", DateType(), True)]), True),
        ])
        import decimal
        D = decimal.Decimal
        t0 = datetime.datetime(2024, 1, 2, 3, 4, 5, 123456)
        rows1 = [
            (1, "a", 1, D("12.34"), D("123456789012345678901234.500000"), datetime.date(2024, 1, 2), t0, 1.5, b"\x01\x02",
             ["x", "y"], {"k": 1}, ("Paris", 75001, datetime.date(2020, 2, 29))),
            (2, "b", 1, D("-0.05"), None, None, None, None, None, [], {}, None),
        ]
        self.write(path, rows1, opts, op="insert", schema=schema)
        rows2 = [(1, "a2", 2, D("99999999.99"), D("-0.000001"), datetime.date(1969, 12, 31), datetime.datetime(1970, 1, 1, 0, 0, 0, 1),
                  -2.25, b"\xff", ["z"], {"k": 2, "m": 3}, ("Lyon", None, None))]
        self.write(path, rows2, opts, schema=schema)  # an update: a log file (Avro data block)
        res = {"schema": json.loads(self.spark.read.format("hudi").load(path).schema.json())}
        df = self.spark.read.format("hudi").load(path)
        res["snapshot"] = {"row_count": df.count(), **df_json(df, ["id"])}
        # Spark's own JSON of every row (to_json: decimals exact, dates and timestamps as strings)
        js = df.select(F.col("id"), F.to_json(F.struct(*[F.col(c) for c in df.columns])).alias("json")).orderBy("id").collect()
        res["snapshot_json"] = [r["json"] for r in js]
        dump(os.path.join(self.oracle, "types.json"), res)
        summary = self.common_oracles(name, path)
        summary["write_log"] = ["dc1 insert ids 1,2 (base file)", "dc2 update id 1 (log file)"]
        self.finish(name, path, summary, opts)

    def index_variant(self):
        variant = self.a.variant
        name = "idx_" + variant
        path = self.table_path(name)
        parts = ["2024-01-%02d" % d for d in range(1, 9)]
        if variant == "bucket":
            return self.index_bucket(name, path)
        opts = self.base_opts(name, partitioned=True)
        opts.update({"hoodie.parquet.small.file.limit": "0", "hoodie.metadata.enable": "true"})
        if variant == "simple":
            opts["hoodie.index.type"] = "SIMPLE"
        elif variant == "bloom":
            opts["hoodie.index.type"] = "BLOOM"
        elif variant in ("rli", "rli_nostream"):
            opts["hoodie.index.type"] = "RECORD_INDEX"
            opts["hoodie.metadata.record.index.enable"] = "true"
            if variant == "rli_nostream":
                opts["hoodie.metadata.streaming.write.enabled"] = "false"
        bulk = dict(opts)
        bulk["hoodie.bulkinsert.shuffle.parallelism"] = "4"
        bulk["hoodie.bulkinsert.sort.mode"] = "NONE"
        nid = 0
        for r in range(3):
            rows = [(k, "n%d" % k, 0, parts[k % 8]) for k in range(nid, nid + 400)]
            nid += 400
            self.spark.createDataFrame(rows, PSCHEMA).repartition(4).write.format("hudi").options(
                **dict(bulk, **{"hoodie.datasource.write.operation": "bulk_insert"})).mode("append").save(path)
        # the measured upsert: 150 updates spread over all partitions + 50 inserts
        upd = [(k, "x%d" % k, 1, parts[k % 8]) for k in range(0, nid, 8)][:150]
        ins = [(k, "y%d" % k, 1, parts[k % 8]) for k in range(nid, nid + 50)]
        self.spark.sparkContext.setJobGroup("hudiscope-upsert", "hudiscope: measured upsert (%s)" % variant)
        self.write(path, upd + ins, opts, schema=PSCHEMA)
        summary = self.common_oracles(name, path)
        summary["workload"] = "3 x bulk_insert 400 rows (4 tasks, 8 partitions) then one upsert of %d rows" % (len(upd) + len(ins))
        self.finish(name, path, summary, opts)


    def eventlog_pair(self):
        """Issue 33: the same upsert job twice, only hoodie.upsert.shuffle.parallelism changed, so a
        compared pair of event logs has a known expected direction. variant "before": 200 (far above
        local[2]'s 2 cores: OBS-009's over-parallelised signature); "after": 2 (OBS-009's change,
        toward 2-3x the core count). The key is also set on the Spark conf so the event log's Spark
        Properties record it (the writer option is what Hudi uses; both carry the same value)."""
        par = {"before": "200", "after": "2"}[self.a.variant]
        name = "pair"
        path = self.table_path(name)
        opts = self.base_opts(name, partitioned=True)
        opts.update({"hoodie.metadata.enable": "false", "hoodie.index.type": "SIMPLE",
                     "hoodie.upsert.shuffle.parallelism": par})
        parts = ["2024-01-%02d" % d for d in range(1, 5)]
        rows = [(k, "n%d" % k, 0, parts[k % 4]) for k in range(2000)]
        self.spark.sparkContext.setJobGroup("hudiscope-insert", "hudiscope: seed insert")
        self.write(path, rows, opts, op="insert", schema=PSCHEMA)
        for r in range(1, 4):
            upd = [(k, "u%d_%d" % (r, k), r, parts[k % 4]) for k in range(r, 2000, 4)][:400]
            self.spark.sparkContext.setJobGroup("hudiscope-upsert", "hudiscope: measured upsert %d" % r)
            self.write(path, upd, opts, schema=PSCHEMA)
        summary = self.common_oracles(name, path)
        summary["workload"] = ("insert 2000 rows (4 partitions) then 3 upserts of 400 rows; "
                               "hoodie.upsert.shuffle.parallelism=%s" % par)
        summary["upsert_shuffle_parallelism"] = int(par)
        self.finish(name, path, summary, opts)

    def index_bucket(self, name, path):
        """Issue 32 item 8: a merge-on-read table with a simple bucket index (4 buckets, 4 partitions):
        an insert of 200 rows, then three upserts, so keys 8 and 9 have four versions (a base file
        row and three log blocks) and key 10 is deleted by the last one."""
        parts = ["2024-01-%02d" % d for d in range(1, 5)]
        opts = self.base_opts(name, table_type="MERGE_ON_READ", partitioned=True)
        opts.update({"hoodie.parquet.small.file.limit": "0", "hoodie.metadata.enable": "true",
                     "hoodie.index.type": "BUCKET", "hoodie.index.bucket.engine": "SIMPLE",
                     "hoodie.bucket.index.num.buckets": "4", "hoodie.bucket.index.hash.field": "id",
                     "hoodie.compact.inline": "false"})
        self.write(path, [(k, "n%d" % k, 0, parts[k % 4]) for k in range(200)], opts, op="insert", schema=PSCHEMA)
        for r in (1, 2, 3):
            upd = [(k, "u%d_%d" % (r, k), r, parts[k % 4]) for k in range(0, 200, 4 * r + 1) if k not in (8, 9)] + \
                  [(8, "v%d" % r, r, parts[0]), (9, "v%d" % r, r, parts[1])]
            self.write(path, upd, opts, schema=PSCHEMA)
        self.write(path, [(10, "gone", 4, parts[2])], opts, op="delete", schema=PSCHEMA)
        summary = self.common_oracles(name, path)
        summary["workload"] = ("insert 200 rows (4 partitions x 4 buckets), three upserts (ids 8 and 9 "
                               "each time), delete id 10")
        self.finish(name, path, summary, opts)

    # ------------------------------------------------ issue 29 scenarios (0.14.0 / 1.1.1)
    def snapshot_rows(self, path, key="id"):
        """oracle/snapshot_rows.json: spark.read.format("hudi").load, every column, ordered by key."""
        df = self.spark.read.format("hudi").load(path)
        d = df_json(df, [key])
        obj = {"query": "spark.read.format('hudi').load(path).orderBy('%s')" % key,
               "schema": json.loads(df.schema.json()), "row_count": len(d["rows"]), **d}
        dump(os.path.join(self.oracle, "snapshot_rows.json"), obj)
        return obj

    def bootstrap(self):
        """METADATA_ONLY bootstrap of a hive-style partitioned Parquet dataset, then 2 upserts."""
        name = "bootstrap"
        path = self.table_path(name)
        src = os.path.join(self.work, self.a.fixture, "bootstrap_source")
        if os.path.exists(src):
            shutil.rmtree(src)
        parts = ["2024-01-01", "2024-01-02", "2024-01-03"]
        rows = [(k, "src%d_0" % k, 0, parts[k % 3]) for k in range(9)]
        # one Parquet file per partition directory dt=<day> (dt is a directory, not a file column)
        self.spark.createDataFrame(rows, PSCHEMA).coalesce(1).write.partitionBy("dt").parquet(src)
        events = ["source: %d rows, partitionBy(dt) parquet at %s" % (len(rows), src)]
        opts = self.base_opts(name, partitioned=True)
        opts.update({
            "hoodie.datasource.write.hive_style_partitioning": "true",
            "hoodie.parquet.small.file.limit": "0",  # inserts open new file groups: the 2024-01-01 skeleton stays pure
            "hoodie.metadata.enable": "true",
            # 1.1.1: "HoodieNotSupportedException: col stats is not supported with bootstrap operation" (on by default in 1.1)
            "hoodie.metadata.index.column.stats.enable": "false",
            "hoodie.index.type": "BLOOM",
        })
        bo = dict(opts)
        bo.update({
            "hoodie.datasource.write.operation": "bootstrap",
            "hoodie.bootstrap.base.path": src,
            "hoodie.bootstrap.mode.selector": "org.apache.hudi.client.bootstrap.selector.MetadataOnlyBootstrapModeSelector",
            "hoodie.bootstrap.keygen.class": "org.apache.hudi.keygen.SimpleKeyGenerator",
            "hoodie.bootstrap.parallelism": "2",
        })
        if self.a.variant == "full":
            bo["hoodie.bootstrap.mode.selector"] = "org.apache.hudi.client.bootstrap.selector.FullRecordBootstrapModeSelector"
        self.spark.createDataFrame([], PSCHEMA).write.format("hudi").options(**bo).mode("overwrite").save(path)
        events.append("bootstrap (%s) from %s" % (bo["hoodie.bootstrap.mode.selector"].rsplit(".", 1)[1], src))
        events.append("timeline after bootstrap: %s" % [(x["requested_time"], x["action"], x["state"]) for x in read_timeline(path)])
        if self.a.variant != "full":
            # upsert 1: ids 1, 4 in dt=2024-01-02 (that bootstrap file group gets a regular base file)
            self.write(path, [(1, "u1_1", 1, parts[1]), (4, "u4_1", 1, parts[1])], opts, schema=PSCHEMA_NULLABLE)
            events.append("c1 upsert ids 1,4 (dt=2024-01-02)")
            # upsert 2: id 2 in dt=2024-01-03 + insert id 9 into dt=2024-01-01 (small-file limit 0: new file group)
            self.write(path, [(2, "u2_2", 2, parts[2]), (9, "n9_2", 2, parts[0])], opts, schema=PSCHEMA_NULLABLE)
            events.append("c2 upsert id 2 (dt=2024-01-03) + insert id 9 (dt=2024-01-01, new file group)")
        self.snapshot_rows(path)
        # keep the source beside the table: bootstrap-source.zip, single top-level folder bootstrap_source/
        zp = os.path.join(self.fixture_dir, "bootstrap-source.zip")
        subprocess.check_call(["zip", "-q", "-r", "-X", zp, os.path.basename(src)], cwd=os.path.dirname(src))
        # the partitions on storage (a FULL_RECORD bootstrap on 0.14.0 can leave partitions without readable rows)
        bparts = sorted(d for d in os.listdir(path) if d.startswith("dt="))
        summary = self.common_oracles(name, path, partitions=bparts)
        summary["write_log"] = events
        summary["bootstrap_source_root"] = src
        summary["bootstrap_source_zip"] = "bootstrap-source.zip"
        summary["bootstrap_source_files"] = list_files(src)
        summary["bootstrap_options"] = {k: v for k, v in bo.items() if k.startswith("hoodie.bootstrap")}
        self.finish(name, path, summary, dict(opts, **summary["bootstrap_options"]))


    def archival_opts(self, opts):
        """Small archival settings: keep.min 3 / max 4, cleaner retains 2 commits, MDT on (default)."""
        opts.update({
            "hoodie.clean.automatic": "true",
            "hoodie.cleaner.policy": "KEEP_LATEST_COMMITS",
            "hoodie.cleaner.commits.retained": "2",
            "hoodie.keep.min.commits": "3",
            "hoodie.keep.max.commits": "4",
            "hoodie.archive.automatic": "true",
            "hoodie.metadata.enable": "true",
            "hoodie.metadata.compact.max.delta.commits": "4",
            # MDT keeps its files partition; 1.1's default column_stats partition doubled the zip (580 KB)
            "hoodie.metadata.index.column.stats.enable": "false",
        })
        if not self.is1x:
            opts["hoodie.metadata.keep.min.commits"] = "3"
            opts["hoodie.metadata.keep.max.commits"] = "4"
        else:
            opts["hoodie.timeline.compaction.batch.size"] = "3"
        return opts

    def mor_archived(self):
        """MOR, non-partitioned, 16 delta commits (upserts + deletes), inline compaction every 4 delta commits,
        archival small enough that delta commits are archived."""
        name = "mor_archived"
        path = self.table_path(name)
        opts = self.archival_opts(self.base_opts(name, table_type="MERGE_ON_READ"))
        opts.update({"hoodie.compact.inline": "true", "hoodie.compact.inline.max.delta.commits": "4",
                     "hoodie.index.type": "BLOOM"})
        # (op, rows): ids 1..8 inserted, then updates; deletes of 3 (dc4), 6 (dc6), 8 (dc9), 9 (dc13)
        plan = [
            ("insert", [(k, "n%d_1" % k, 1) for k in range(1, 9)]),
            ("upsert", [(1, "u1_2", 2), (2, "u2_2", 2)]),
            ("upsert", [(3, "u3_3", 3), (4, "u4_3", 3)]),
            ("delete", [(3, "u3_3", 4)]),
            ("upsert", [(5, "u5_5", 5), (9, "n9_5", 5)]),
            ("upsert", [(1, "u1_6", 6)]),
            ("delete", [(6, "n6_1", 7)]),
            ("upsert", [(2, "u2_8", 8), (7, "u7_8", 8)]),
            ("delete", [(8, "n8_1", 9)]),
            ("upsert", [(4, "u4_10", 10), (9, "u9_10", 10)]),
            ("upsert", [(1, "u1_11", 11), (5, "u5_11", 11)]),
            ("upsert", [(10, "n10_12", 12), (2, "u2_12", 12)]),
            ("delete", [(9, "u9_10", 13)]),
            ("upsert", [(7, "u7_14", 14)]),
            ("upsert", [(4, "u4_15", 15), (10, "u10_15", 15)]),
            ("upsert", [(1, "u1_16", 16)]),
        ]
        events = []
        for i, (op, rows) in enumerate(plan, 1):
            self.write(path, rows, opts, op=op)
            events.append("dc%d %s ids %s" % (i, op, ",".join(str(r[0]) for r in rows)))
        self.snapshot_rows(path)
        summary = self.common_oracles(name, path)
        summary["write_log"] = events
        self.finish(name, path, summary, opts)


    def dups(self):
        """Issue 32 item 5: a table that really holds duplicate record keys. Partitioned by dt, SIMPLE index
        (non-global). Variant "" = MERGE_ON_READ (updates land in log files: one copy per file group), "cow" =
        COPY_ON_WRITE. bulk_insert twice with overlapping keys, an insert whose batch repeats keys with
        hoodie.combine.before.insert=false, an upsert that moves a key to another partition (non-global index:
        the old copy stays), and upserts of a unique key and of a duplicated key."""
        cow = self.a.variant == "cow"
        name = "dups_cow" if cow else "dups"
        path = self.table_path(name)
        opts = self.base_opts(name, table_type="COPY_ON_WRITE" if cow else "MERGE_ON_READ", partitioned=True)
        opts.update({"hoodie.index.type": "SIMPLE", "hoodie.parquet.small.file.limit": "0",
                     "hoodie.compact.inline": "false", "hoodie.clean.automatic": "false",
                     "hoodie.combine.before.insert": "false", "hoodie.datasource.write.insert.drop.duplicates": "false"})
        parts = ["2024-01-01", "2024-01-02"]
        events = []
        def w(label, op, rows):
            self.write(path, rows, opts, op=op, schema=PSCHEMA)
            events.append("%s %s ids %s" % (label, op, ",".join("%d@%s" % (r[0], r[3]) for r in rows)))
        w("w1", "bulk_insert", [(k, "b%d_1" % k, 1, parts[k % 2]) for k in range(1, 21)])
        w("w2", "bulk_insert", [(k, "b%d_2" % k, 2, parts[k % 2]) for k in range(15, 26)])
        w("w3", "insert", [(30, "i30a", 3, parts[0]), (30, "i30b", 3, parts[0]), (31, "i31a", 3, parts[1]),
                           (31, "i31b", 3, parts[1]), (32, "i32", 3, parts[0])])
        w("w4", "upsert", [(3, "moved3", 4, "2024-01-03"), (2, "u2_4", 4, parts[0])])
        w("w5", "upsert", [(16, "u16_5", 5, parts[0]), (4, "u4_5", 5, parts[0])])
        snap = self.spark.read.format("hudi").load(path)
        snap.createOrReplaceTempView("dups_snapshot")
        q = ("SELECT _hoodie_record_key, count(*) AS copies, "
             "sort_array(collect_list(concat_ws('|', _hoodie_partition_path, _hoodie_file_name, _hoodie_commit_time))) AS locations "
             "FROM dups_snapshot GROUP BY _hoodie_record_key HAVING count(*) > 1 ORDER BY _hoodie_record_key")
        d = self.sql_json(q)
        rows = df_json(snap.select("_hoodie_record_key", "_hoodie_partition_path", "_hoodie_file_name",
                                   "_hoodie_commit_time", "id", "name", "ts", "dt"),
                       ["_hoodie_record_key", "_hoodie_partition_path", "_hoodie_file_name"])
        dump(os.path.join(self.oracle, "duplicates.json"), {
            "query": q.replace("dups_snapshot", "spark.read.format('hudi').load(path)"),
            "duplicate_keys": len(d["rows"]), "snapshot_rows": len(rows["rows"]), **d,
            "snapshot": rows})
        summary = self.common_oracles(name, path, partitions=parts + ["2024-01-03"])
        summary["write_log"] = events
        self.finish(name, path, summary, opts)

    def last_write(self, path):
        return [x for x in read_timeline(path) if x["state"] == "COMPLETED"
                and x["action"] in ("commit", "deltacommit", "replacecommit")][-1]

    def restore(self):
        """Writes, a savepoint, more writes, restore to the savepoint (CALL rollback_to_savepoint), the savepoint
        deleted (archival stops at a savepoint), then writes until archival passes the restore."""
        mor = self.a.variant == "mor"
        name = "restore_mor" if mor else "restore_cow"
        path = self.table_path(name)
        opts = self.archival_opts(self.base_opts(name, table_type="MERGE_ON_READ" if mor else "COPY_ON_WRITE"))
        opts["hoodie.index.type"] = "BLOOM"
        if mor:
            opts.update({"hoodie.compact.inline": "true", "hoodie.compact.inline.max.delta.commits": "3"})
        events = []
        def w(i, op, rows):
            self.write(path, rows, opts, op=op)
            events.append("w%d %s ids %s" % (i, op, ",".join(str(r[0]) for r in rows)))
        w(1, "insert", [(k, "n%d_1" % k, 1) for k in range(1, 7)])
        w(2, "upsert", [(1, "u1_2", 2), (2, "u2_2", 2)])
        w(3, "upsert", [(3, "u3_3", 3), (7, "n7_3", 3)])
        sp = self.last_write(path)["requested_time"]
        self.register(name, path)
        self.spark.sql("CALL create_savepoint(table => '%s', commit_time => '%s')" % (name, sp)).collect()
        events.append("savepoint at %s (w3)" % sp)
        w(4, "upsert", [(4, "u4_4", 4), (8, "n8_4", 4)])
        w(5, "delete", [(2, "u2_2", 5)])
        w(6, "upsert", [(5, "u5_6", 6), (1, "u1_6", 6)])
        self.register(name, path)
        r = self.spark.sql("CALL rollback_to_savepoint(table => '%s', instant_time => '%s')" % (name, sp)).collect()
        events.append("rollback_to_savepoint %s -> %s" % (sp, [list(x) for x in r]))
        self.register(name, path)
        r = self.spark.sql("CALL delete_savepoint(table => '%s', instant_time => '%s')" % (name, sp)).collect()
        events.append("delete_savepoint %s -> %s" % (sp, [list(x) for x in r]))
        for i in range(7, 15):
            k = (i % 6) + 1
            w(i, "upsert", [(k, "u%d_%d" % (k, i), i)] + ([(i + 2, "n%d_%d" % (i + 2, i), i)] if i % 3 == 0 else []))
        self.snapshot_rows(path)
        summary = self.common_oracles(name, path)
        summary["write_log"] = events
        summary["savepoint_restored"] = sp
        self.finish(name, path, summary, opts)

    def schema_evo(self):
        """MOR: dc1 with id,name,ts:int; later upserts (log files) add column note and widen ts to long."""
        name = "schema_evo"
        path = self.table_path(name)
        opts = self.base_opts(name, table_type="MERGE_ON_READ")
        opts.update({"hoodie.compact.inline": "false", "hoodie.index.type": "BLOOM"})
        s_old = StructType([StructField("id", IntegerType(), False), StructField("name", StringType(), True),
                            StructField("ts", IntegerType(), False)])
        s_new = StructType([StructField("id", IntegerType(), False), StructField("name", StringType(), True),
                            StructField("ts", LongType(), False), StructField("note", StringType(), True)])
        s_add = StructType([StructField("id", IntegerType(), False), StructField("name", StringType(), True),
                            StructField("ts", IntegerType(), False), StructField("note", StringType(), True)])
        events = []
        # ids 5, 6 are never rewritten: their only record has the old schema (no note, ts int)
        self.write(path, [(1, "a", 1), (2, "b", 1), (3, "c", 1), (5, "e", 1), (6, "f", 1)], opts, op="insert", schema=s_old)
        events.append("dc1 insert ids 1,2,3,5,6 schema id:int,name:string,ts:int (base file)")
        widened = True
        try:
            self.write(path, [(1, "a2", 2, "n1")], opts, schema=s_new)
            events.append("dc2 upsert id 1 schema +note:string, ts:long (widened int->long)")
        except Exception as e:
            widened = False
            events.append("dc2 with ts:long REFUSED: %s" % exc_text(e).get("root_message", "")[:300])
            self.write(path, [(1, "a2", 2, "n1")], opts, schema=s_add)
            events.append("dc2 upsert id 1 schema +note:string (ts stays int)")
        s2 = s_new if widened else s_add
        self.write(path, [(2, "b3", 3, None), (4, "d", 3, "n4")], opts, schema=s2)
        events.append("dc3 upsert id 2 (note null) + insert id 4 (note n4)")
        self.write(path, [(3, "c4", 4, "n3")], opts, schema=s2)
        events.append("dc4 upsert id 3 (note n3)")
        self.snapshot_rows(path)
        summary = self.common_oracles(name, path)
        summary["write_log"] = events
        summary["ts_widened_to_long"] = widened
        summary["table_schema"] = json.loads(self.spark.read.format("hudi").load(path).schema.json())
        self.finish(name, path, summary, opts)

    def write_client(self, path, props):
        jvm = self.spark.sparkContext._jvm
        jp = jvm.java.util.Properties()
        for k, v in props.items():
            jp.setProperty(k, v)
        cfg = jvm.org.apache.hudi.config.HoodieWriteConfig.newBuilder().withPath(path).withProps(jp).build()
        ctx = jvm.org.apache.hudi.client.common.HoodieSparkEngineContext(self.spark.sparkContext._jsc)
        return jvm.org.apache.hudi.client.SparkRDDWriteClient(ctx, cfg)

    def killed_writer(self):
        """COW: completed writes, a clean left requested (write client scheduleClean via py4j), then a write
        whose Spark application is SIGKILLed once its .inflight file exists."""
        name = "killed_writer"
        path = self.table_path(name)
        opts = self.base_opts(name)
        opts.update({"hoodie.clean.automatic": "false", "hoodie.cleaner.policy": "KEEP_LATEST_COMMITS",
                     "hoodie.cleaner.commits.retained": "1", "hoodie.archive.automatic": "false",
                     "hoodie.index.type": "BLOOM", "hoodie.metadata.enable": "true"})
        events = []
        self.write(path, [(1, "a", 1), (2, "b", 1), (3, "c", 1)], opts, op="insert")
        events.append("c1 insert ids 1,2,3")
        for i in (2, 3, 4):
            self.write(path, [(i - 1, "u%d_%d" % (i - 1, i), i)], opts)
            events.append("c%d upsert id %d" % (i, i - 1))
        try:
            wc = self.write_client(path, opts)
            jvm = self.spark.sparkContext._jvm
            # 0.14.0 has no public scheduleClean(); scheduleTableService(Option.empty, CLEAN) plans a clean
            # and leaves <T>.clean.requested
            r = wc.scheduleTableService(jvm.org.apache.hudi.common.util.Option.empty(),
                                        jvm.org.apache.hudi.common.model.TableServiceType.CLEAN)
            events.append("scheduleTableService(CLEAN) (py4j SparkRDDWriteClient) -> %s" % (
                r.get() if r.isPresent() else "nothing to clean"))
            wc.close()
        except Exception as e:
            events.append("scheduleClean failed: %s" % exc_text(e))
            self.errors.append({"step": "scheduleClean", "error": exc_text(e)})
        # the killed writer: a separate Spark application (gen/killed_writer_child.py), SIGKILLed (whole
        # process group: python driver + JVM) as soon as its instant's .inflight file appears
        import signal
        before = {(x["requested_time"], x["action"]) for x in read_timeline(path)}
        child = os.path.join(os.path.dirname(os.path.abspath(__file__)), "killed_writer_child.py")
        wopts = dict(opts, **{"hoodie.datasource.write.operation": "upsert"})
        logf = open(os.path.join(self.work, self.a.fixture, "child.log"), "w")
        proc = subprocess.Popen([sys.executable, child, self.a.bundle, path, json.dumps(wopts)],
                                stdout=logf, stderr=subprocess.STDOUT, start_new_session=True)
        t0 = time.time()
        killed = None
        while time.time() - t0 < 300 and proc.poll() is None:
            new = [x for x in read_timeline(path) if (x["requested_time"], x["action"]) not in before]
            if any(x["state"] == "INFLIGHT" for x in new):
                os.killpg(proc.pid, signal.SIGKILL)
                killed = [(x["requested_time"], x["action"], x["state"]) for x in new]
                break
            time.sleep(0.02)
        proc.wait()
        logf.close()
        events.append("killed writer (SIGKILL at %.1fs): %s; child rc %s" % (time.time() - t0, killed, proc.returncode))
        summary = self.common_oracles(name, path)
        summary["write_log"] = events
        self.finish(name, path, summary, opts)


def refresh_timeline(fixture_dir, table_path):
    """Recompute the file-name-derived parts of summary.json from the (unchanged) work table."""
    sp = os.path.join(fixture_dir, "oracle", "summary.json")
    s = json.load(open(sp))
    tl = read_timeline(table_path)
    assert list_files(table_path) == s["storage_files"], "work table differs from the zipped one"
    s["active_timeline"] = tl
    s["completed_by_action"] = count_by(tl, lambda e: e.get("state") == "COMPLETED")
    s["pending_by_action"] = count_by(tl, lambda e: e.get("state") != "COMPLETED")
    dump(sp, s)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--refresh-timeline":
        return refresh_timeline(sys.argv[2], sys.argv[3])
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenario", required=True, choices=["incr", "cdc", "cow-services", "mor-services", "mor-compaction", "index", "types", "cdc-ops", "cdc-morlog",
                                                            "bootstrap", "mor-archived", "restore", "schema-evo", "killed-writer", "dups",
                                                            "eventlog-pair"])
    ap.add_argument("--variant", default="")
    ap.add_argument("--fixture", required=True)
    ap.add_argument("--hudi-release", required=True)
    ap.add_argument("--bundle", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--eventlog-codec", default="none", choices=["none", "lz4", "zstd", "snappy", "off"])
    ap.add_argument("--eventlog-rolling", action="store_true")
    a = ap.parse_args()
    g = Gen(a)
    {"incr": g.incr, "cdc": g.cdc, "cow-services": g.cow_services,
     "mor-services": g.mor_services, "mor-compaction": g.mor_compaction, "index": g.index_variant, "types": g.types, "cdc-ops": g.cdc, "cdc-morlog": g.cdc,
     "bootstrap": g.bootstrap, "mor-archived": g.mor_archived,
     "restore": g.restore, "schema-evo": g.schema_evo, "killed-writer": g.killed_writer, "dups": g.dups,
     "eventlog-pair": g.eventlog_pair}[a.scenario]()


if __name__ == "__main__":
    main()
