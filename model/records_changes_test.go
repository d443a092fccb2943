package model

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// image normalises a before/after image for comparison: Spark's "null" string and JSON null
// are no image; numbers compare as JSON numbers.
func image(t *testing.T, v any) string {
	t.Helper()
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if x == "null" {
			return "null"
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(x), &m); err != nil {
			t.Fatalf("oracle image %q: %v", x, err)
		}
		v = m
	case map[string]any:
		if x == nil {
			return "null"
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	b, _ = json.Marshal(m) // keys sorted, numbers as float64
	return string(b)
}

func readChanges(t *testing.T, f fixtureTable, q ChangesQuery) ([]string, records.Stats, error) {
	t.Helper()
	var rows []string
	st, err := Changes(context.Background(), f.t, f.tl, q, func(c records.Change) error {
		rows = append(rows, strings.Join([]string{c.Op, c.TsMs, image(t, c.Before), image(t, c.After)}, " | "))
		return nil
	})
	sort.Strings(rows)
	return rows, st, err
}

// `changes --begin earliest` returns the rows Spark's hudi_table_changes(…, 'cdc', 'earliest')
// returned, row by row (order-insensitive), on every CDC fixture: cdc-1.2.0 (DATA_BEFORE_AFTER),
// cdc-opkey-1.2.0 (OP_KEY_ONLY), cdc-before-1.2.0 (DATA_BEFORE), cdc-mor-1.2.0 (MERGE_ON_READ).
func TestChangesAgreeWithSparkCDC(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "fixtures", "cdc*", "oracle", "cdc.json"))
	if len(files) == 0 {
		t.Skip("no CDC oracles")
	}
	for _, file := range files {
		fx := filepath.Base(filepath.Dir(filepath.Dir(file)))
		t.Run(fx, func(t *testing.T) {
			var oracle struct {
				CDC struct {
					RowCount int             `json:"row_count"`
					Rows     [][]any         `json:"rows"`
					Error    json.RawMessage `json:"error"`
				} `json:"cdc"`
			}
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &oracle); err != nil {
				t.Fatal(err)
			}
			if len(oracle.CDC.Error) > 0 {
				t.Skipf("Spark's CDC read failed: %s", oracle.CDC.Error)
			}
			var want []string
			for _, r := range oracle.CDC.Rows {
				want = append(want, strings.Join([]string{r[0].(string), r[1].(string), image(t, r[2]), image(t, r[3])}, " | "))
			}
			sort.Strings(want)
			f := openFixture(t, fx)
			rd := checkpoint.ReadersOf(f.t.Version())
			got, st, err := readChanges(t, f, ChangesQuery{Begin: "earliest", Reader: rd[len(rd)-1]})
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Problems) > 0 {
				t.Errorf("problems: %v", st.Problems)
			}
			if len(got) != oracle.CDC.RowCount || !reflect.DeepEqual(got, want) {
				t.Errorf("%s (%s) changes\n%s\nSpark\n%s", fx, CDCMode(f.t), strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			t.Logf("%s (%s): %d rows agree", fx, CDCMode(f.t), len(got))
		})
	}
}

// Begin and end bound the writes read, by the reader's rule (1.2.0: completion times, exclusive).
func TestChangesRange(t *testing.T) {
	f := openFixture(t, "cdc-1.2.0")
	rd := checkpoint.ReadersOf(f.t.Version())
	// A begin at the second write's completion (1.2.0: exclusive) leaves the third write's delete.
	c2 := f.tl.Find("20261129155830907")
	got, _, err := readChanges(t, f, ChangesQuery{Begin: c2.CompletionTime, Reader: rd[len(rd)-1]})
	if err != nil || len(got) != 1 || !strings.HasPrefix(got[0], "d | 20261129155835832") {
		t.Errorf("from c2's completion: %v, %v", got, err)
	}
	// An end at the first write's completion leaves its two inserts.
	c1 := f.tl.Find("20261129155759865")
	got, _, err = readChanges(t, f, ChangesQuery{Begin: "earliest", End: c1.CompletionTime, Reader: rd[len(rd)-1]})
	if err != nil || len(got) != 2 || !strings.HasPrefix(got[0], "i | 20261129155759865") {
		t.Errorf("to c1's completion: %v, %v", got, err)
	}
}

// A table without CDC is refused with the incremental command line to use instead.
func TestChangesWithoutCDC(t *testing.T) {
	f := openFixture(t, "incr-1.2.0")
	_, _, err := readChanges(t, f, ChangesQuery{Begin: "earliest"})
	var no ErrNoCDC
	if !errors.As(err, &no) || !strings.Contains(err.Error(), "is not a CDC table") || !strings.Contains(err.Error(), "hudiscope incremental") {
		t.Errorf("err = %v", err)
	}
}

// ChangesScanSize counts what Changes reads: a compaction's commit (and a write that changes
// no data) between the CDC writes is not among them.
func TestChangesScanSizeCountsOnlyCDCWrites(t *testing.T) {
	f := openFixture(t, "cdc-1.2.0")
	s := &Snapshot{table: f.t, Timeline: f.tl}
	before, err := s.ChangesScanSize(context.Background(), ChangesQuery{Begin: "earliest"})
	if err != nil || before.Files == 0 {
		t.Fatalf("cdc-1.2.0: %+v %v", before, err)
	}
	last := f.tl.Instants[len(f.tl.Instants)-1]
	stats := map[string][]timeline.WriteStat{"p": {{FileID: "f", FileSizeInBytes: 1 << 30}}}
	compaction := &timeline.Instant{RequestedTime: last.RequestedTime + "1", Action: timeline.ActionCommit, PlanAction: timeline.ActionCompaction,
		State: timeline.Completed, Commit: &timeline.CommitMetadata{OperationType: "COMPACT", PartitionToWriteStats: stats}}
	noData := &timeline.Instant{RequestedTime: last.RequestedTime + "2", Action: timeline.ActionCommit,
		State: timeline.Completed, Commit: &timeline.CommitMetadata{OperationType: "UNKNOWN", PartitionToWriteStats: stats}}
	s.Timeline = &timeline.Timeline{Instants: append(append([]*timeline.Instant(nil), f.tl.Instants...), compaction, noData)}
	after, err := s.ChangesScanSize(context.Background(), ChangesQuery{Begin: "earliest"})
	if err != nil || after != before {
		t.Errorf("with a compaction and a no-data write: %+v, want %+v (%v)", after, before, err)
	}
}
