package eventlog

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func followJSON(t *testing.T, r *Report) string {
	t.Helper()
	b, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// firstDiff names the first differing line of two documents.
// consumed is the offset the follower has read its one part up to.
func consumed(fo *Follower) int64 {
	var n int64
	for _, p := range fo.parts {
		n = p.offset
	}
	return n
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "line " + al[i] + "\n   vs " + bl[i]
		}
	}
	return "lengths differ"
}

// TestFollowerAppendedLineByLine writes a plain fixture log to a .inprogress file a few lines
// at a time (chunks ending mid-line too) while a Follower polls it; after Spark's rename to the
// final name, the followed analysis equals the one-shot analysis of the whole file, and each
// poll read only the appended bytes.
func TestFollowerAppendedLineByLine(t *testing.T) {
	src := filepath.Join("..", "..", "testdata", "fixtures", "cdc-1.2.0", "local-1795967842896")
	full, err := os.ReadFile(src)
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	final := filepath.Join(dir, "local-1795967842896")
	live := final + ".inprogress"
	f, err := os.Create(live)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{IncludeTasks: true, DisplayPath: "app"}
	fo, err := NewFollower(live, opt)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	lines := bytes.SplitAfter(full, []byte("\n"))
	polls, grew := 0, 0
	for i := 0; i < len(lines); {
		// 1 to 13 lines, and half a line more every third chunk.
		n := min(1+(polls*7)%13, len(lines)-i)
		chunk := bytes.Join(lines[i:i+n], nil)
		i += n
		if polls%3 == 0 && i < len(lines) {
			half := lines[i][:len(lines[i])/2]
			chunk = append(chunk, half...)
			lines[i] = lines[i][len(half):]
		}
		if _, err := f.Write(chunk); err != nil {
			t.Fatal(err)
		}
		g, err := fo.Poll(ctx)
		if err != nil {
			t.Fatalf("poll %d: %v", polls, err)
		}
		polls++
		if g {
			grew++
		}
		if polls%10 == 0 {
			if r := fo.Report(); r == nil || r.Hudiscope.Source.InProgress != true {
				t.Fatalf("poll %d: no report, or not in progress", polls)
			}
		}
	}
	f.Close()
	if read := consumed(fo); read != int64(len(full)) {
		t.Errorf("consumed %d bytes, the file has %d", read, len(full))
	}
	if err := os.Rename(live, final); err != nil {
		t.Fatal(err)
	}
	if _, err := fo.Poll(ctx); err != nil {
		t.Fatal(err)
	}
	want, err := Analyze(ctx, final, opt)
	if err != nil {
		t.Fatal(err)
	}
	got := fo.Report()
	gj, wj := followJSON(t, got), followJSON(t, want)
	if gj != wj {
		t.Errorf("followed analysis differs from the one-shot one: %s", firstDiff(gj, wj))
	}
	t.Logf("%d polls (%d with new events), %d bytes, %d stages", polls, grew, len(full), len(got.Stages))
}

