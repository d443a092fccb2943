package timeline

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/internal/avro"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
)

// The direct Avro mapping must give exactly what the generic Avro → JSON → struct path gives,
// for every completed write instant of every v8/v9 corpus table.
func TestDecodeCommitMetadataMatchesJSONPath(t *testing.T) {
	dir, _ := filepath.Abs("../../../shared/testdata/hudi-rs/crates/test/data")
	zips, _ := filepath.Glob(filepath.Join(dir, "*", "*", "v[89]*.zip"))
	more, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*", "v[89]*.zip"))
	zips = append(zips, more...)
	if len(zips) == 0 {
		t.Skipf("external corpus not present at %s", dir)
	}
	ctx := context.Background()
	checked := 0
	for _, z := range zips {
		st, err := storage.Open(z, storage.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := tableconfig.Read(ctx, st, ".hoodie/hoodie.properties")
		if err != nil {
			t.Fatal(err)
		}
		tbl := &Reader{Store: st, Config: cfg}
		tl, _ := tbl.Active(ctx)
		for _, in := range tl.Instants {
			if in.State != Completed || !IsWriteAction(in.Action) {
				continue
			}
			b, err := tbl.Store.ReadFile(ctx, in.CompletedFile())
			if err != nil {
				t.Fatal(err)
			}
			fast, err := decodeCommitMetadata(b)
			if err != nil {
				t.Fatalf("%s: %v", in.CompletedFile(), err)
			}
			js, _ := avro.ContentJSON(b)
			var slow CommitMetadata
			if err := json.Unmarshal(js, &slow); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*fast, slow) {
				fj, _ := json.Marshal(fast)
				sj, _ := json.Marshal(slow)
				t.Errorf("%s %s: fast and JSON decodes differ\nfast %.300s\nslow %.300s", filepath.Base(z), in.CompletedFile(), fj, sj)
			}
			checked++
		}
	}
	if checked < 200 {
		t.Errorf("only %d instants checked", checked)
	}
	t.Logf("%d commit files compared", checked)
}
