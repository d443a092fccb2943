package model

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/records"
)

// keyOracle is oracle/key_story.json (testdata/gen/probe_key.py, Spark 3.5 + Hudi 1.2.0): per key,
// the snapshot row and the row a time-travel read returns as of every completed write.
type keyOracle struct {
	Keys []struct {
		Key     string           `json:"key"`
		Current []map[string]any `json:"current"`
		AsOf    []struct {
			AsOf string           `json:"as_of"`
			Rows []map[string]any `json:"rows"`
		} `json:"as_of"`
	} `json:"keys"`
}

// TestKeyLookupOracle: on the four index fixtures, KeyLookup finds each key the way the table's
// index allows (record index, bucket index, footers), and its current value, location and
// version list are what Spark read: the current row's commit time, name and file group; every
// value a time-travel read returned, once each with the commit that wrote it; a delete as the
// version that ends the story.
func TestKeyLookupOracle(t *testing.T) {
	method := map[string]string{"index-bucket-1.2.0": KeyByBucket, "index-rli-1.2.0": KeyByRecordIndex,
		"index-bloom-1.2.0": KeyByBloom, "index-simple-1.2.0": KeyByBloom}
	// File groups the index lets the lookup skip: bucket 4 partitions x 3 other buckets; the RLI
	// every group but one of 104; footers all but the key's own.
	pruned := map[string]int{"index-bucket-1.2.0": 12, "index-rli-1.2.0": 103, "index-bloom-1.2.0": 103}
	for fx, want := range method {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", fx, "oracle", "key_story.json"))
		if err != nil {
			t.Fatal(err)
		}
		var or keyOracle
		if err := json.Unmarshal(b, &or); err != nil {
			t.Fatal(err)
		}
		ft := openFixture(t, fx)
		for _, k := range or.Keys {
			st, err := KeyLookup(context.Background(), ft.t, ft.tl, ft.view, false, KeyQuery{Key: k.Key})
			if err != nil {
				t.Fatalf("%s %s: %v", fx, k.Key, err)
			}
			if st.Method != want {
				t.Errorf("%s %s: found by %s, want %s", fx, k.Key, st.Method, want)
			}
			if n, ok := pruned[fx]; ok && st.GroupsPruned != n && len(k.Current) > 0 {
				t.Errorf("%s %s: %d file groups pruned, want %d", fx, k.Key, st.GroupsPruned, n)
			}
			// The current value and where it lives.
			switch {
			case len(k.Current) == 0 && st.Current != nil:
				t.Errorf("%s %s: current %v, Spark returns no row", fx, k.Key, st.Current.Values)
			case len(k.Current) == 1:
				c := k.Current[0]
				if st.Current == nil {
					t.Fatalf("%s %s: no current row, Spark returns %v", fx, k.Key, c)
				}
				if st.Status != "current" || st.Current.CommitTime != c["_hoodie_commit_time"] || st.Current.Values["name"] != c["name"] {
					t.Errorf("%s %s: %s %s %v, Spark %v %v", fx, k.Key, st.Status, st.Current.CommitTime, st.Current.Values["name"], c["_hoodie_commit_time"], c["name"])
				}
				// A base-file row names its file; a log record (merge-on-read) its file id.
				fileID := c["_hoodie_file_name"].(string)
				if bn, ok := filegroup.ParseBaseFileName(fileID); ok {
					fileID = bn.FileID
				}
				if len(st.Locations) != 1 || st.Locations[0].FileID != fileID || st.Locations[0].Partition != c["_hoodie_partition_path"] {
					t.Errorf("%s %s: locations %+v, Spark's row is in %v %s", fx, k.Key, st.Locations, c["_hoodie_partition_path"], fileID)
				}
			}
			// Spark's versions: each distinct row a time-travel read returned, by commit time.
			sparkVals := map[string]any{}
			var sparkOrder []string
			deletedAt := ""
			seen := false
			for _, a := range k.AsOf {
				if len(a.Rows) == 0 && seen && deletedAt == "" {
					deletedAt = a.AsOf
				}
				for _, r := range a.Rows {
					seen = true
					ct := r["_hoodie_commit_time"].(string)
					if _, ok := sparkVals[ct]; !ok {
						sparkOrder = append(sparkOrder, ct)
					}
					sparkVals[ct] = r["name"]
				}
			}
			var got []string
			currents := 0
			for _, v := range st.Versions {
				if v.Current {
					currents++
					if st.Current == nil || v.CommitTime != st.Current.CommitTime {
						t.Errorf("%s %s: version %s marked current, current row is %v", fx, k.Key, v.CommitTime, st.Current)
					}
				}
				switch {
				case v.Deleted:
					if v.CommitTime != deletedAt {
						t.Errorf("%s %s: delete at %s, Spark's rows end as of %q", fx, k.Key, v.CommitTime, deletedAt)
					}
					if v.Operation != "DELETE" || !v.InLog {
						t.Errorf("%s %s: delete version %+v, want a DELETE log block", fx, k.Key, v)
					}
					continue
				case v.CarriedOver:
					continue
				}
				if slices.Contains(got, v.CommitTime) {
					t.Errorf("%s %s: commit %s stored twice (not as a copy)", fx, k.Key, v.CommitTime)
				}
				got = append(got, v.CommitTime)
				if sparkVals[v.CommitTime] != v.Record.Values["name"] {
					t.Errorf("%s %s: version %s name %v, Spark %v", fx, k.Key, v.CommitTime, v.Record.Values["name"], sparkVals[v.CommitTime])
				}
				if v.CompletionTime == "" || v.Operation == "" {
					t.Errorf("%s %s: version %s lacks its commit's completion time or operation: %+v", fx, k.Key, v.CommitTime, v)
				}
			}
			// Reading every file group's keys (--scan) tells the same story as the index.
			full, err := KeyLookup(context.Background(), ft.t, ft.tl, ft.view, false, KeyQuery{Key: k.Key, Scan: true})
			if err != nil {
				t.Fatal(err)
			}
			if full.Method != KeyByScan || len(full.Versions) != len(st.Versions) || full.Status != st.Status || full.GroupsPruned != 0 {
				t.Errorf("%s %s: --scan %s %s, %d versions, %d pruned; the index %s, %d versions", fx, k.Key, full.Method, full.Status, len(full.Versions), full.GroupsPruned, st.Status, len(st.Versions))
			}
			if strings.Join(got, ",") != strings.Join(sparkOrder, ",") {
				t.Errorf("%s %s: versions %v, Spark's time travel saw %v", fx, k.Key, got, sparkOrder)
			}
			if wantCur := len(k.Current); currents != wantCur {
				t.Errorf("%s %s: %d versions marked current, want %d", fx, k.Key, currents, wantCur)
			}
			if len(k.Current) == 0 && seen && st.Status != "deleted" || !seen && st.Status != "absent" {
				t.Errorf("%s %s: status %s", fx, k.Key, st.Status)
			}
		}
	}
}

