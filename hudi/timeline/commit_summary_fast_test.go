package timeline

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	iavro "github.com/hudiscope/hudiscope/hudi/internal/avro"
)

// fastSummary runs the compiled plan alone: the plan (nil when the schema has none) and
// whether it decoded b.
func fastSummary(t *testing.T, b []byte) (*summaryPlan, commitSummary, bool) {
	t.Helper()
	c, err := iavro.FirstBlock(b)
	if err != nil {
		return nil, commitSummary{}, false
	}
	p := summaryPlanFor(c.Schema)
	if p == nil {
		return nil, commitSummary{}, false
	}
	sum, ok := p.decode(c.Block)
	return p, sum, ok
}

// checkFastMatchesLite fails t when the plan decodes b to anything but what the typed lite
// decode gives (nil and empty alike: a replacecommit's empty id list is kept as such).
func checkFastMatchesLite(t *testing.T, name string, b []byte) bool {
	t.Helper()
	_, fast, ok := fastSummary(t, b)
	if !ok {
		return false
	}
	c, _ := iavro.FirstBlock(b)
	var lc liteCommit
	if err := c.Into(&lc); err != nil {
		t.Fatalf("%s: the plan decoded what the typed decode refuses: %v", name, err)
	}
	lite, err := liteSummary(b, c)
	if err != nil || !reflect.DeepEqual(fast, lite) {
		t.Fatalf("%s: plan %+v, typed decode %+v (%v)", name, fast, lite, err)
	}
	return true
}

// Every fixture's Avro commit, and a synthetic table's, is summed by the plan exactly as by the
// typed decode.
func TestSummaryPlanMatchesLite(t *testing.T) {
	avroFiles, fast := 0, 0
	eachFixtureCommit(t, func(name string, b []byte) {
		if !iavro.IsOCF(b) {
			return
		}
		avroFiles++
		if checkFastMatchesLite(t, name, b) {
			fast++
		}
	})
	if avroFiles == 0 {
		t.Skip("no Avro fixture commits")
	}
	// Every Hudi writer schema in the fixtures has the plan's shape.
	if fast != avroFiles {
		t.Errorf("plan decoded %d of %d Avro commit files", fast, avroFiles)
	}
	t.Logf("%d Avro commit files", avroFiles)
}

const planStatSchema = `{"type":"record","name":"HoodieWriteStat","fields":[` +
	`{"name":"fileId","type":["null","string"]},{"name":"path","type":["string","null"]},` +
	`{"name":"prevCommit","type":"string"},{"name":"numWrites","type":["null","int"]},` +
	`{"name":"ext","type":{"type":"fixed","name":"F","size":3}},{"name":"e","type":{"type":"enum","name":"E","symbols":["A","B"]}},` +
	`{"name":"numInserts","type":"long"},{"name":"numUpdateWrites","type":["long","null"]},` +
	`{"name":"d","type":["null","double","float","boolean",{"type":"array","items":"E"}]},` +
	`{"name":"totalWriteBytes","type":["null","long"]},{"name":"numDeletes","type":"int"}]}`

const planSchema = `{"type":"record","name":"HoodieCommitMetadata","namespace":"org.apache.hudi.avro.model","fields":[` +
	`{"name":"extraMetadata","type":["null",{"type":"map","values":["null","string"]}]},` +
	`{"name":"partitionToWriteStats","type":["null",{"type":"map","values":["null",{"type":"array","items":["null",` + planStatSchema + `]}]}]},` +
	`{"name":"nested","type":{"type":"record","name":"N","fields":[{"name":"w","type":"org.apache.hudi.avro.model.HoodieWriteStat"},{"name":"b","type":"bytes"}]}},` +
	`{"name":"partitionToReplaceFileIds","type":["null",{"type":"map","values":["null",{"type":"array","items":["null","string"]}]}]},` +
	`{"name":"operationType","type":["string","null"]}]}`

