package timeline

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/hudiscope/hudiscope/hudi/internal/synth"
	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/internal/testutil"
)

func ocfLong(b []byte, v int64) []byte { return binary.AppendVarint(b, v) }

func ocfStr(b []byte, s string) []byte { return append(ocfLong(b, int64(len(s))), s...) }

// zstdBombOCF is a container whose one zstd block is 6000 concatenated frames of 1 MiB of
// zeros: 6000 MiB decoded from about 700 KB.
func zstdBombOCF() []byte {
	zw, _ := zstd.NewWriter(nil)
	block := bytes.Repeat(zw.EncodeAll(make([]byte, 1<<20), nil), 6000)
	sync := []byte("0123456789abcdef")
	b := []byte("Obj\x01")
	b = ocfLong(b, 2)
	b = ocfStr(b, "avro.schema")
	b = ocfStr(b, `{"type":"record","name":"HoodieCommitMetadata","fields":[{"name":"operationType","type":"string"}]}`)
	b = ocfStr(b, "avro.codec")
	b = ocfStr(b, "zstandard")
	b = ocfLong(b, 0)
	b = append(b, sync...)
	b = ocfLong(b, 1)
	b = ocfLong(b, int64(len(block)))
	b = append(b, block...)
	return append(b, sync...)
}

func reader(t *testing.T, st storage.Storage) *Reader {
	t.Helper()
	cfg, err := tableconfig.Read(context.Background(), st, ".hoodie/hoodie.properties")
	if err != nil {
		t.Fatal(err)
	}
	return &Reader{Store: st, Config: cfg, Problems: &problem.Log{}}
}

// A completed commit holding a decompression bomb is a problem naming its file; the instant
// stays on the timeline (with Err) and the others decode.
func TestBombInstantIsAProblem(t *testing.T) {
	files := synth.Table("bomb", 1, 1)
	const bombReq, bombDone = "20260103000000000", "20260103000005000"
	bombFile := ".hoodie/timeline/" + bombReq + "_" + bombDone + ".commit"
	files[bombFile] = zstdBombOCF()
	st, err := storage.OpenLocal(testutil.WriteFiles(t, files))
	if err != nil {
		t.Fatal(err)
	}
	r := reader(t, st)
	ctx := context.Background()
	tl, err := r.Active(ctx)
	if err != nil {
		t.Fatalf("Active: %v", err)
	}
	r.LoadCommits(ctx, tl.Instants)
	if len(tl.Instants) != 2 {
		t.Fatalf("%d instants, want 2", len(tl.Instants))
	}
	byTime := map[string]*Instant{}
	for _, in := range tl.Instants {
		byTime[in.RequestedTime] = in
	}
	if in := byTime[synth.Requested]; in == nil || in.Operation != "INSERT" || in.Err != "" {
		t.Errorf("good instant = %+v", in)
	}
	bomb := byTime[bombReq]
	if bomb == nil || !strings.Contains(bomb.Err, "decompresses to more than 256 MiB") {
		t.Errorf("bomb instant = %+v", bomb)
	}
	ps := r.Problems.List()
	want := problem.Problem{File: st.Root() + "/" + bombFile,
		Err: "avro container: zstandard block: block decompresses to more than 256 MiB: over the decoding ceiling"}
	if len(ps) != 1 || ps[0] != want {
		t.Errorf("problems = %v, want [%v]", ps, want)
	}
}

// Archive logs read a block at a time (as any over archiveWholeMax is) give the same archived
// timeline as logs read whole.
func TestArchivedRangedSameAsWhole(t *testing.T) {
	z, _ := filepath.Abs("../../testdata/fixtures/cow-services-0.15.0/table.zip")
	if _, err := os.Stat(z); err != nil {
		t.Skipf("fixture absent: %v", err)
	}
	load := func() (string, []problem.Problem) {
		st, err := storage.Open(z, storage.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := reader(t, st)
		tl := &Timeline{}
		if err := r.LoadArchived(context.Background(), tl); err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		for _, in := range tl.Archived {
			fmt.Fprintf(&sb, "%s %s %s %s\n", in.RequestedTime, in.Action, in.State, in.CompletionTime)
		}
		return sb.String(), r.Problems.List()
	}
	whole, wp := load()
	old := archiveWholeMax
	archiveWholeMax = -1
	defer func() { archiveWholeMax = old }()
	ranged, rp := load()
	if n := strings.Count(whole, "\n"); n < 5 {
		t.Fatalf("only %d archived instants:\n%s", n, whole)
	}
	if ranged != whole || len(rp) != len(wp) {
		t.Errorf("ranged:\n%s\nwhole:\n%s\nproblems %v vs %v", ranged, whole, rp, wp)
	}
}

// refuseStore stands in for the storage's read ceiling: ReadFile of one path fails the way a
// too-large file will.
type refuseStore struct {
	storage.Storage
	path string
}

func (s refuseStore) ReadFile(ctx context.Context, p string) ([]byte, error) {
	if p == s.path {
		return nil, fmt.Errorf("read %s/%s: 300 MiB, more than the 256 MiB read ceiling", s.Root(), p)
	}
	return s.Storage.ReadFile(ctx, p)
}

// An instant file the storage refuses to read is a problem naming it; the rest loads.
func TestRefusedInstantIsAProblem(t *testing.T) {
	files := synth.Table("refuse", 1, 1)
	const req, done = "20260103000000000", "20260103000005000"
	big := ".hoodie/timeline/" + req + "_" + done + ".commit"
	files[big] = []byte(`{"operationType":"UPSERT"}`)
	st, err := storage.OpenLocal(testutil.WriteFiles(t, files))
	if err != nil {
		t.Fatal(err)
	}
	r := reader(t, st)
	r.Store = refuseStore{st, big}
	ctx := context.Background()
	tl, err := r.Active(ctx)
	if err != nil {
		t.Fatalf("Active: %v", err)
	}
	r.LoadCommits(ctx, tl.Instants)
	ops := map[string]string{}
	for _, in := range tl.Instants {
		ops[in.RequestedTime] = in.Operation + "|" + in.Err
	}
	wantErr := "read " + st.Root() + "/" + big + ": 300 MiB, more than the 256 MiB read ceiling"
	if len(ops) != 2 || ops[synth.Requested] != "INSERT|" || ops[req] != "|"+wantErr {
		t.Errorf("instants = %v", ops)
	}
	ps := r.Problems.List()
	if len(ps) != 1 || ps[0].File != st.Root()+"/"+big || ps[0].Err != wantErr {
		t.Errorf("problems = %v", ps)
	}
}
