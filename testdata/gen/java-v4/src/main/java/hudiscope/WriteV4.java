package hudiscope;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hudi.client.HoodieJavaWriteClient;
import org.apache.hudi.client.WriteStatus;
import org.apache.hudi.client.common.HoodieJavaEngineContext;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.data.HoodieList;
import org.apache.hudi.common.fs.FSUtils;
import org.apache.hudi.common.model.FileSlice;
import org.apache.hudi.common.model.HoodieAvroRecord;
import org.apache.hudi.common.model.HoodieBaseFile;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieKey;
import org.apache.hudi.common.model.HoodieLogFile;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.model.HoodieWriteStat;
import org.apache.hudi.common.model.OverwriteWithLatestAvroPayload;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.log.HoodieMergedLogRecordScanner;
import org.apache.hudi.common.table.timeline.HoodieActiveTimeline;
import org.apache.hudi.common.table.timeline.HoodieArchivedTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.view.FileSystemViewManager;
import org.apache.hudi.common.table.view.HoodieTableFileSystemView;
import org.apache.hudi.common.util.BaseFileUtils;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.index.HoodieIndex;
import org.apache.hudi.index.JavaHoodieIndexFactory;
import org.apache.hudi.table.HoodieJavaTable;
import org.apache.hudi.table.action.HoodieWriteMetadata;
import org.apache.hudi.table.action.compact.CompactHelpers;
import org.apache.hudi.table.marker.WriteMarkersFactory;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Writes a table of table version 4 with Hudi 0.11.1's plain Java write client (no Spark) and
 * records what Hudi's Java API says about it (oracle/*.json), in the same JVM.
 *
 * <pre>java ... hudiscope.WriteV4 cow|mor &lt;work-dir&gt; &lt;fixture-dir&gt; &lt;fixture-name&gt;</pre>
 * The table is written to &lt;work-dir&gt;/&lt;table&gt;; oracles and writer.properties go to &lt;fixture-dir&gt;.
 * run.sh zips the table into &lt;fixture-dir&gt;/table.zip.
 */
@SuppressWarnings({"rawtypes", "unchecked"})
public class WriteV4 {
  static final String HUDI_RELEASE = "0.11.1";
  static final String[] PARTITIONS = {"2024-01-01", "2024-01-02", "2024-01-03"};
  static final String SCHEMA_JSON = "{\"type\":\"record\",\"name\":\"v4_record\",\"namespace\":\"hudiscope\",\"fields\":["
      + "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"name\",\"type\":\"string\"},"
      + "{\"name\":\"ts\",\"type\":\"long\"},{\"name\":\"dt\",\"type\":\"string\"}]}";
  static final Schema SCHEMA = new Schema.Parser().parse(SCHEMA_JSON);

  final String scenario;      // cow | mor
  final String tableName;
  final String basePath;
  final File fixtureDir;
  final String fixture;
  final Configuration conf = new Configuration();
  final HoodieJavaEngineContext ctx;
  final List<Map<String, Object>> writeLog = new ArrayList<>();
  final List<String> notes = new ArrayList<>();
  final Map<String, String> props = new TreeMap<>();
  HoodieWriteConfig cfg;
  int nextId = 1;
  final Map<String, Integer> versions = new TreeMap<>();

