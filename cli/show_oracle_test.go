package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hudiscope/hudiscope/view"
)

// show's numbers are Hudi's: row by row against CALL show_commit_partitions, show_commit_files,
// show_commit_write_stats, stats_wa and stats_file_sizes of Hudi 1.2.0 (Spark 3.5) on the same
// tables (testdata/gen/probe_show.py, oracle/show_probes.json).
func TestShowMatchesSparkProcedures(t *testing.T) {
	t.Setenv("HUDISCOPE_NOW", "2026-12-01T00:00:00Z")
	for _, fx := range []string{"cow-services-1.2.0", "mor-services-1.2.0"} {
		t.Run(fx, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", fx, "oracle", "show_probes.json"))
			if err != nil {
				t.Fatal(err)
			}
			type result struct {
				Columns []string `json:"columns"`
				Rows    [][]any  `json:"rows"`
				Error   any      `json:"error"`
			}
			var o struct {
				Commits []struct {
					Instant struct {
						RequestedTime string `json:"requested_time"`
						Action        string `json:"action"`
					} `json:"instant"`
					Partitions result `json:"show_commit_partitions"`
					Files      result `json:"show_commit_files"`
					WriteStats result `json:"show_commit_write_stats"`
				} `json:"commits"`
				WA        result `json:"stats_wa"`
				FileSizes result `json:"stats_file_sizes"`
			}
			if err := json.Unmarshal(b, &o); err != nil {
				t.Fatal(err)
			}
			if len(o.Commits) < 6 {
				t.Fatalf("%d commits in the oracle", len(o.Commits))
			}
			shows := map[string]showDoc{}
			var partRows, fileRows int
			for _, c := range o.Commits {
				rt := c.Instant.RequestedTime
				d := showJSON(t, fixture(fx), rt+"."+c.Instant.Action)
				shows[rt] = d
				ws := d.WriteStats
				if ws == nil {
					t.Fatalf("%s: no write statistics", rt)
				}
				var got, want []string
				for _, p := range ws.Partitions {
					got = append(got, fmt.Sprint(d.Instant.Action, p.Partition, p.FilesAdded, p.FilesUpdated, p.RecordsInserted, p.RecordsUpdated, p.BytesWritten, p.WriteErrors))
				}
				for _, r := range c.Partitions.Rows {
					want = append(want, fmt.Sprint(r...))
				}
				partRows += len(want)
				compareRows(t, rt+" show_commit_partitions", got, want)
				got, want = nil, nil
				for _, f := range ws.Files {
					got = append(got, fmt.Sprint(d.Instant.Action, f.Partition, f.FileID, f.PrevCommit, f.RecordsUpdated, f.RecordsWritten, f.BytesWritten, f.WriteErrors, f.FileSize))
				}
				for _, r := range c.Files.Rows {
					want = append(want, fmt.Sprint(r...))
				}
				fileRows += len(want)
				compareRows(t, rt+" show_commit_files", got, want)
				if len(c.WriteStats.Rows) != 1 {
					t.Fatalf("%s: show_commit_write_stats %+v", rt, c.WriteStats)
				}
				compareRows(t, rt+" show_commit_write_stats", []string{fmt.Sprint(d.Instant.Action, ws.BytesWritten, ws.RecordsWritten, ws.AvgRecordSize)},
					[]string{fmt.Sprint(c.WriteStats.Rows[0]...)})
			}
			t.Logf("%s: %d commits, %d partition rows, %d file rows equal", fx, len(o.Commits), partRows, fileRows)
			// stats_wa: the commits and replacecommits of the active timeline, then the total.
			var tw, tu int64
			for _, r := range o.WA.Rows {
				ct := r[0].(string)
				if ct == "Total" {
					w := view.WA{Written: tw, Updated: tu, OK: tu > 0}
					compareRows(t, "stats_wa Total", []string{fmt.Sprint(tu, tw, w.Text())}, []string{fmt.Sprint(r[1:]...)})
					continue
				}
				d, ok := shows[ct]
				if !ok {
					t.Errorf("stats_wa lists %s, not a probed commit", ct)
					continue
				}
				ws := d.WriteStats
				w := view.WA{Written: ws.RecordsWritten, Updated: ws.RecordsUpdated, OK: ws.RecordsUpdated > 0}
				tw, tu = tw+ws.RecordsWritten, tu+ws.RecordsUpdated
				text := "0"
				if ws.WriteAmplification != nil {
					text = w.Text()
					if got := fmt.Sprintf("%.2f", *ws.WriteAmplification); got != text {
						t.Errorf("%s: writeAmplification %s, Hudi prints %s", ct, got, text)
					}
				}
				compareRows(t, "stats_wa "+ct, []string{fmt.Sprint(ws.RecordsUpdated, ws.RecordsWritten, text)}, []string{fmt.Sprint(r[1:]...)})
			}
			// stats_file_sizes groups the files on storage by the instant in their names;
			// show summarises the files the commit's metadata says it wrote. They agree for
			// every commit whose files are all still there (docs/show.md).
			same := 0
			for _, r := range o.FileSizes.Rows {
				d, ok := shows[r[0].(string)]
				if !ok || d.WriteStats.FileSizes.Count != int(r[7].(float64)) {
					continue
				}
				fs := d.WriteStats.FileSizes
				got := fmt.Sprintf("%d %.4f %.4f %.4f %.4f %d %.4f", fs.Min, fs.P10, fs.P50, fs.Mean, fs.P95, fs.Max, fs.StdDev)
				want := fmt.Sprintf("%d %.4f %.4f %.4f %.4f %d %.4f", int64(r[1].(float64)), r[2], r[3], r[4], r[5], int64(r[6].(float64)), r[8])
				compareRows(t, "stats_file_sizes "+r[0].(string), []string{got}, []string{want})
				same++
			}
			if same < 6 {
				t.Errorf("only %d commits compared with stats_file_sizes", same)
			}
			t.Logf("%s: %d stats_wa rows, %d stats_file_sizes rows equal", fx, len(o.WA.Rows), same)
		})
	}
}

// compareRows compares rows as multisets (Hudi lists partitions in hash-map order).
func compareRows(t *testing.T, what string, got, want []string) {
	t.Helper()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got  %q\n want %q", what, got, want)
	}
}