// TestKeyLookupFigures pins the stories of two keys by hand: id 8 of the bucket table (a base
// row and three log blocks, the last one current) and id 10 (deleted by the fifth delta commit).
func TestKeyLookupFigures(t *testing.T) {
	ft := openFixture(t, "index-bucket-1.2.0")
	ctx := context.Background()
	st, err := KeyLookup(ctx, ft.t, ft.tl, ft.view, false, KeyQuery{Key: "8"})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Locations) != 1 || st.Locations[0].Bucket != 3 || st.Locations[0].Partition != "2024-01-01" {
		t.Fatalf("locations %+v, want bucket 3 of 2024-01-01 ((31+'8') & MAX %% 4 = 87 %% 4)", st.Locations)
	}
	var got []string
	for _, v := range st.Versions {
		got = append(got, v.CommitTime+" "+v.Operation+" "+v.Record.Values["name"].(string)+" "+map[bool]string{true: "log", false: "base"}[v.InLog])
	}
	want := []string{"20261202034852463 INSERT n8 base", "20261202035002080 UPSERT v1 log", "20261202035029285 UPSERT v2 log", "20261202035052272 UPSERT v3 log"}
	if !slices.Equal(got, want) {
		t.Errorf("versions\n%v\nwant\n%v", got, want)
	}
	if !st.Versions[3].Current || st.Versions[3].CompletionTime != "20261202035111648" {
		t.Errorf("last version %+v, want current, completed 20261202035111648", st.Versions[3])
	}
	// --buckets 8 sends key 8 to bucket 87 % 8 = 7, which no file group has: absent.
	st, err = KeyLookup(ctx, ft.t, ft.tl, ft.view, false, KeyQuery{Key: "8", Buckets: 8})
	if err != nil {
		t.Fatal(err)
	}
	if st.Status != "absent" || st.GroupsChecked != 0 {
		t.Errorf("with 8 buckets: %s, %d groups read", st.Status, st.GroupsChecked)
	}
	// The partition flag keeps the lookup to one partition: key 8 is not in 2024-01-02.
	st, err = KeyLookup(ctx, ft.t, ft.tl, ft.view, false, KeyQuery{Key: "8", Partition: "2024-01-02"})
	if err != nil {
		t.Fatal(err)
	}
	if st.Status != "absent" || st.GroupsChecked != 1 {
		t.Errorf("in 2024-01-02: %s, %d groups read (want absent, 1)", st.Status, st.GroupsChecked)
	}
}

