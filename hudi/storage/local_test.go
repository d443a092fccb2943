//go:build linux

package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestLocalOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Skip("no mkfifo:", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.commit")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := OpenLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for name, what := range map[string]string{"fifo": "named pipe", "zero.commit": "character device", "d": "directory"} {
		done := make(chan error, 2)
		go func() {
			_, err := l.ReadFile(ctx, name)
			done <- err
			_, err = l.Open(ctx, name)
			done <- err
		}()
		for range 2 {
			select {
			case err := <-done:
				if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), what) || !strings.Contains(err.Error(), filepath.Join(dir, name)) {
					t.Errorf("%s: got %v, want a named %q error", name, err, what)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%s: read blocked", name)
			}
		}
	}
}

func TestLocalRefusesEscape(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(filepath.Dir(root), "outside"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := OpenLocal(root)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, p := range []string{"../outside", "a/../../outside", "/etc/passwd"} {
		if _, err := l.ReadFile(ctx, p); err == nil || !strings.Contains(err.Error(), "refused") {
			t.Errorf("ReadFile(%q) = %v, want refused", p, err)
		}
		if _, err := l.List(ctx, p); err == nil {
			t.Errorf("List(%q) not refused", p)
		}
	}
	for p, want := range map[string]bool{"timeline": false, "a/b/../c": false, "..": true, "x/../..": true, "/abs": true, `..\x`: true,
		"a/...b": false, `a\..\..\b`: true} {
		if got := Escapes(p) != ""; got != want {
			t.Errorf("Escapes(%q) = %v, want %v", p, got, want)
		}
	}
	// Every local read asks: a plain path costs no allocation.
	if n := testing.AllocsPerRun(100, func() { Escapes(".hoodie/20240101000000000.commit") }); n != 0 {
		t.Errorf("Escapes of a plain path allocates %v times", n)
	}
}

// An entry List cannot describe (its full path is longer than the OS allows) is kept with
// its error, not dropped.
func TestLocalListPastPathMax(t *testing.T) {
	root := t.TempDir()
	deep := root
	for len(deep) < 3900 {
		deep = filepath.Join(deep, strings.Repeat("d", 200))
	}
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Skip("cannot build a deep directory:", err)
	}
	fd, err := syscall.Open(deep, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer syscall.Close(fd)
	long := strings.Repeat("f", 250)
	f, err := syscall.Openat(fd, long, syscall.O_CREAT|syscall.O_WRONLY, 0o644)
	if err != nil {
		t.Skip(err)
	}
	syscall.Close(f)
	l, err := OpenLocal(root)
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(root, deep)
	es, err := l.List(context.Background(), filepath.ToSlash(rel))
	if err != nil {
		t.Skip("deep list failed:", err)
	}
	// Listing describes children relative to the open directory, so the name past PATH_MAX
	// is listed with its size; reading it by its full path then fails naming it.
	if len(es) != 1 || es[0].Name != long || es[0].Size != 0 || es[0].Err != nil {
		t.Fatalf("got %+v, want the long name listed and described", es)
	}
	if _, err := l.Open(context.Background(), es[0].Path); err == nil || !strings.Contains(err.Error(), long) {
		t.Fatalf("open past PATH_MAX: %v, want an error naming the file", err)
	}
}

// ReadFile's raw-syscall path: whole content, empty files, and a missing file named with its
// path and still fs.ErrNotExist.
func TestLocalReadFileContent(t *testing.T) {
	dir := t.TempDir()
	big := bytes.Repeat([]byte("0123456789"), 100_000)
	if err := os.WriteFile(filepath.Join(dir, "big"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "empty"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := OpenLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.ReadFile(context.Background(), "big")
	if err != nil || !bytes.Equal(b, big) {
		t.Fatalf("big: %d bytes, err %v; want %d bytes", len(b), err, len(big))
	}
	if b, err := l.ReadFile(context.Background(), "empty"); err != nil || len(b) != 0 {
		t.Fatalf("empty: %d bytes, err %v", len(b), err)
	}
	_, err = l.ReadFile(context.Background(), "missing")
	want := "read " + filepath.Join(dir, "missing") + ": open " + filepath.Join(dir, "missing") + ": no such file or directory"
	if err == nil || err.Error() != want || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing: err = %v, want %q wrapping fs.ErrNotExist", err, want)
	}
}

// ListNames (getdents on Linux) gives what os.ReadDir gives: sorted names, directories marked,
// links not followed, paths joined onto the listed directory.
// timelineDirFixture is a local store whose a/timeline holds 3000 instant-like names (more than
// one 8 KiB batch of records), a directory and a link to it.
func timelineDirFixture(t *testing.T) *Local {
	t.Helper()
	root := t.TempDir()
	sub := filepath.Join(root, "a", "timeline")
	if err := os.MkdirAll(filepath.Join(sub, "dir.d"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 3000 {
		name := fmt.Sprintf("%017d.commit", 3000-i)
		if err := os.WriteFile(filepath.Join(sub, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("dir.d", filepath.Join(sub, "link")); err != nil {
		t.Fatal(err)
	}
	l, err := OpenLocal(root)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestLocalListNamesMatchesReadDir(t *testing.T) {
	l := timelineDirFixture(t)
	root := l.dir
	defer func(n int) { parallelBuildMin = n }(parallelBuildMin)
	for _, c := range []struct {
		dir      string
		buildMin int
	}{{"a/timeline", 1 << 16}, {"a/timeline", 100}, {"./a//timeline/", 7}, {"", 1 << 16}, {"", 1}} {
		dir := c.dir
		parallelBuildMin = c.buildMin
		got, err := l.ListNames(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		des, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(des) {
			t.Fatalf("%q: %d entries, want %d", dir, len(got), len(des))
		}
		for i, de := range des {
			want := Entry{Name: de.Name(), Path: Join(dir, de.Name()), IsDir: de.IsDir(), Regular: de.Type().IsRegular(), Size: -1}
			if got[i] != want {
				t.Fatalf("%q entry %d = %+v, want %+v", dir, i, got[i], want)
			}
		}
	}
	if _, err := l.ListNames(context.Background(), "missing"); err == nil || !errors.Is(err, fs.ErrNotExist) ||
		err.Error() != "list "+filepath.Join(root, "missing")+": open "+filepath.Join(root, "missing")+": no such file or directory" {
		t.Errorf("missing directory: %v", err)
	}
}

// sortKeys orders names as strings.Compare does: names sharing long prefixes, names that end
// within or before the 16 key bytes, prefixes of other names, one instant's three files.
func TestSortKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, base := range []string{"", "2026", "20260101000001001", "a"} {
		var names []string
		for range 2000 {
			n := base
			for range rng.IntN(24) {
				n += string("019._az\xff"[rng.IntN(8)])
			}
			names = append(names, n)
		}
		names = append(names, base+"20260101000001001.commit.requested", base+"20260101000001001.inflight",
			base+"20260101000001001_20260101000002002.commit", base+"20260101000001001", base+"2026010100000100")
		for _, names := range [][]string{names, names[len(names)-20:]} { // radix and short paths
			keys := sortKeys(len(names), func(i int) string { return names[i] })
			got := make([]string, len(keys))
			for j, k := range keys {
				got[j] = names[k.i]
			}
			want := slices.Clone(names)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("base %q, %d names: order differs from strings.Compare", base, len(names))
			}
		}
	}
	if keys := sortKeys(0, nil); len(keys) != 0 {
		t.Errorf("no names: %v", keys)
	}
}

// ReadFileBuf reads into the caller's buffer when the file fits and allocates when it does not.
func TestLocalReadFileBuf(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "small"), []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "large"), bytes.Repeat([]byte("x"), 100), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := OpenLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 16)
	b, err := ReadFileBuf(context.Background(), l, "small", buf)
	if err != nil || string(b) != "abc" || &b[0] != &buf[:1][0] {
		t.Fatalf("small: %q, %v (in the buffer: %v)", b, err, err == nil && &b[0] == &buf[:1][0])
	}
	b, err = ReadFileBuf(context.Background(), l, "large", buf)
	if err != nil || len(b) != 100 || cap(b) < 101 {
		t.Fatalf("large: %d bytes (cap %d), %v", len(b), cap(b), err)
	}
}

// TestLocalReadEntrySwapped: a file listed as regular is read without a stat of its name, but
// whatever replaced it since the listing is judged as ReadFile judges it — a link is followed,
// a FIFO or a device is refused without blocking — with ReadFile's very messages.
func TestLocalReadEntrySwapped(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("target", "linked content")
	for _, n := range []string{"same", "link", "fifo", "dev", "gone"} {
		write(n+".commit", "listed content")
	}
	l, err := OpenLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ents, err := l.ListNames(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]Entry{}
	for _, e := range ents {
		if !e.Regular || e.IsDir {
			t.Fatalf("%s listed as %+v, want regular", e.Name, e)
		}
		listed[e.Name] = e
	}
	swap := func(name string, make func(p string) error) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		if make != nil {
			if err := make(p); err != nil {
				t.Skip("cannot swap in", name, err)
			}
		}
	}
	dr, err := l.OpenDir(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer dr.Close()
	if _, ok := dr.(*localDir); !ok {
		t.Fatalf("OpenDir gave %T", dr)
	}
	swap("link.commit", func(p string) error { return os.Symlink("target", p) })
	swap("fifo.commit", func(p string) error { return syscall.Mkfifo(p, 0o644) })
	swap("dev.commit", func(p string) error { return os.Symlink("/dev/zero", p) })
	swap("gone.commit", nil)
	for _, read := range []func(context.Context, Entry, []byte) ([]byte, error){l.ReadEntryBuf, dr.ReadEntryBuf} {
		for name, want := range map[string]string{
			"same.commit": "listed content", "link.commit": "linked content",
			"fifo.commit": "is a named pipe (FIFO), not a regular file", "dev.commit": "is a character device, not a regular file",
			"gone.commit": "no such file or directory",
		} {
			done := make(chan string, 1)
			go func() {
				b, err := read(ctx, listed[name], make([]byte, 0, 64))
				wb, werr := l.ReadFile(ctx, name)
				switch {
				case err == nil && werr == nil && string(b) == string(wb):
					done <- string(b)
				case err != nil && werr != nil && err.Error() == werr.Error() && errors.Is(err, ErrNotRegular) == errors.Is(werr, ErrNotRegular):
					done <- err.Error()
				default:
					done <- fmt.Sprintf("ReadEntryBuf %q, %v; ReadFile %q, %v", b, err, wb, werr)
				}
			}()
			select {
			case got := <-done:
				isErr := !strings.HasSuffix(want, "content")
				if !strings.Contains(got, want) || (isErr && !strings.Contains(got, filepath.Join(dir, name))) || (!isErr && got != want) {
					t.Errorf("%s: %s, want %q naming the path", name, got, want)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%s: read blocked", name)
			}
		}
	}
	// A bare path is read stat-first, as ReadFileBuf reads it.
	if b, err := ReadEntryBuf(ctx, l, Entry{Path: "link.commit"}, nil); err != nil || string(b) != "linked content" {
		t.Errorf("unlisted entry: %q, %v", b, err)
	}
	// Through the directory: an entry of another directory, or not a plain name in it, is read
	// by path (and refused outside the root) — never opened relative to the directory.
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("sub/f", "in sub")
	if b, err := dr.ReadEntryBuf(ctx, Entry{Name: "f", Path: "sub/f", Regular: true}, nil); err != nil || string(b) != "in sub" {
		t.Errorf("sub/f: %q, %v", b, err)
	}
	if _, err := dr.ReadEntryBuf(ctx, Entry{Name: "x", Path: "../x", Regular: true}, nil); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("../x: %v", err)
	}
	sub, err := l.OpenDir(ctx, "./sub/")
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	ents, err = l.ListNames(ctx, "./sub/")
	if err != nil || len(ents) != 1 {
		t.Fatalf("sub: %v %v", ents, err)
	}
	if b, err := sub.ReadEntryBuf(ctx, ents[0], nil); err != nil || string(b) != "in sub" || ents[0].Path != "sub/f" {
		t.Errorf("sub/f listed: %q, %v", b, err)
	}
	if _, err := l.OpenDir(ctx, "missing"); err == nil {
		t.Error("missing directory opened")
	}
}

// TestZipOpenOnlyRegular: an archive path that is a FIFO, a directory or missing is refused
// with its path named, before anything blocks on it.
func TestZipOpenOnlyRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "t.zip")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "d.zip")
	os.Mkdir(sub, 0o755)
	missing := filepath.Join(dir, "none.zip")
	for _, tc := range []struct{ path, want string }{
		{fifo, "open " + fifo + ": is a named pipe (FIFO), not a regular file: not a regular file"},
		{sub, "open " + sub + ": is a directory, not a regular file: not a regular file"},
		{missing, "open " + missing + ": open " + missing + ": no such file or directory"},
	} {
		_, err := OpenZip(tc.path)
		if err == nil || err.Error() != tc.want {
			t.Errorf("OpenZip(%s) = %v, want %q", tc.path, err, tc.want)
		}
		if errors.Is(err, ErrNotRegular) != (tc.path != missing) {
			t.Errorf("OpenZip(%s): errors.Is(ErrNotRegular) wrong: %v", tc.path, err)
		}
	}
}

// ListNameBlock gives ListNames' names, order, directory and regular-file flags, whatever the
// chunk size; a name never straddles two chunks.
func TestLocalListNameBlock(t *testing.T) {
	l := timelineDirFixture(t)
	root := l.dir
	defer func(c int) { nameChunk = c }(nameChunk)
	for _, c := range []struct {
		dir   string
		chunk int
	}{{"a/timeline", 1 << 20}, {"a/timeline", 50}, {"./a//timeline/", 24}, {"", 1}} {
		nameChunk = c.chunk
		got, ok, err := ListNameBlock(context.Background(), l, c.dir)
		if err != nil || !ok {
			t.Fatalf("%q: ok %v, %v", c.dir, ok, err)
		}
		want, err := l.ListNames(context.Background(), c.dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Names) != len(want) {
			t.Fatalf("%q: %d names, want %d", c.dir, len(got.Names), len(want))
		}
		dirs := 0
		for i, e := range want {
			if irregular := !e.IsDir && !e.Regular; got.Names[i] != e.Name || got.Dirs[e.Name] != e.IsDir || got.Irregular[e.Name] != irregular {
				t.Fatalf("%q name %d = %q (dir %v), want %q (dir %v)", c.dir, i, got.Names[i], got.Dirs[got.Names[i]], e.Name, e.IsDir)
			}
			if e.IsDir {
				dirs++
			}
		}
		if len(got.Dirs) != dirs {
			t.Errorf("%q: %d directories, want %d", c.dir, len(got.Dirs), dirs)
		}
	}
	if _, ok, err := l.ListNameBlock(context.Background(), "missing"); !ok || !errors.Is(err, fs.ErrNotExist) ||
		err.Error() != "list "+filepath.Join(root, "missing")+": open "+filepath.Join(root, "missing")+": no such file or directory" {
		t.Errorf("missing directory: %v, %v", ok, err)
	}
	if _, _, err := l.ListNameBlock(context.Background(), "../x"); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("escaping directory: %v", err)
	}
}
