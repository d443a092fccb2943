package layout

import (
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/units"
)

// ingestCommits are n upserts, each writing to every partition given.
func ingestCommits(n int, parts ...string) []*timeline.Instant {
	var out []*timeline.Instant
	for i := 0; i < n; i++ {
		stats := map[string][]timeline.WriteStat{}
		for _, p := range parts {
			stats[p] = []timeline.WriteStat{{TotalWriteBytes: 100, NumInserts: 1}}
		}
		out = append(out, commit("2026030100"+string(rune('a'+i)), timeline.ActionCommit, "UPSERT", stats))
	}
	return out
}

// hoodie.parquet.small.file.limit=0 turns the writer's small-file handling off: the report says
// so, and the small-file share still counts files under the threshold rather than nothing.
func TestSmallFileLimitZeroIsHandlingOff(t *testing.T) {
	v := &filegroup.View{Partitions: []*filegroup.Partition{part("a", 5, 1000)}}
	opt := DefaultOptions()
	opt.SmallFileLimit, opt.SmallFileLimitSource = 0, "props (w.properties)"
	r := Analyze(Input{View: v}, opt)
	x := r.Hudiscope
	if x.SmallFileHandling != "off" || x.SmallFileShare != 1 || x.Partitions[0].SmallFiles != 5 || x.SmallFileThreshold != opt.SmallFilesThresholdBytes {
		t.Errorf("limit 0: %+v", x)
	}
	// The text form is report.LayoutText's (report/layout_text_test.go).
	if got := x.WriterSmallFiles(units.Bytes); got != "OFF (hoodie.parquet.small.file.limit=0, props (w.properties)): every write adds new files" {
		t.Errorf("writer small files: %s", got)
	}
	if got := x.SmallShare(units.Bytes); got != "100.0% of latest base files under 50 MiB (the small-files threshold)" {
		t.Errorf("small share: %s", got)
	}
	if r := Analyze(Input{View: v}, DefaultOptions()); r.Hudiscope.SmallFileHandling != "on" {
		t.Errorf("default limit: %s", r.Hudiscope.SmallFileHandling)
	}
}

// small% and the small-files detector measure against one bound, --small-files-threshold-bytes:
// files between the threshold (50 MiB) and the writer's limit (100 MiB) are small to neither, and a
// partition the detector flags (average under the threshold) always shows small files.
func TestSmallShareAgreesWithDetector(t *testing.T) {
	v := &filegroup.View{Partitions: []*filegroup.Partition{part("mid", 5, 60<<20), part("tiny", 5, 10<<20), part("big", 5, 200<<20)}}
	opt := DefaultOptions()
	opt.Characteristics = true
	r := Analyze(Input{View: v, Timeline: &timeline.Timeline{Instants: ingestCommits(12, "mid", "tiny", "big")},
		Now: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), Zone: time.UTC}, opt)
	share := map[string]Dec4{}
	for _, p := range r.Hudiscope.Partitions {
		share[p.Partition] = p.SmallFileShare
	}
	if share["mid"] != 0 || share["tiny"] != 1 || share["big"] != 0 {
		t.Errorf("small shares %v", share)
	}
	d := r.TableCharacteristics.Detector(SmallFiles)
	if d.EffectiveConfigs.Get("observed.flagged.partitions") != 1 || d.Status != Severe {
		t.Errorf("detector %s %v", d.Status, d.EffectiveConfigs)
	}
	for _, row := range *d.TopK {
		if row.AvgFileSize < opt.SmallFilesThresholdBytes && share[row.Partition] == 0 {
			t.Errorf("%s flagged by the detector but small%% is 0", row.Partition)
		}
	}
}

// A non-partitioned table (everything in the root) has no hot partition, however its writes
// fall; a partitioned one is still judged.
func TestHotPartitionsNeverOnNonPartitionedTable(t *testing.T) {
	opt := DefaultOptions()
	opt.Characteristics = true
	root := &filegroup.View{Partitions: []*filegroup.Partition{part("", 3, 1000)}}
	r := Analyze(Input{View: root, Timeline: &timeline.Timeline{Instants: ingestCommits(5, "")}}, opt)
	if d := r.TableCharacteristics.Detector(HotPartitions); d.Status != Skipped || len(*d.Hot) != 0 ||
		!strings.Contains(d.Summary, "not partitioned") || r.TableCharacteristics.OverallStatus == Flagged {
		t.Errorf("non-partitioned: %s %q %v", d.Status, d.Summary, *d.Hot)
	}
	// Without a listing the commits tell: only the root written.
	r = Analyze(Input{Timeline: &timeline.Timeline{Instants: ingestCommits(5, "")}}, opt)
	if d := r.TableCharacteristics.Detector(HotPartitions); d.Status != Skipped {
		t.Errorf("non-partitioned, no view: %s", d.Status)
	}
	parted := &filegroup.View{Partitions: []*filegroup.Partition{part("a", 1, 1000), part("b", 1, 1000)}}
	r = Analyze(Input{View: parted, Timeline: &timeline.Timeline{Instants: ingestCommits(5, "a")}}, opt)
	if d := r.TableCharacteristics.Detector(HotPartitions); d.Status != Flagged || len(*d.Hot) != 1 {
		t.Errorf("partitioned: %s %v", d.Status, *d.Hot)
	}
}