// The plan reads writer schemas other than Hudi's own: union branches in either order, ints
// for longs, nulls everywhere, unknown fields of every kind (skipped), multi-block arrays and
// maps with byte sizes — always as the typed decode reads them.
func TestSummaryPlanShapes(t *testing.T) {
	s, err := iavro.Schema(planSchema)
	if err != nil {
		t.Fatal(err)
	}
	stat := func(id, path any, writes int32, inserts int64) map[string]any {
		return map[string]any{"fileId": id, "path": path, "prevCommit": "null", "numWrites": writes, "ext": [3]byte{1, 2, 3},
			"e": "B", "numInserts": inserts, "numUpdateWrites": int64(2), "d": 1.5, "totalWriteBytes": int64(100), "numDeletes": int32(1)}
	}
	datums := map[string]map[string]any{
		"full": {
			"extraMetadata": map[string]any{"schema": "{…}", "x": nil},
			"partitionToWriteStats": map[string]any{
				"b": []any{stat("f1", nil, 3, 3), nil, stat(nil, "b/f2.parquet", 5, 0)},
				"a": []any{stat("f1", "a/f1.parquet", 7, 7)},
				"c": []any{}, "d": nil,
			},
			"nested":                    map[string]any{"w": stat("x", "y", 1, 1), "b": []byte{0, 1}},
			"partitionToReplaceFileIds": map[string]any{"a": []any{"g1", nil}, "b": []any{}, "c": nil},
			"operationType":             "INSERT_OVERWRITE",
		},
		"nulls": {"extraMetadata": nil, "partitionToWriteStats": nil, "nested": map[string]any{"w": stat("x", "y", 1, 1), "b": []byte{}},
			"partitionToReplaceFileIds": nil, "operationType": nil},
		"empty": {"extraMetadata": map[string]any{}, "partitionToWriteStats": map[string]any{}, "nested": map[string]any{"w": stat("x", "y", 1, 1), "b": []byte{}},
			"partitionToReplaceFileIds": map[string]any{}, "operationType": ""},
	}
	for name, d := range datums {
		datum, err := s.Encode(d)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !checkFastMatchesLite(t, name, ocfSeed(planSchema, datum)) {
			t.Errorf("%s: the plan did not decode", name)
		}
	}
	// The full datum's sums, as numbers: partition b has a null stat (counted, zero) and two files.
	datum, _ := s.Encode(datums["full"])
	_, sum, _ := fastSummary(t, ocfSeed(planSchema, datum))
	// (b's null stat: no path or id, 0 writes = 0 inserts, no previous commit — a new file "b/";
	// FilesAdded counts the three stats whose prevCommit is "null", as Hudi's show_commits does.)
	if sum.op != "INSERT_OVERWRITE" || sum.totals != (CommitTotals{NumWrites: 15, NumInserts: 10, NumUpdateWrites: 6, NumDeletes: 3,
		TotalBytesWritten: 300, Files: 4, Partitions: 2, FilesAdded: 3}) || len(sum.writes) != 4 || sum.writes[1].Files != 3 || sum.writes[1].NewFiles != 2 {
		t.Errorf("sums %+v", sum)
	}

	// Blocks with byte sizes (negative counts), as some writers emit them: the stats map in two
	// blocks, "p" then "q", each one stat of numWrites 4 (all other fields minimal).
	statBytes := func() []byte {
		b := []byte{0, 0, 0}           // fileId null, path "" (string branch 0, length 0)
		b = append(b, 0)               // prevCommit ""
		b = append(b, 2, 8)            // numWrites int 4
		b = append(b, 1, 2, 3, 2)      // fixed, enum B
		b = append(b, 8, 0, 4)         // numInserts 4, numUpdateWrites long 2
		b = append(b, 0, 0, 2)         // d null, totalWriteBytes null, numDeletes 1
		return append([]byte{2}, b...) // the array item's record branch
	}
	var blk []byte
	blk = append(blk, 0) // extraMetadata null
	blk = append(blk, 2) // stats map
	for _, part := range []string{"p", "q"} {
		entry := append([]byte{2, part[0], 2}, binary.AppendVarint(nil, -1)...) // key, array branch, count -1
		st := statBytes()
		entry = binary.AppendVarint(entry, int64(len(st)))
		entry = append(append(entry, st...), 0)
		blk = binary.AppendVarint(blk, -1)
		blk = binary.AppendVarint(blk, int64(len(entry)))
		blk = append(blk, entry...)
	}
	blk = append(blk, 0) // end of map
	nested, _ := s.Encode(map[string]any{"extraMetadata": nil, "partitionToWriteStats": nil, "nested": map[string]any{"w": stat("x", "y", 1, 1), "b": []byte{}},
		"partitionToReplaceFileIds": nil, "operationType": "UPSERT"})
	blk = append(blk, nested[2:]...) // the rest: nested record, replace ids null, operation
	if !checkFastMatchesLite(t, "blocks", ocfSeed(planSchema, blk)) {
		t.Fatal("blocks: the plan did not decode")
	}
	_, sum, _ = fastSummary(t, ocfSeed(planSchema, blk))
	if sum.op != "UPSERT" || sum.totals.NumWrites != 8 || sum.totals.Partitions != 2 || sum.totals.Files != 2 {
		t.Errorf("blocks: %+v", sum)
	}

	// A repeated partition (the decoded map keeps the last) and a truncated datum are left to
	// the typed decode.
	dup := []byte{0, 2, 4} // extraMetadata null, stats map: one block of two entries, both "p"
	for range 2 {
		dup = append(append(append(dup, 2, 'p', 2, 2), statBytes()...), 0)
	}
	dup = append(append(dup, 0), nested[2:]...)
	if _, _, ok := fastSummary(t, ocfSeed(planSchema, dup)); ok {
		t.Error("repeated partition decoded")
	}
	if sum, err := decodeCommitSummary(ocfSeed(planSchema, dup)); err != nil || sum.totals.NumWrites != 4 || sum.totals.Partitions != 1 {
		t.Errorf("repeated partition: %+v, %v", sum, err)
	}
	if _, _, ok := fastSummary(t, ocfSeed(planSchema, datum[:len(datum)-3])); ok {
		t.Error("truncated datum decoded")
	}
}