// TestBucketOf: Hudi's BucketIdentifier for single and composite keys (Java List<String>.hashCode
// of the hash fields' values, & Integer.MAX_VALUE, mod n), worked by hand.
func TestBucketOf(t *testing.T) {
	for _, c := range []struct {
		key    string
		fields []string
		n      int
		want   int
	}{
		{"8", []string{"id"}, 4, 3},  // 31*1 + 56 = 87
		{"9", []string{"id"}, 4, 0},  // 88
		{"10", []string{"id"}, 4, 2}, // 31 + ("10".hashCode() = 49*31+48 = 1567) = 1598
		// [a, b]: 31*(31*1 + 97) + 98 = 4066; the key's field order does not matter.
		{"f2:b,f1:a", []string{"f1", "f2"}, 5, 4066 % 5},
	} {
		got, err := bucketOf(c.key, c.fields, c.n)
		if err != nil || got != c.want {
			t.Errorf("bucketOf(%q, %v, %d) = %d, %v; want %d", c.key, c.fields, c.n, got, err, c.want)
		}
	}
}

// TestSnapshotWhere: snapshot --where on the bucket table, counted by hand from the generator
// (generate.py index_bucket): the third upsert wrote ts=3 to ids 0,13,…,195 (16) and 8 and 9;
// 2024-01-01 holds the 50 ids k%4 == 0; id 8 is v3 after its third update, id 10 deleted; and the
// record key prunes through the bucket index (one group per partition), the partition field
// partitions. On the record-index table, id 1249 is y1249 from one file group of 104.
func TestSnapshotWhere(t *testing.T) {
	ctx := context.Background()
	read := func(fx string, preds ...Predicate) (names []string, plan WherePlan) {
		ft := openFixture(t, fx)
		_, plan, err := whereView(ctx, ft.t, ft.tl, ft.view, false, true, preds)
		if err != nil {
			t.Fatal(err)
		}
		_, err = SnapshotBatches(ctx, ft.t, ft.tl, ft.view, false, SnapshotQuery{Where: preds, RowColumns: RowColumns{Columns: []string{"name"}}}, func(b *records.Batch) error {
			for i := range b.Len() {
				names = append(names, records.Text(b.Get(i, "name")))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return names, plan
	}
	p := func(c, v string) Predicate { return Predicate{Column: c, Value: v} }
	if got, _ := read("index-bucket-1.2.0", p("ts", "3")); len(got) != 18 {
		t.Errorf("ts=3: %d rows, want 18", len(got))
	}
	if got, plan := read("index-bucket-1.2.0", p("dt", "2024-01-01")); len(got) != 50 || plan.PartitionsPruned != 3 {
		t.Errorf("dt=2024-01-01: %d rows, %d partitions pruned; want 50, 3", len(got), plan.PartitionsPruned)
	}
	if got, plan := read("index-bucket-1.2.0", p("id", "8")); !slices.Equal(got, []string{"v3"}) || plan.KeyMethod != KeyByBucket || plan.GroupsPruned != 12 {
		t.Errorf("id=8: %v, %+v", got, plan)
	}
	if got, _ := read("index-bucket-1.2.0", p("id", "8.0"), p("dt", "2024-01-01")); !slices.Equal(got, []string{"v3"}) {
		t.Errorf("id=8.0 (numeric comparison) and dt: %v", got)
	}
	if got, _ := read("index-bucket-1.2.0", p("id", "10")); len(got) != 0 {
		t.Errorf("id=10 (deleted): %v", got)
	}
	if got, plan := read("index-rli-1.2.0", p("id", "1249")); !slices.Equal(got, []string{"y1249"}) || plan.KeyMethod != KeyByRecordIndex || plan.GroupsPruned != 103 {
		t.Errorf("rli id=1249: %v, %+v", got, plan)
	}
	if _, err := ParsePredicate("novalue"); err == nil {
		t.Error("ParsePredicate accepted a predicate without =")
	}
}

// TestKeyLookupSharedTables: composite keys (ComplexKeyGenerator, `id:1,name:Alice`) on the
// hudi-rs 0.x tables (table version 6), copy-on-write and merge-on-read, and a table without
// meta fields (the key derived from `id`). Figures read from the tables: Alice was upserted
// twice, isActive true then false; the second merge-on-read write is a log block.
func TestKeyLookupSharedTables(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "testdata", "hudi-rs", "crates", "test", "data", "sample_table")
	for _, c := range []struct {
		zip, key string
		commits  []string
		inLog    bool
	}{
		{"cow/v6_complexkeygen_hivestyle.zip", "id:1,name:Alice", []string{"20240418173213674", "20240418173235694"}, false},
		{"mor/parquet/v6_complexkeygen_hivestyle.zip", "id:1,name:Alice", []string{"20250118044623136", "20250118044632401"}, true},
		{"cow/v6_simplekeygen_hivestyle_no_metafields.zip", "1", []string{"20240426205419518"}, false},
	} {
		path := filepath.Join(dir, c.zip)
		if _, err := os.Stat(path); err != nil {
			t.Skipf("shared hudi-rs tables absent: %v", err)
		}
		f := openTable(t, path, false)
		st, err := KeyLookup(context.Background(), f.t, f.tl, f.view, false, KeyQuery{Key: c.key})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, v := range st.Versions {
			got = append(got, v.CommitTime)
		}
		if st.Status != "current" || st.Current.Values["name"] != "Alice" || st.Current.Values["isActive"] != false || !slices.Equal(got, c.commits) {
			t.Errorf("%s: %s %v, versions %v; want current Alice isActive=false, %v", c.zip, st.Status, st.Current, got, c.commits)
			continue
		}
		last := st.Versions[len(st.Versions)-1]
		if !last.Current || last.InLog != c.inLog || last.CompletionTime == "" {
			t.Errorf("%s: last version %+v", c.zip, last)
		}
	}
}

// TestKeyLookupReplacedGroups: cow-services-1.2.0 ran an insert overwrite (replacecommit
// 20261129161835394) and clusterings; the groups they replaced keep their files until a clean,
// and key 1's older values are there: u1_25 and u1_37 in two replaced groups of 2024-01-02, then
// u1_37 copied forward in the live group and u1_43 current (figures read from the table).
func TestKeyLookupReplacedGroups(t *testing.T) {
	ft := openFixture(t, "cow-services-1.2.0")
	st, err := KeyLookup(context.Background(), ft.t, ft.tl, ft.view, false, KeyQuery{Key: "1"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range st.Versions {
		state := "older"
		switch {
		case v.Current:
			state = "current"
		case v.Replaced:
			state = "replaced"
		case v.CarriedOver:
			state = "copy"
		}
		got = append(got, v.CommitTime+" "+v.Record.Values["name"].(string)+" "+state)
	}
	want := []string{"20261129161730622 u1_25 replaced", "20261129161913802 u1_37 copy", "20261129161913802 u1_37 replaced", "20261129162134323 u1_43 current"}
	if !slices.Equal(got, want) {
		t.Errorf("versions\n%v\nwant\n%v", got, want)
	}
	replaced := 0
	for _, l := range st.Locations {
		if l.Replaced {
			replaced++
		}
	}
	if st.Method != KeyByBloom || len(st.Locations) != 3 || replaced != 2 || st.Current.Values["name"] != "u1_43" {
		t.Errorf("%s, locations %+v, current %v", st.Method, st.Locations, st.Current.Values)
	}
}

// TestKeyLookupCDC: on the CDC table cdc-1.2.0 (written: insert ids 1,2; upsert 1 -> a2 and insert
// 3; delete 2), key 1's images are its insert and its update a -> a2 (read from the .cdc log), and
// key 2's its insert and its delete at 20261129155835832, as `changes --begin earliest` prints them.
func TestKeyLookupCDC(t *testing.T) {
	ft := openFixture(t, "cdc-1.2.0")
	for _, c := range []struct {
		key, want, status string
	}{
		{"1", "i 20261129155759865 <nil>>a; u 20261129155830907 a>a2", "current"},
		{"2", "i 20261129155759865 <nil>>b; d 20261129155835832 b><nil>", "deleted"},
	} {
		st, err := KeyLookup(context.Background(), ft.t, ft.tl, ft.view, false, KeyQuery{Key: c.key})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		name := func(img map[string]any) string {
			if img == nil {
				return "<nil>"
			}
			return records.Text(img["name"])
		}
		for _, ch := range st.Changes {
			got = append(got, ch.Op+" "+ch.TsMs+" "+name(ch.Before)+">"+name(ch.After))
		}
		if strings.Join(got, "; ") != c.want || st.Status != c.status {
			t.Errorf("key %s: %s, images %q; want %s, %q", c.key, st.Status, strings.Join(got, "; "), c.status, c.want)
		}
	}
}