// A rolling directory: a compressed part is read once a newer part exists, the last one once
// the application is no longer in progress.
func TestFollowerRollingDirectory(t *testing.T) {
	src := filepath.Join("..", "..", "testdata", "fixtures", "cow-services-1.2.0", "eventlog_v2_local-1795968726856")
	if _, err := os.Stat(src); err != nil {
		t.Skip(err)
	}
	dir := filepath.Join(t.TempDir(), "eventlog_v2_local-1795968726856")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cp := func(name, as string) {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, as), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	status := "appstatus_local-1795968726856"
	cp(status, status+".inprogress")
	cp("events_1_local-1795968726856.zstd", "events_1_local-1795968726856.zstd")
	opt := Options{IncludeTasks: true, DisplayPath: "app"}
	fo, err := NewFollower(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if g, err := fo.Poll(ctx); err != nil || g {
		t.Fatalf("first poll: grew %v, err %v; want nothing read from the growing compressed part", g, err)
	}
	cp("events_2_local-1795968726856.zstd", "events_2_local-1795968726856.zstd")
	if g, err := fo.Poll(ctx); err != nil || !g {
		t.Fatalf("second poll: grew %v, err %v; want part 1 read", g, err)
	}
	mid := fo.Report()
	if err := os.Rename(filepath.Join(dir, status+".inprogress"), filepath.Join(dir, status)); err != nil {
		t.Fatal(err)
	}
	if g, err := fo.Poll(ctx); err != nil || !g {
		t.Fatalf("last poll: grew %v, err %v; want part 2 read", g, err)
	}
	want, err := Analyze(ctx, dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	got := fo.Report()
	if gj, wj := followJSON(t, got), followJSON(t, want); gj != wj {
		t.Errorf("followed analysis differs from the one-shot one: %s", firstDiff(gj, wj))
	}
	if len(mid.Stages) >= len(got.Stages) {
		t.Errorf("stages after part 1: %d, after both: %d; want fewer before", len(mid.Stages), len(got.Stages))
	}
}

// FuzzFollowerChunks: any bytes, written as a .inprogress log in two chunks cut anywhere and
// followed, give the same analysis as a one-shot Analyze of the whole file.
func FuzzFollowerChunks(f *testing.F) {
	f.Add([]byte("{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}\n{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"x\",\"Timestamp\":1}\n"), 30)
	f.Add([]byte("not json\n{\"Event\":\"SparkListenerJobStart\",\"Job ID\":1,\"Submission Time\":5,\"Stage Infos\":[],\"Stage IDs\":[]}\n{\"Event\""), 3)
	f.Fuzz(func(t *testing.T, data []byte, cut int) {
		if len(data) > 1<<16 {
			return
		}
		cut = min(max(cut, 0), len(data))
		dir := t.TempDir()
		final := filepath.Join(dir, "app")
		live := final + ".inprogress"
		if err := os.WriteFile(live, data[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		opt := Options{DisplayPath: "app"}
		fo, err := NewFollower(live, opt)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		_, _ = fo.Poll(ctx)
		if err := os.WriteFile(live, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, _ = fo.Poll(ctx)
		if err := os.Rename(live, final); err != nil {
			t.Fatal(err)
		}
		_, _ = fo.Poll(ctx)
		want, err := Analyze(ctx, final, opt)
		got := fo.Report()
		if err != nil {
			return // no events: nothing to compare (the follower has none either, or a final partial line)
		}
		if got == nil {
			t.Fatalf("one-shot found events, the follower none")
		}
		gj, wj := followJSON(t, got), followJSON(t, want)
		if gj != wj {
			t.Fatalf("followed analysis differs: %s", firstDiff(gj, wj))
		}
	})
}

// A part is read in windows of followWindow bytes (a watch started on a long-running
// application never holds its whole log): with a 200 KB window over the 2 MB fixture log
// (longest line 97,001 bytes), as it grows and once finished, the followed analysis equals the
// one-shot one.
func TestFollowerReadsInWindows(t *testing.T) {
	src := filepath.Join("..", "..", "testdata", "fixtures", "cdc-1.2.0", "local-1795967842896")
	full, err := os.ReadFile(src)
	if err != nil {
		t.Skip(err)
	}
	old := followWindow
	followWindow = 200_000
	t.Cleanup(func() { followWindow = old })
	dir := t.TempDir()
	final := filepath.Join(dir, "local-1795967842896")
	live := final + ".inprogress"
	// Most of the log at once, cut mid-line, then the rest: each read spans many windows.
	cut := len(full) * 3 / 4
	if err := os.WriteFile(live, full[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	opt := Options{IncludeTasks: true, DisplayPath: "app"}
	fo, err := NewFollower(live, opt)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := fo.Poll(ctx); err != nil {
		t.Fatal(err)
	}
	if got := consumed(fo); got != int64(bytes.LastIndexByte(full[:cut], '\n')+1) {
		t.Errorf("after the first poll consumed %d bytes, want up to the last whole line", got)
	}
	if err := os.WriteFile(live, full, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(live, final); err != nil {
		t.Fatal(err)
	}
	if _, err := fo.Poll(ctx); err != nil {
		t.Fatal(err)
	}
	want, err := Analyze(ctx, final, opt)
	if err != nil {
		t.Fatal(err)
	}
	if gj, wj := followJSON(t, fo.Report()), followJSON(t, want); gj != wj {
		t.Errorf("windowed analysis differs from the one-shot one: %s", firstDiff(gj, wj))
	}
}
