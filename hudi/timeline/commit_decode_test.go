package timeline

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
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

// The typed Avro decode gives exactly what the generic datum mapping gives, for every completed
// write instant of every fixture (all releases) and of the external corpus when present.
func TestDecodeCommitTypedMatchesGeneric(t *testing.T) {
	zips, _ := filepath.Glob("../../testdata/fixtures/*/table.zip")
	dir, _ := filepath.Abs("../../../shared/testdata/hudi-rs/crates/test/data")
	more, _ := filepath.Glob(filepath.Join(dir, "*", "*", "v[89]*.zip"))
	zips = append(zips, more...)
	if len(zips) == 0 {
		t.Skip("no fixtures")
	}
	ctx := context.Background()
	checked := 0
	for _, z := range zips {
		st, err := storage.Open(z, storage.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if es, _ := st.List(ctx, ""); len(es) == 1 && es[0].IsDir && es[0].Name != ".hoodie" {
			st = storage.NewPrefixed(st, es[0].Name) // fixtures zip the table's directory
		}
		cfg, err := tableconfig.Read(ctx, st, ".hoodie/hoodie.properties")
		if err != nil {
			t.Fatalf("%s: %v", z, err)
		}
		r := &Reader{Store: st, Config: cfg}
		tl, err := r.ActiveNames(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range tl.Instants {
			if in.State != Completed || !IsWriteAction(in.Action) {
				continue
			}
			b, err := st.ReadFile(ctx, in.CompletedFile())
			if err != nil || !avro.IsOCF(b) {
				continue
			}
			var typed CommitMetadata
			if err := avro.FirstRecordInto(b, &typed); err != nil {
				t.Errorf("%s %s: typed decode: %v", z, in.CompletedFile(), err)
				continue
			}
			normalizeTyped(&typed)
			generic, err := decodeCommitGeneric(b)
			if err != nil {
				t.Fatalf("%s %s: %v", z, in.CompletedFile(), err)
			}
			if !reflect.DeepEqual(&typed, generic) {
				tj, _ := json.Marshal(&typed)
				gj, _ := json.Marshal(generic)
				t.Errorf("%s %s: typed and generic decodes differ\ntyped   %.400s\ngeneric %.400s", z, in.CompletedFile(), tj, gj)
			}
			checked++
		}
	}
	want := 10 // the fixtures' 1.x tables; the external corpus adds 205
	if len(more) > 0 {
		want = 200
	}
	if checked < want {
		t.Errorf("only %d Avro commit files compared, want %d", checked, want)
	}
	t.Logf("%d Avro commit files compared", checked)
}

// A writer schema the typed structs do not fit (operationType a long) is not an error: the
// generic mapping reads it. A container the generic path cannot read either fails with the
// same error from both decoders.
func TestDecodeCommitTypedFallback(t *testing.T) {
	b := ocfSeed(`{"type":"record","name":"HoodieCommitMetadata","fields":[{"name":"operationType","type":"long"}]}`,
		binary.AppendVarint(nil, 7))
	var cm CommitMetadata
	if err := avro.FirstRecordInto(b, &cm); !errors.Is(err, avro.ErrNotInto) {
		t.Fatalf("typed decode: err = %v, want ErrNotInto", err)
	}
	for name, decode := range map[string]func([]byte) (*CommitMetadata, error){"full": decodeCommitMetadata, "lite": decodeCommitLite} {
		got, err := decode(b)
		if err != nil || got.OperationType != "7" {
			t.Errorf("%s: got %+v, %v; want operationType 7 from the generic mapping", name, got, err)
		}
		cut := b[:len(b)-10] // the block runs past the end
		_, ferr := decode(cut)
		_, gerr := decodeCommitGeneric(cut)
		if ferr == nil || errors.Is(ferr, avro.ErrNotInto) || ferr.Error() != gerr.Error() {
			t.Errorf("%s on a cut container: err = %v, want the generic path's %v", name, ferr, gerr)
		}
	}
}
