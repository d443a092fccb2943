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

// corpusZips are the fixture tables (all releases) and, when present, the external corpus's
// v8/v9 tables (1.x): at any depth passed as the external glob patterns.
func corpusZips(withFixtures bool, external ...string) []string {
	var zips []string
	if withFixtures {
		zips, _ = filepath.Glob("../../testdata/fixtures/*/table.zip")
	}
	dir, _ := filepath.Abs("../../../shared/testdata/hudi-rs/crates/test/data")
	for _, pat := range external {
		more, _ := filepath.Glob(filepath.Join(dir, pat))
		zips = append(zips, more...)
	}
	return zips
}

// eachWriteCommit calls fn with the bytes of every completed write instant's file of every
// table zip.
func eachWriteCommit(t *testing.T, zips []string, fn func(zip, file string, b []byte)) {
	t.Helper()
	ctx := context.Background()
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
		tl, err := (&Reader{Store: st, Config: cfg}).ActiveNames(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range tl.Instants {
			if in.State != Completed || !IsWriteAction(in.Action) {
				continue
			}
			b, err := st.ReadFile(ctx, in.CompletedFile())
			if err != nil {
				t.Fatal(err)
			}
			fn(filepath.Base(z), in.CompletedFile(), b)
		}
	}
}

// The direct Avro mapping must give exactly what the generic Avro → JSON → struct path gives,
// for every completed write instant of every v8/v9 corpus table.
func TestDecodeCommitMetadataMatchesJSONPath(t *testing.T) {
	zips := corpusZips(false, "*/*/v[89]*.zip", "*/*/*/v[89]*.zip")
	if len(zips) == 0 {
		t.Skip("external corpus not present")
	}
	checked := 0
	eachWriteCommit(t, zips, func(z, file string, b []byte) {
		fast, err := decodeCommitMetadata(b)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		js, _ := avro.ContentJSON(b)
		var slow CommitMetadata
		if err := json.Unmarshal(js, &slow); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*fast, slow) {
			fj, _ := json.Marshal(fast)
			sj, _ := json.Marshal(slow)
			t.Errorf("%s %s: fast and JSON decodes differ\nfast %.300s\nslow %.300s", z, file, fj, sj)
		}
		checked++
	})
	if checked < 200 {
		t.Errorf("only %d instants checked", checked)
	}
	t.Logf("%d commit files compared", checked)
}

// The typed Avro decode gives exactly what the generic datum mapping gives, for every completed
// write instant of every fixture (all releases) and of the external corpus when present.
func TestDecodeCommitTypedMatchesGeneric(t *testing.T) {
	external := corpusZips(false, "*/*/v[89]*.zip")
	zips := append(corpusZips(true), external...)
	if len(zips) == 0 {
		t.Skip("no fixtures")
	}
	checked := 0
	eachWriteCommit(t, zips, func(z, file string, b []byte) {
		if !avro.IsOCF(b) {
			return
		}
		var typed CommitMetadata
		if err := avro.FirstRecordInto(b, &typed); err != nil {
			t.Errorf("%s %s: typed decode: %v", z, file, err)
			return
		}
		normalizeTyped(&typed)
		generic, err := decodeCommitGeneric(b)
		if err != nil {
			t.Fatalf("%s %s: %v", z, file, err)
		}
		if !reflect.DeepEqual(&typed, generic) {
			tj, _ := json.Marshal(&typed)
			gj, _ := json.Marshal(generic)
			t.Errorf("%s %s: typed and generic decodes differ\ntyped   %.400s\ngeneric %.400s", z, file, tj, gj)
		}
		checked++
	})
	want := 10 // the fixtures' 1.x tables; the external corpus adds 205
	if len(external) > 0 {
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
	for name, decode := range map[string]func([]byte) (*CommitMetadata, error){"full": decodeCommitMetadata, "summary": summaryDecode} {
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

// summaryDecode is decodeCommitSummary shaped as the full decode, for the fallback test.
func summaryDecode(b []byte) (*CommitMetadata, error) {
	sum, err := decodeCommitSummary(b)
	if err != nil {
		return nil, err
	}
	return &CommitMetadata{OperationType: sum.op}, nil
}
