package eventlog

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/eventlog/source"
)

// Expected values were checked independently: the logs were decoded with the
// zstd/gzip CLIs and counted with Python's json module (valid lines, distinct
// job ids, (stage, attempt) pairs, TaskEnd lines, ApplicationEnd - ApplicationStart).
func TestSharedFixtures(t *testing.T) {
	dir := sharedLogs(t)
	for _, tc := range []struct {
		path                    string
		events, bad             int64
		jobs, stages            int
		tasks, duration         int64
		layout                  string
		truncated, hasAppEnd    bool
		sparkVersion, versionBy string
	}{
		{"spark-rapids-tools/aqeshuffle_eventlog.zstd", 85, 0, 4, 4, 26, 17896, "file", false, true, "", ""},
		{"spark-rapids-tools/multiple_attempts/attempt_1_eventlog.zstd", 275, 0, 5, 5, 107, 42664, "file", false, true, "3.3.0-amzn-0", "SparkListenerLogStart"},
		{"spark-rapids-tools/multiple_attempts/attempt_2_eventlog.zstd", 277, 0, 5, 5, 107, 42469, "file", false, true, "", ""},
		{"spark-codecs-reencoded/application_1724877841851_0016_1.lz4", 275, 0, 5, 5, 107, 42664, "file", false, true, "", ""},
		{"spark-codecs-reencoded/application_1724877841851_0016_1.snappy", 275, 0, 5, 5, 107, 42664, "file", false, true, "", ""},
		{"spark-codecs-reencoded/application_1724877841851_0016_1.zstd", 275, 0, 5, 5, 107, 42664, "file", false, true, "", ""},
		{"spark-codecs-reencoded/eventlog_v2_application_1724877841851_0016_1", 275, 0, 5, 5, 107, 42664, "rolling", false, true, "", ""},
		{"spark-codecs-reencoded/application_1724877841851_0016_2.zstd.inprogress", 38, 0, 3, 2, 1, -1, "file", false, false, "", ""},
		{"spark-rapids-tools/db_sim_eventlog", 5621, 0, 1, 4, 2801, 133857, "databricks", false, true, "", ""},
		{"spark-rapids-tools/eventlog_v2_local-1623876083964", 5621, 0, 1, 4, 2801, 133857, "rolling", false, true, "", ""},
		{"dr-elephant/event_log_1", 33, 0, 1, 1, 10, 55273, "file", false, true, "1.5.1", "SparkListenerLogStart"},
		{"spark-rapids-tools/java_udf_eventlog", 27, 0, 2, 2, 2, 1864, "file", false, true, "", ""},
		{"sparklens/local-1532512550423", 30, 0, 2, 2, 8, 15975, "file", false, true, "2.3.0", ""},
		{"spark-rapids-tools/malformed_json_eventlog.zstd", 476, 1, 2, 5, 217, 119990, "file", false, true, "", ""},
		{"spark-rapids-tools/nds_q72_dataproc_2_2.zstd", 27321, 0, 49, 49, 13504, 116729, "file", false, true, "", ""},
		{"spark-rapids-tools/spark2-eventlog.zstd", 58, 0, 6, 6, 6, 47063, "file", false, true, "", ""},
		{"spark-rapids-tools/streaming_eventlog.zstd", 36, 0, 2, 2, 7, 17698, "file", false, true, "", ""},
		{"spark-rapids-tools/tasks_executors_fail_compressed_eventlog.zstd", 17717, 0, 80, 135, 8630, 97482, "file", false, true, "", ""},
		{"spark-codecs-reencoded/application_1603128018386_7846.lz4", 17717, 0, 80, 135, 8630, 97482, "file", false, true, "", ""},
		{"spark-rapids-tools/truncated_eventlog", 62, 0, 2, 3, 21, -1, "file", false, false, "", ""},
	} {
		t.Run(tc.path, func(t *testing.T) {
			r := analyzePath(t, filepath.Join(dir, tc.path))
			o := r.Application.Observed
			var tasks int64
			for _, s := range r.Stages {
				tasks += s.Observed.NumTasksObserved
			}
			var bad int64
			trunc := false
			for _, f := range r.Hudiscope.Files {
				bad += f.MalformedLines
				trunc = trunc || f.Truncated
			}
			if o.EventsRead != tc.events || bad != tc.bad || o.JobCount != tc.jobs || o.StageCount != tc.stages || tasks != tc.tasks ||
				r.Hudiscope.Source.Layout != tc.layout || trunc != tc.truncated || r.Hudiscope.Application.Complete != tc.hasAppEnd {
				t.Errorf("events %d bad %d jobs %d stages %d tasks %d layout %s truncated %v complete %v",
					o.EventsRead, bad, o.JobCount, o.StageCount, tasks, r.Hudiscope.Source.Layout, trunc, r.Hudiscope.Application.Complete)
			}
			if tc.duration >= 0 && o.DurationMillis != tc.duration {
				t.Errorf("duration %d want %d", o.DurationMillis, tc.duration)
			}
			if tc.sparkVersion != "" && sp(r.Application.SparkVersion) != tc.sparkVersion {
				t.Errorf("spark version %s", sp(r.Application.SparkVersion))
			}
			if tc.versionBy != "" && r.Hudiscope.Application.SparkVersionSource != tc.versionBy {
				t.Errorf("spark version source %s", r.Hudiscope.Application.SparkVersionSource)
			}
			if o.TaskCount != tasks || len(r.Caveats) < 3 {
				t.Errorf("taskCount %d caveats %d", o.TaskCount, len(r.Caveats))
			}
		})
	}
}

