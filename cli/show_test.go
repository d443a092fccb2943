package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// showCases are the instants the show goldens cover: a commit, a deltacommit, a clean, a
// completed compaction (archived), a pending compaction plan, a clustering and an
// insert-overwrite replacecommit, a rollback, a savepoint, and a comparison.
var showCases = []struct {
	name, fx string
	args     []string
}{
	{"commit-latest", "cow-services-1.2.0", []string{"latest"}},
	{"clean", "cow-services-1.2.0", []string{"20261129162049827"}},
	{"clustering", "cow-services-1.2.0", []string{"20261129162054490"}},
	{"insert-overwrite", "cow-services-1.2.0", []string{"20261129161835394"}},
	{"rollback", "cow-services-1.2.0", []string{"20261129162030948"}},
	{"savepoint", "cow-services-1.2.0", []string{"20261129161800076.savepoint"}},
	{"compare", "cow-services-1.2.0", []string{"latest", "--compare", "20261129162031337"}},
	{"deltacommit", "mor-services-1.2.0", []string{"20261129163127401"}},
	{"compaction-plan", "mor-services-1.2.0", []string{"20261129163053361"}},
	{"compaction-archived", "mor-services-1.2.0", []string{"20261129163015967"}},
}

// `show` in text, JSON and Markdown matches its goldens (go test ./cli -run TestShowGolden -update).
func TestShowGolden(t *testing.T) {
	t.Setenv("HUDISCOPE_NOW", "2026-12-01T00:00:00Z")
	t.Setenv("TZ", "UTC")
	for _, c := range showCases {
		for _, format := range []string{"text", "json", "md"} {
			t.Run(c.name+"/"+format, func(t *testing.T) {
				args := append(append([]string{"show", fixture(c.fx)}, c.args...), "-o", format, "--cluster-defaults", "-")
				stdout, stderr, code := runCLI(t, args...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				if format == "json" {
					var doc map[string]any
					if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
						t.Fatal(err)
					}
				}
				ext := map[string]string{"text": "txt", "json": "json", "md": "md"}[format]
				golden := filepath.Join("testdata", "show", c.fx+"-"+c.name+"."+ext)
				assertGolden(t, golden, stdout)
			})
		}
	}
}

// The values checked by hand in the fixtures (hudiscope timeline, the commit files): the latest
// cow-services-1.2.0 commit rewrote 77 records to update 3 (WA 25.67, as stats_wa says), and an
// archived compaction of mor-services-1.2.0 is found without --archived.
func TestShowValues(t *testing.T) {
	t.Setenv("HUDISCOPE_NOW", "2026-12-01T00:00:00Z")
	doc := showJSON(t, fixture("cow-services-1.2.0"), "latest")
	ws := doc.WriteStats
	if doc.Instant.RequestedTime != "20261129162134323" || doc.MatchedBy != "latest" || ws.RecordsWritten != 77 || ws.RecordsUpdated != 3 ||
		ws.RecordsInserted != 2 || ws.BytesWritten != 55797 || ws.AvgRecordSize != 725 || ws.WriteAmplification == nil || *ws.WriteAmplification != 25.67 ||
		ws.FilesAdded != 2 || ws.FilesUpdated != 3 || ws.FileSizes.Count != 5 || ws.FileSizes.Min != 10796 || ws.FileSizes.P50 != 11249 || ws.FileSizes.Max != 11507 {
		t.Errorf("latest: %+v %+v", doc.Instant, ws)
	}
	// By completion time too.
	if d := showJSON(t, fixture("cow-services-1.2.0"), "20261129162151912"); d.Instant.RequestedTime != "20261129162134323" || d.MatchedBy != "completion time" {
		t.Errorf("by completion time: %+v %s", d.Instant, d.MatchedBy)
	}
	d := showJSON(t, fixture("mor-services-1.2.0"), "20261129163015967")
	if !d.Instant.Archived || d.WriteStats == nil || d.WriteStats.RecordsWritten != 12 || d.WriteStats.RecordsUpdated != 9 || *d.WriteStats.WriteAmplification != 1.33 {
		t.Errorf("archived compaction: %+v %+v", d.Instant, d.WriteStats)
	}
	// A clean has no write statistics, and its plan is a table.
	c := showJSON(t, fixture("cow-services-1.2.0"), "20261129162049827")
	if c.WriteStats != nil || len(c.Tables) != 2 || c.Tables[0].Title != "partitions cleaned" || len(c.Tables[0].Rows) != 2 {
		t.Errorf("clean: %+v", c)
	}
}

type showDoc struct {
	Instant struct {
		RequestedTime string `json:"requestedTime"`
		Action        string `json:"action"`
		Archived      bool   `json:"archived"`
	} `json:"instant"`
	MatchedBy  string `json:"matchedBy"`
	WriteStats *struct {
		FilesAdded, FilesUpdated                                        int64
		RecordsWritten, RecordsInserted, RecordsUpdated, RecordsDeleted int64
		BytesWritten, WriteErrors, AvgRecordSize                        int64
		WriteAmplification                                              *float64
		FileSizes                                                       struct {
			Count               int
			Min, Max            int64
			P10, P50, Mean, P95 float64
			StdDev              float64 `json:"stdDev"`
		}
		Partitions []struct {
			Partition                                                               string
			FilesAdded, FilesUpdated, RecordsInserted, RecordsUpdated, BytesWritten int64
			WriteErrors                                                             int64
		}
		Files []struct {
			Partition, FileID, PrevCommit                                       string
			RecordsUpdated, RecordsWritten, BytesWritten, WriteErrors, FileSize int64
		}
	} `json:"writeStats"`
	Tables []struct {
		Title string
		Rows  [][]any
	}
}

func showJSON(t *testing.T, args ...string) showDoc {
	t.Helper()
	stdout, stderr, code := runCLI(t, append(append([]string{"show"}, args...), "-o", "json", "--cluster-defaults", "-")...)
	if code != 0 {
		t.Fatalf("show %v: exit %d: %s", args, code, stderr)
	}
	var d showDoc
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// An unknown instant and an ambiguous one exit 2 naming the nearest instants, or the
// TIME.ACTION forms that tell them apart; --compare of a clean is a usage error.
func TestShowBadInstant(t *testing.T) {
	t.Setenv("HUDISCOPE_NOW", "2026-12-01T00:00:00Z")
	table := fixture("cow-services-1.2.0")
	_, stderr, code := runCLI(t, "show", table, "20261129161800076")
	if code != exitUsage || !strings.Contains(stderr, "20261129161800076.commit") || !strings.Contains(stderr, "20261129161800076.savepoint") {
		t.Errorf("ambiguous: exit %d: %s", code, stderr)
	}
	_, stderr, code = runCLI(t, "show", table, "20261129162134300")
	if code != exitUsage || !strings.Contains(stderr, "(active and archived)") || !strings.Contains(stderr, "nearest:\n  20261129162134323 commit completed") {
		t.Errorf("unknown: exit %d: %s", code, stderr)
	}
	_, stderr, code = runCLI(t, "show", table, "latest", "--compare", "20261129162049827")
	if code != exitUsage || !strings.Contains(stderr, "20261129162049827 is a clean completed without write statistics") {
		t.Errorf("compare clean: exit %d: %s", code, stderr)
	}
}