// Schemas whose shape the plan does not read have no plan (the typed decode reads them).
func TestSummaryPlanRefuses(t *testing.T) {
	for name, schema := range map[string]string{
		"op not a string":  `{"type":"record","name":"R","fields":[{"name":"operationType","type":"int"}]}`,
		"logical type":     `{"type":"record","name":"R","fields":[{"name":"operationType","type":{"type":"string","logicalType":"uuid"}}]}`,
		"wide union":       `{"type":"record","name":"R","fields":[{"name":"operationType","type":["null","string","int"]}]}`,
		"recursive":        `{"type":"record","name":"R","fields":[{"name":"next","type":["null","R"]},{"name":"operationType","type":"string"}]}`,
		"array of nulls":   `{"type":"record","name":"R","fields":[{"name":"x","type":{"type":"array","items":"null"}}]}`,
		"stats not a map":  `{"type":"record","name":"R","fields":[{"name":"partitionToWriteStats","type":"string"}]}`,
		"not a record":     `"string"`,
		"numWrites string": `{"type":"record","name":"R","fields":[{"name":"partitionToWriteStats","type":{"type":"map","values":{"type":"array","items":{"type":"record","name":"S","fields":[{"name":"numWrites","type":"string"}]}}}}]}`,
	} {
		s, err := iavro.Schema(schema)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p := makeSummaryPlan(s.Root()); p != nil {
			t.Errorf("%s: a plan", name)
		}
	}
}

// The synthetic 50k-commit table's commit files (when built) take the plan.
func TestSummaryPlanSynthetic(t *testing.T) {
	dir := "/tmp/hs-50k-10k/.hoodie/timeline"
	names, err := filepath.Glob(filepath.Join(dir, "*_*.commit"))
	if err != nil || len(names) == 0 {
		t.Skip("no synthetic table")
	}
	for _, n := range names[:min(len(names), 50)] {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		if !checkFastMatchesLite(t, n, b) {
			t.Fatalf("%s: the plan did not decode", n)
		}
	}
}