func TestDamageReported(t *testing.T) {
	dir := sharedLogs(t)
	// LZ4 in-progress: complete 32 KiB blocks only, no end mark, last line cut.
	r := analyzePath(t, filepath.Join(dir, "spark-codecs-reencoded/application_1724877841851_0016_2.lz4.inprogress"))
	f := r.Hudiscope.Files[0]
	if f.DecodedBytes != 262144 || f.EncodedBytes != 57773 || !f.Truncated || f.MalformedLines != 1 || !r.Hudiscope.Source.InProgress {
		t.Errorf("lz4 inprogress file info %+v", f)
	}
	var codecDmg, lineDmg *DamageRecord
	for i, d := range r.Hudiscope.Damage {
		switch d.Kind {
		case "truncated":
			codecDmg = &r.Hudiscope.Damage[i]
		case "malformed-line":
			lineDmg = &r.Hudiscope.Damage[i]
		}
	}
	if codecDmg == nil || codecDmg.Offset == nil || *codecDmg.Offset != 57773 || codecDmg.DecodedOffset != 262144 {
		t.Errorf("codec damage %+v", codecDmg)
	}
	if lineDmg == nil || lineDmg.Line == nil || *lineDmg.Line != f.Lines || lineDmg.DecodedOffset <= 0 || lineDmg.DecodedOffset >= 262144 {
		t.Errorf("line damage %+v (lines %d)", lineDmg, f.Lines)
	}
	if len(r.Warnings) != 2 {
		t.Errorf("warnings %q", r.Warnings)
	}

	// zstd in-progress with a truncated last frame: 959,694 bytes decoded then the cut.
	r = analyzePath(t, filepath.Join(dir, "spark-codecs-reencoded/application_1603128018386_7846.zstd.inprogress"))
	f = r.Hudiscope.Files[0]
	if d := r.Hudiscope.Damage; f.DecodedBytes != 959694 || !f.Truncated || f.MalformedLines != 1 || len(d) != 2 ||
		d[1].Kind != "truncated" || *d[1].Offset != 56542 || d[0].Kind != "malformed-line" || *d[0].Line != 443 || d[0].DecodedOffset != 958936 {
		t.Errorf("zstd inprogress %+v %+v", f, r.Hudiscope.Damage)
	}

	// Malformed middle line: line 4 (EnvironmentUpdate) is skipped, everything else used.
	r = analyzePath(t, filepath.Join(dir, "spark-rapids-tools/malformed_json_eventlog.zstd"))
	if d := r.Hudiscope.Damage; len(d) != 1 || d[0].Line == nil || *d[0].Line != 4 || d[0].Kind != "malformed-line" {
		t.Errorf("malformed damage %+v", d)
	}

	// In-progress rolling dir with a 0-byte open snappy part.
	r = analyzePath(t, filepath.Join(dir, "spark-codecs-reencoded/eventlog_v2_application_1724877841851_0016_2"))
	var total int64
	for _, f := range r.Hudiscope.Files {
		total += f.DecodedBytes
	}
	if len(r.Hudiscope.Files) != 3 || total != 267460 || r.Hudiscope.Files[2].EncodedBytes != 0 || !r.Hudiscope.Source.InProgress || len(r.Hudiscope.Damage) != 0 {
		t.Errorf("rolling in-progress: %+v damage %+v", r.Hudiscope.Files, r.Hudiscope.Damage)
	}
}

func TestMultipleAppsRejected(t *testing.T) {
	_, err := Analyze(t.Context(), filepath.Join(sharedLogs(t), "spark-rapids-tools/multiple_attempts"), Options{})
	var m *source.MultipleLogsError
	if !errors.As(err, &m) || len(m.Names) != 2 {
		t.Fatalf("err %v", err)
	}
}