  WriteV4(String scenario, String work, File fixtureDir, String fixture) {
    this.scenario = scenario;
    this.tableName = scenario + "_v4";
    this.basePath = new File(work, tableName).getAbsolutePath();
    this.fixtureDir = fixtureDir;
    this.fixture = fixture;
    conf.set("fs.defaultFS", "file:///");
    this.ctx = new HoodieJavaEngineContext(conf);
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 4) {
      System.err.println("usage: WriteV4 cow|mor <work-dir> <fixture-dir> <fixture-name>");
      System.exit(2);
    }
    WriteV4 w = new WriteV4(args[0], args[1], new File(args[2]), args[3]);
    w.run();
  }

  static void log(String s) {
    System.err.println("[WriteV4] " + s);
  }

  void run() throws Exception {
    FileSystem fs = FileSystem.getLocal(conf);
    fs.delete(new Path(basePath), true);
    HoodieTableType type = scenario.equals("mor") ? HoodieTableType.MERGE_ON_READ : HoodieTableType.COPY_ON_WRITE;

    props.put("hoodie.table.name", tableName);
    props.put("hoodie.datasource.write.table.type", type.name());
    props.put("hoodie.datasource.write.recordkey.field", "id");
    props.put("hoodie.datasource.write.partitionpath.field", "dt");
    props.put("hoodie.datasource.write.precombine.field", "ts");
    props.put("hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.SimpleKeyGenerator");
    props.put("hoodie.datasource.write.payload.class", OverwriteWithLatestAvroPayload.class.getName());
    props.put("hoodie.avro.schema", SCHEMA_JSON);
    props.put("hoodie.insert.shuffle.parallelism", "2");
    props.put("hoodie.upsert.shuffle.parallelism", "2");
    props.put("hoodie.bulkinsert.shuffle.parallelism", "2");
    props.put("hoodie.delete.shuffle.parallelism", "2");
    props.put("hoodie.index.type", "BLOOM");
    props.put("hoodie.index.bloom.num_entries", "1000");
    props.put("hoodie.auto.commit", "false");
    props.put("hoodie.embed.timeline.server", "false");
    props.put("hoodie.write.markers.type", "DIRECT");
    props.put("hoodie.metadata.enable", "false");
    props.put("hoodie.clean.automatic", "true");
    props.put("hoodie.archive.automatic", "true");
    props.put("hoodie.cleaner.policy", "KEEP_LATEST_COMMITS");
    props.put("hoodie.cleaner.commits.retained", "2");
    props.put("hoodie.cleaner.policy.failed.writes", "EAGER");
    props.put("hoodie.keep.min.commits", "4");
    props.put("hoodie.keep.max.commits", "6");
    props.put("hoodie.parquet.small.file.limit", "0");
    if (type == HoodieTableType.MERGE_ON_READ) {
      props.put("hoodie.compact.inline", "false");
      props.put("hoodie.compact.schedule.inline", "false");
      props.put("hoodie.compact.inline.max.delta.commits", "3");
      props.put("hoodie.compaction.payload.class", OverwriteWithLatestAvroPayload.class.getName());
    }
    Properties p = new Properties();
    p.putAll(props);
    cfg = HoodieWriteConfig.newBuilder().withPath(basePath).withProperties(p).build();

    HoodieTableMetaClient.withPropertyBuilder()
        .setTableType(type)
        .setTableName(tableName)
        .setPayloadClassName(OverwriteWithLatestAvroPayload.class.getName())
        .setRecordKeyFields("id")
        .setPartitionFields("dt")
        .setPreCombineField("ts")
        .setKeyGeneratorClassProp("org.apache.hudi.keygen.SimpleKeyGenerator")
        .setTableCreateSchema(SCHEMA_JSON)
        .initTable(conf, basePath);

    notes.add("written by org.apache.hudi:hudi-java-client:" + HUDI_RELEASE + " (HoodieJavaWriteClient) on Hadoop "
        + org.apache.hadoop.util.VersionInfo.getVersion() + " LocalFileSystem (checksummed: .crc side files), no Spark, "
        + "so no Spark event log; hoodie.auto.commit=false and every write is startCommit + write + commit");
    notes.add("metadata table off (hoodie.metadata.enable=false): HoodieJavaTable in 0.11.1 has no metadata writer");
    notes.add("embedded timeline server off and DIRECT markers (the Java client has no Spark-side marker server)");
    try (HoodieJavaWriteClient client = new HoodieJavaWriteClient<>(ctx, cfg)) {
      if (type == HoodieTableType.COPY_ON_WRITE) {
        writeCow(client);
      } else {
        writeMor(client);
      }
    }
    writeOracles(fs);
  }

  // ---------------------------------------------------------------- workload

  String partitionOf(String id) {
    return PARTITIONS[(Integer.parseInt(id.substring(1)) - 1) % PARTITIONS.length];
  }

  HoodieRecord record(String id, long ts) {
    int v = versions.merge(id, 1, Integer::sum);
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("id", id);
    r.put("name", "name_" + id + "_v" + v);
    r.put("ts", ts);
    r.put("dt", partitionOf(id));
    return new HoodieAvroRecord(new HoodieKey(id, partitionOf(id)), new OverwriteWithLatestAvroPayload(r, ts));
  }

  String newId() {
    return String.format("k%03d", nextId++);
  }

  /** n new records. */
  List<HoodieRecord> inserts(int n, long ts, List<String> idsOut) {
    List<HoodieRecord> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String id = newId();
      idsOut.add(id);
      out.add(record(id, ts));
    }
    return out;
  }

  /** one update per partition, rotating over the existing ids of that partition. */
  List<HoodieRecord> updates(int round, long ts, List<String> idsOut) {
    List<HoodieRecord> out = new ArrayList<>();
    for (String part : PARTITIONS) {
      List<String> ids = versions.keySet().stream().filter(id -> partitionOf(id).equals(part)).sorted().collect(Collectors.toList());
      if (ids.isEmpty()) {
        continue;
      }
      String id = ids.get(round % ids.size());
      idsOut.add(id);
      out.add(record(id, ts));
    }
    return out;
  }

  Map<String, Object> logEntry(int n, String op, String instant, List<String> ins, List<String> upd) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("n", n);
    e.put("op", op);
    e.put("instant", instant);
    e.put("inserted_ids", ins);
    e.put("updated_ids", upd);
    writeLog.add(e);
    return e;
  }

  void writeCow(HoodieJavaWriteClient client) throws Exception {
    notes.add("failed write: after write 12 a startCommit + upsert wrote files but was never committed; the next "
        + "startCommit rolled it back (hoodie.cleaner.policy.failed.writes=EAGER, marker-based rollback) -> one rollback instant");
    notes.add("savepoint: HoodieJavaWriteClient.savepoint(<write 17>, ...) after write 17");
    final int writes = 20;
    final int failedAfter = 12;   // one failed write after write 12
    final int savepointAfter = 17;
    for (int n = 1; n <= writes; n++) {
      List<String> ins = new ArrayList<>();
      List<String> upd = new ArrayList<>();
      List<HoodieRecord> recs = new ArrayList<>();
      String op;
      if (n == 1) {
        recs.addAll(inserts(9, n, ins));
        op = "insert";
      } else {
        recs.addAll(updates(n, n, upd));
        recs.addAll(inserts(1, n, ins));
        op = "upsert";
      }
      String t = client.startCommit();
      List<WriteStatus> st = op.equals("insert") ? client.insert(recs, t) : client.upsert(recs, t);
      boolean ok = client.commit(t, st);
      Map<String, Object> e = logEntry(n, op, t, ins, upd);
      e.put("committed", ok);
      log("write " + n + " " + op + " " + t + " committed=" + ok);

      if (n == failedAfter) {
        // A write that fails after Hudi requested the instant and wrote its files: it is never
        // committed; the next write's startCommit rolls it back (hoodie.cleaner.policy.failed.writes=EAGER).
        List<String> fins = new ArrayList<>();
        List<String> fupd = new ArrayList<>();
        Map<String, Integer> saved = new TreeMap<>(versions);
        int savedNext = nextId;
        List<HoodieRecord> frecs = new ArrayList<>(updates(n + 100, 999, fupd));
        frecs.addAll(inserts(1, 999, fins));
        String ft = client.startCommit();
        client.upsert(frecs, ft);
        Map<String, Object> fe = logEntry(n, "upsert (failed: written, never committed)", ft, fins, fupd);
        fe.put("committed", false);
        fe.put("rolled_back_by", "the next write's startCommit (EAGER failed-writes policy)");
        versions.clear();
        versions.putAll(saved);
        nextId = savedNext;
        log("failed write " + ft + " left inflight");
      }
      if (n == savepointAfter) {
        client.savepoint(t, "hudiscope", "fixture savepoint");
        Map<String, Object> se = logEntry(n, "savepoint", t, List.of(), List.of());
        se.put("committed", true);
        log("savepoint on " + t);
      }
    }
  }

  void writeMor(HoodieJavaWriteClient client) throws Exception {
    notes.add("MOR writes: HoodieJavaWriteClient.startCommit, index tagLocation (BLOOM), transitionInflight, "
        + "upsertPreppedRecords, commit; new keys go to new base files (bulk insert inside the delta commit), updates to log files");
    notes.add("compactions: client.scheduleCompaction, then HoodieJavaMergeOnReadTable.compact + finalizeWrite + "
        + "CompactHelpers.completeInflightCompaction + marker cleanup (what SparkRDDWriteClient.completeCompaction does; "
        + "HoodieJavaWriteClient.compact throws HoodieNotSupportedException in 0.11.1)");
    final int writes = 16;
    Set<Integer> compactAfter = Set.of(4, 8, 12);   // schedule + execute
    final int pendingAfter = 15;                     // schedule only
    Set<Integer> insertAt = Set.of(6, 11);
    for (int n = 1; n <= writes; n++) {
      List<String> ins = new ArrayList<>();
      List<String> upd = new ArrayList<>();
      List<HoodieRecord> recs = new ArrayList<>();
      if (n == 1) {
        recs.addAll(inserts(9, n, ins));
      } else {
        recs.addAll(updates(n, n, upd));
        if (insertAt.contains(n)) {
          recs.addAll(inserts(1, n, ins));
        }
      }
      String t = client.startCommit();
      // HoodieJavaMergeOnReadTable only writes log files through upsertPrepped: tag the records
      // with their file group first (the index the client would use), then upsertPreppedRecords.
      HoodieJavaTable table = HoodieJavaTable.create(cfg, ctx);
      HoodieIndex index = JavaHoodieIndexFactory.createIndex(cfg);
      List<HoodieRecord> tagged = HoodieList.getList(index.tagLocation(HoodieList.of(recs), ctx, table));
      // JavaUpsertPreppedDeltaCommitActionExecutor never moves the instant to inflight (only its
      // bulk-insert branch for new keys does, if not done yet): HoodieJavaWriteClient.transitionInflight
      // is the client's own call for that (writes an empty .deltacommit.inflight).
      client.transitionInflight(t);
      List<WriteStatus> st = client.upsertPreppedRecords(tagged, t);
      boolean ok = client.commit(t, st);
      Map<String, Object> e = logEntry(n, n == 1 ? "insert (upsertPreppedRecords)" : "upsert (tagged, upsertPreppedRecords)", t, ins, upd);
      e.put("committed", ok);
      e.put("log_files_written", st.stream().filter(s -> s.getStat().getPath() != null && s.getStat().getPath().contains(".log.")).count());
      e.put("base_files_written", st.stream().filter(s -> s.getStat().getPath() != null && s.getStat().getPath().endsWith(".parquet")).count());
      log("write " + n + " " + t + " committed=" + ok);

      if (compactAfter.contains(n) || n == pendingAfter) {
        Option<String> ct = client.scheduleCompaction(Option.empty());
        if (!ct.isPresent()) {
          throw new IllegalStateException("no compaction plan after write " + n);
        }
        boolean run = compactAfter.contains(n);
        Map<String, Object> ce = logEntry(n, run ? "compaction (scheduled + executed)" : "compaction (scheduled only, left pending)",
            ct.get(), List.of(), List.of());
        if (run) {
          runCompaction(ct.get());
        }
        ce.put("committed", run);
        log("compaction " + ct.get() + " executed=" + run);
      }
    }
  }

  /**
   * HoodieJavaWriteClient.compact/commitCompaction throw HoodieNotSupportedException in 0.11.1, but
   * HoodieJavaMergeOnReadTable.compact works: run it and complete the instant the way
   * SparkRDDWriteClient.completeCompaction does (finalize, transition inflight -> commit, drop markers).
   */
  void runCompaction(String instant) {
    HoodieJavaTable table = HoodieJavaTable.create(cfg, ctx);
    HoodieWriteMetadata<List<WriteStatus>> md = table.compact(ctx, instant);
    HoodieCommitMetadata cm = md.getCommitMetadata().get();
    List<HoodieWriteStat> stats = cm.getWriteStats();
    table.finalizeWrite(ctx, instant, stats);
    CompactHelpers.getInstance().completeInflightCompaction(table, instant, cm);
    WriteMarkersFactory.get(cfg.getMarkersType(), table, instant).quietDeleteMarkerDir(ctx, cfg.getMarkersDeleteParallelism());
  }

  // ---------------------------------------------------------------- oracles

  static String iso(long ms) {
    return DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'+00:00'").format(Instant.ofEpochMilli(ms).atOffset(ZoneOffset.UTC));
  }

  void writeOracles(FileSystem fs) throws Exception {
    File od = new File(fixtureDir, "oracle");
    od.mkdirs();
    HoodieTableMetaClient mc = HoodieTableMetaClient.builder().setConf(conf).setBasePath(basePath)
        .setLoadActiveTimelineOnLoad(true).build();
    HoodieActiveTimeline active = mc.getActiveTimeline();
    HoodieMetadataConfig noMdt = HoodieMetadataConfig.newBuilder().enable(false).build();
    List<String> partitions = new ArrayList<>(FSUtils.getAllPartitionPaths(ctx, noMdt, basePath));
    Collections.sort(partitions);

    // storage listing
    Map<String, Long> storage = new TreeMap<>();
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(new Path(basePath), true);
    String root = new Path(basePath).toUri().getPath();
    while (it.hasNext()) {
      LocatedFileStatus s = it.next();
      String rel = s.getPath().toUri().getPath().substring(root.length() + 1);
      storage.put(rel, s.getLen());
    }

    // active timeline (Java API), with the instant files behind each instant
    List<String> metaFiles = new ArrayList<>();
    for (FileStatus s : fs.listStatus(new Path(basePath, ".hoodie"))) {
      if (s.isFile() && !s.getPath().getName().endsWith(".crc")) {
        metaFiles.add(s.getPath().getName());
      }
    }
    Collections.sort(metaFiles);
    List<Map<String, Object>> tl = new ArrayList<>();
    Map<String, Integer> completed = new TreeMap<>();
    Map<String, Integer> pending = new TreeMap<>();
    for (HoodieInstant in : active.getInstants().collect(Collectors.toList())) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("requested_time", in.getTimestamp());
      e.put("action", in.getAction());
      e.put("state", in.getState().name());
      e.put("completion_time", null);
      boolean sp = in.getAction().equals(HoodieTimeline.SAVEPOINT_ACTION);
      List<String> files = metaFiles.stream()
          .filter(f -> f.startsWith(in.getTimestamp() + ".") && f.contains(".savepoint") == sp)
          .map(f -> ".hoodie/" + f).collect(Collectors.toList());
      e.put("files", files);
      if (in.isCompleted()) {
        String cf = ".hoodie/" + in.getFileName();
        long mt = fs.getFileStatus(new Path(basePath, cf)).getModificationTime();
        e.put("completed_file", cf);
        e.put("completed_file_mtime", iso(mt));
        e.put("completed_file_mtime_ms", mt);
        completed.merge(in.getAction(), 1, Integer::sum);
      } else {
        pending.merge(in.getAction(), 1, Integer::sum);
      }
      if (in.getAction().equals(HoodieTimeline.COMMIT_ACTION)
          && metaFiles.contains(in.getTimestamp() + ".compaction.requested")) {
        e.put("planned_as", "compaction");
      }
      tl.add(e);
    }

    Properties hp = new Properties();
    try (InputStream in = new FileInputStream(new File(basePath, ".hoodie/hoodie.properties"))) {
      hp.load(in);
    }

    // file-system views
    HoodieTimeline viewTl = active.filterCompletedAndCompactionInstants();
    HoodieTableFileSystemView fsv = FileSystemViewManager.createInMemoryFileSystemViewWithTimeline(ctx, mc, noMdt, viewTl);
    Map<String, Object> latest = new LinkedHashMap<>();
    latest.put("api", "FileSystemViewManager.createInMemoryFileSystemViewWithTimeline(ctx, metaClient, metadata off, "
        + "activeTimeline.filterCompletedAndCompactionInstants()).getLatestFileSlices(partition)");
    Map<String, Object> lp = new TreeMap<>();
    for (String part : partitions) {
      lp.put(part, slices(fsv.getLatestFileSlices(part).collect(Collectors.toList())));
    }
    latest.put("partitions", lp);
    writeJson(new File(od, "java_fsview_latest.json"), latest);

    String lastCompleted = active.filterCompletedInstants().lastInstant().get().getTimestamp();
    String lastWrite = active.getCommitsTimeline().filterCompletedInstants().lastInstant().get().getTimestamp();
    Map<String, List<FileSlice>> merged = new TreeMap<>();
    for (String part : partitions) {
      merged.put(part, fsv.getLatestMergedFileSlicesBeforeOrOn(part, lastWrite).collect(Collectors.toList()));
    }
    if (scenario.equals("mor")) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("api", "same view as java_fsview_latest.json; getLatestMergedFileSlicesBeforeOrOn(partition, max_instant)");
      m.put("max_instant", lastWrite);
      m.put("max_instant_is", "the last completed write instant (commit/deltacommit) of the active timeline");
      m.put("last_completed_instant_any_action", lastCompleted);
      Map<String, Object> mp = new TreeMap<>();
      merged.forEach((k, v) -> mp.put(k, slices(v)));
      m.put("partitions", mp);
      writeJson(new File(od, "merged_file_slices.json"), m);
    }
    writeJson(new File(od, "latest_file_slices.json"), showFsviewLatest(mc, fs, partitions, active));

    // snapshot row count: record keys of the merged slices (base file keys + log records)
    long rows = snapshotRowCount(fs, merged, lastWrite);

    // archived timeline
    HoodieArchivedTimeline arch = mc.getArchivedTimeline();
    List<Map<String, Object>> ai = new ArrayList<>();
    for (HoodieInstant in : arch.getInstants().collect(Collectors.toList())) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("action", in.getAction());
      e.put("state", in.getState().name());
      e.put("requested_time", in.getTimestamp());
      e.put("completion_time", null);
      ai.add(e);
    }
    Map<String, Object> ja = new LinkedHashMap<>();
    ja.put("api", "HoodieTableMetaClient.getArchivedTimeline().getInstants()");
    ja.put("note", "Hudi 0.11 instants carry no completion/state-transition time (completion_time is always null)");
    ja.put("count", ai.size());
    ja.put("instants", ai);
    writeJson(new File(od, "java_archived_timeline.json"), ja);
    Map<String, Integer> archivedCompleted = new TreeMap<>();
    ai.stream().filter(e -> "COMPLETED".equals(e.get("state")))
        .forEach(e -> archivedCompleted.merge((String) e.get("action"), 1, Integer::sum));

    HoodieArchivedTimeline archD = new HoodieArchivedTimeline(mc);
    archD.loadInstantDetailsInMemory("00000000000000000", "99999999999999999");
    writeJson(new File(od, "show_archived_commits.json"), commitsTable(archD,
        "port of CALL show_archived_commits(table, limit => 1000, start_ts => '00000000000000000', end_ts => '99999999999999999') "
            + "to the Java API: HoodieArchivedTimeline.loadInstantDetailsInMemory + getCommitsTimeline().filterCompletedInstants(), newest first"));
    writeJson(new File(od, "show_commits.json"), commitsTable(active,
        "port of CALL show_commits(table, limit => 1000) to the Java API: activeTimeline.getCommitsTimeline().filterCompletedInstants(), newest first"));

    Map<String, Object> sp = new LinkedHashMap<>();
    sp.put("api", "activeTimeline.getSavePointTimeline().filterCompletedInstants() (as CALL show_savepoints)");
    sp.put("columns", List.of("savepoint_time"));
    List<List<Object>> spr = new ArrayList<>();
    List<HoodieInstant> sps = active.getSavePointTimeline().filterCompletedInstants().getInstants().collect(Collectors.toList());
    Collections.reverse(sps);
    sps.forEach(i -> spr.add(List.of(i.getTimestamp())));
    sp.put("rows", spr);
    writeJson(new File(od, "show_savepoints.json"), sp);

    Map<String, Object> s = new LinkedHashMap<>();
    s.put("fixture", fixture);
    s.put("scenario", scenario + "-v4");
    s.put("hudi_release", HUDI_RELEASE);
    s.put("writer", "org.apache.hudi:hudi-java-client:" + HUDI_RELEASE + " (HoodieJavaWriteClient, no Spark)");
    s.put("spark_version", null);
    s.put("hadoop_version", org.apache.hadoop.util.VersionInfo.getVersion());
    s.put("java_version", System.getProperty("java.version"));
    s.put("table_name", tableName);
    s.put("table_dir", tableName);
    s.put("table_type", mc.getTableType().name());
    s.put("table_version", mc.getTableConfig().getTableVersion().versionCode());
    s.put("timeline_layout_version", mc.getTimelineLayoutVersion().getVersion());
    s.put("table_config", new TreeMap<>(hp));
    s.put("metadata_partitions", "");
    s.put("row_count", rows);
    s.put("row_count_source", "distinct record keys of getLatestMergedFileSlicesBeforeOrOn(p, " + lastWrite
        + "): base-file keys (BaseFileUtils.readRowKeys) plus HoodieMergedLogRecordScanner keys; no Spark reader");
    s.put("partitions", partitions);
    s.put("completed_by_action", completed);
    s.put("pending_by_action", pending);
    s.put("active_timeline", tl);
    s.put("active_timeline_api", "HoodieTableMetaClient.getActiveTimeline().getInstants() (one instant per requested time "
        + "and action, latest state); files = the .hoodie/<requested>.* instant files behind it; completed_file_mtime[_ms] = "
        + "modification time of the completed instant file as Hadoop's local file system reported it");
    s.put("archived_completed_by_action", archivedCompleted);
    s.put("archived_instants", ai.size());
    s.put("event_log_codec", "none");
    s.put("event_logs", List.of());
    s.put("notes", notes);
    s.put("write_log", writeLog);
    s.put("storage_files", storage);
    s.put("generator_errors", List.of());
    writeJson(new File(od, "summary.json"), s);

    // writer.properties
    try (Writer wr = new FileWriter(new File(fixtureDir, "writer.properties"))) {
      wr.write("# Hudi writer options used for table '" + tableName + "' (" + scenario + "-v4, Hudi " + HUDI_RELEASE
          + ", hudi-java-client, no Spark).\n# Passed as HoodieWriteConfig properties; same keys a --props file holds.\n");
      for (Map.Entry<String, String> e : props.entrySet()) {
        wr.write(escapeKey(e.getKey()) + "=" + escapeValue(e.getValue()) + "\n");
      }
    }
    fsv.close();
    log("oracles written to " + od + " rows=" + rows + " completed=" + completed + " pending=" + pending
        + " archived=" + ai.size());
  }

  static String escapeKey(String s) {
    return s.replace("\\", "\\\\").replace(":", "\\:").replace("=", "\\=").replace(" ", "\\ ");
  }

  static String escapeValue(String s) {
    return s.replace("\\", "\\\\").replace(":", "\\:").replace("=", "\\=");
  }

  static List<Map<String, Object>> slices(List<FileSlice> in) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (FileSlice fs : in) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("file_id", fs.getFileId());
      e.put("base_instant", fs.getBaseInstantTime());
      if (fs.getBaseFile().isPresent()) {
        HoodieBaseFile b = fs.getBaseFile().get();
        Map<String, Object> be = new LinkedHashMap<>();
        be.put("name", b.getFileName());
        be.put("size", b.getFileSize());
        be.put("commit_time", b.getCommitTime());
        e.put("base_file", be);
      } else {
        e.put("base_file", null);
      }
      List<Map<String, Object>> logs = new ArrayList<>();
      fs.getLogFiles().forEach(lf -> {
        Map<String, Object> le = new LinkedHashMap<>();
        le.put("name", lf.getFileName());
        le.put("size", lf.getFileSize());
        le.put("base_commit_time", lf.getBaseCommitTime());
        logs.add(le);
      });
      e.put("log_files", logs);
      out.add(e);
    }
    out.sort((a, b) -> ((String) a.get("file_id")).compareTo((String) b.get("file_id")));
    return out;
  }

  /**
   * The columns of CALL show_fsview_latest (Hudi 0.11/0.12 procedure and hudi-cli "show fsview latest"),
   * computed here with the same Java calls: a view over the completed write timeline built from a
   * listing of every partition, getLatestMergedFileSlicesBeforeOrOn(p, last instant of
   * filterCompletedAndCompactionInstants()) (merge => true, the default). Every row, no limit.
   */
  Map<String, Object> showFsviewLatest(HoodieTableMetaClient mc, FileSystem fs, List<String> partitions,
                                       HoodieActiveTimeline active) throws IOException {
    List<FileStatus> statuses = new ArrayList<>();
    for (String p : partitions) {
      for (FileStatus s : fs.listStatus(new Path(basePath, p))) {
        statuses.add(s);
      }
    }
    HoodieTimeline vt = active.getWriteTimeline().filterCompletedInstants();
    HoodieTableFileSystemView view = new HoodieTableFileSystemView(mc, vt, statuses.toArray(new FileStatus[0]));
    String maxInstant = active.filterCompletedAndCompactionInstants().lastInstant().get().getTimestamp();
    List<String> cols = List.of("partition", "file_id", "base_instant", "data_file", "data_file_size", "num_delta_files",
        "total_delta_file_size", "delta_size_compaction_scheduled", "delta_size_compaction_unscheduled",
        "delta_to_base_radio_compaction_scheduled", "delta_to_base_radio_compaction_unscheduled",
        "delta_files_compaction_scheduled", "delta_files_compaction_unscheduled");
    Map<String, Object> parts = new TreeMap<>();
    for (String p : partitions) {
      List<List<Object>> rows = new ArrayList<>();
      for (FileSlice fs2 : view.getLatestMergedFileSlicesBeforeOrOn(p, maxInstant).collect(Collectors.toList())) {
        String baseFile = "";
        long baseSize = 0;
        if (fs2.getBaseFile().isPresent()) {
          baseFile = fs2.getBaseFile().get().getPath();
          baseSize = fs2.getBaseFile().get().getFileSize();
        }
        List<HoodieLogFile> logs = fs2.getLogFiles().collect(Collectors.toList());
        long total = logs.stream().mapToLong(HoodieLogFile::getFileSize).sum();
        List<HoodieLogFile> sched = logs.stream().filter(l -> l.getBaseCommitTime().equals(fs2.getBaseInstantTime())).collect(Collectors.toList());
        List<HoodieLogFile> unsched = logs.stream().filter(l -> !l.getBaseCommitTime().equals(fs2.getBaseInstantTime())).collect(Collectors.toList());
        long ss = sched.stream().mapToLong(HoodieLogFile::getFileSize).sum();
        long us = unsched.stream().mapToLong(HoodieLogFile::getFileSize).sum();
        List<Object> r = new ArrayList<>();
        r.add(p);
        r.add(fs2.getFileId());
        r.add(fs2.getBaseInstantTime());
        r.add(baseFile);
        r.add(baseSize);
        r.add((long) logs.size());
        r.add(total);
        r.add(ss);
        r.add(us);
        r.add(baseSize > 0 ? ss / (baseSize * 1.0) : -1.0);
        r.add(baseSize > 0 ? us / (baseSize * 1.0) : -1.0);
        r.add(sched.toString());
        r.add(unsched.toString());
        rows.add(r);
      }
      rows.sort((a, b) -> ((String) a.get(1)).compareTo((String) b.get(1)));
      Map<String, Object> t = new LinkedHashMap<>();
      t.put("columns", cols);
      t.put("rows", rows);
      parts.put(p, t);
    }
    view.close();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("procedure", "show_fsview_latest");
    out.put("api", "port to the Java API (no Spark): new HoodieTableFileSystemView(metaClient, "
        + "activeTimeline.getWriteTimeline().filterCompletedInstants(), listing of every partition)"
        + ".getLatestMergedFileSlicesBeforeOrOn(p, " + maxInstant + "); 'scheduled' = log files whose base commit "
        + "equals the slice's base instant (hudi-cli 0.11 FileSystemViewCommand); all rows, no limit");
    out.put("max_instant", maxInstant);
    out.put("partitions", parts);
    return out;
  }

  Map<String, Object> commitsTable(org.apache.hudi.common.table.timeline.HoodieDefaultTimeline timeline, String api) throws IOException {
    List<HoodieInstant> commits = timeline.getCommitsTimeline().filterCompletedInstants().getInstants().collect(Collectors.toList());
    Collections.reverse(commits);
    List<List<Object>> rows = new ArrayList<>();
    for (HoodieInstant in : commits) {
      Option<byte[]> d = timeline.getInstantDetails(in);
      HoodieCommitMetadata m = HoodieCommitMetadata.fromBytes(d.get(), HoodieCommitMetadata.class);
      List<Object> r = new ArrayList<>();
      r.add(in.getTimestamp());
      r.add(in.getAction());
      r.add(m.fetchTotalBytesWritten());
      r.add(m.fetchTotalFilesInsert());
      r.add(m.fetchTotalFilesUpdated());
      r.add(m.fetchTotalPartitionsWritten());
      r.add(m.fetchTotalRecordsWritten());
      r.add(m.fetchTotalUpdateRecordsWritten());
      r.add(m.fetchTotalWriteErrors());
      rows.add(r);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("api", api);
    out.put("columns", List.of("commit_time", "action", "total_bytes_written", "total_files_added", "total_files_updated",
        "total_partitions_written", "total_records_written", "total_update_records_written", "total_errors"));
    out.put("rows", rows);
    return out;
  }

  long snapshotRowCount(FileSystem fs, Map<String, List<FileSlice>> merged, String maxInstant) {
    Set<String> keys = new HashSet<>();
    for (Map.Entry<String, List<FileSlice>> e : merged.entrySet()) {
      for (FileSlice sl : e.getValue()) {
        Set<String> k = new TreeSet<>();
        if (sl.getBaseFile().isPresent()) {
          Path bp = new Path(sl.getBaseFile().get().getPath());
          k.addAll(BaseFileUtils.getInstance(bp.toString()).readRowKeys(conf, bp));
        }
        List<String> logs = sl.getLogFiles().map(l -> l.getPath().toString()).collect(Collectors.toList());
        if (!logs.isEmpty()) {
          HoodieMergedLogRecordScanner sc = HoodieMergedLogRecordScanner.newBuilder()
              .withFileSystem(fs).withBasePath(basePath).withLogFilePaths(logs)
              .withReaderSchema(org.apache.hudi.avro.HoodieAvroUtils.addMetadataFields(SCHEMA))
              .withLatestInstantTime(maxInstant).withReadBlocksLazily(true).withReverseReader(false)
              .withBufferSize(16 * 1024 * 1024).withMaxMemorySizeInBytes(64L * 1024 * 1024)
              .withSpillableMapBasePath(System.getProperty("java.io.tmpdir"))
              .build();
          k.addAll(sc.getRecords().keySet());
          sc.close();
        }
        for (String key : k) {
          keys.add(e.getKey() + "/" + key);
        }
      }
    }
    return keys.size();
  }

  static void writeJson(File f, Object o) throws IOException {
    ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    m.writeValue(f, o);
  }
}
