package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const hostile = "x\x1b]0;pwned\x07\x1b[2J\u202ey\nz"

// hostileTable copies a fixture and gives a partition and a commit's metadata hostile text.
func hostileTable(t *testing.T) string {
	t.Helper()
	zip := "../testdata/fixtures/cow-v4-0.11.1/table.zip"
	if _, err := os.Stat(zip); err != nil {
		t.Skip(err)
	}
	root := unzipTable(t, zip, t.TempDir())
	if err := os.Rename(filepath.Join(root, "2024-01-03"), filepath.Join(root, hostile)); err != nil {
		t.Skip("file system refuses the name:", err)
	}
	p := filepath.Join(root, ".hoodie", "20261130201136978.commit")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := json.Marshal(hostile)
	s := strings.Replace(string(b), `"UPSERT"`, string(q), 1)
	s = strings.Replace(s, `"extraMetadata" : {`, `"extraMetadata" : { `+string(q)+`: `+string(q)+`,`, 1)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestHostileTextEscaped(t *testing.T) {
	root := hostileTable(t)
	for _, args := range [][]string{{"timeline"}, {"files"}, {"report", "-o", "md"}} {
		out, errOut, code := runCLI(t, append(args, root)...)
		if code != 0 && code != 1 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		for _, bad := range []string{"\x1b", "\x07", "\u202e"} {
			if strings.Contains(out, bad) {
				t.Errorf("%v output contains %q", args, bad)
			}
		}
		if !strings.Contains(out, `\x1b]0;pwned\x07`) {
			t.Errorf("%v output lacks the escaped name:\n%s", args, out)
		}
	}
	out, errOut, code := runCLI(t, "files", "-o", "json", root)
	if code != 0 {
		t.Fatalf("files json: exit %d: %s", code, errOut)
	}
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if !hasString(v, hostile) {
		t.Errorf("files -o json lost the exact name %q", hostile)
	}
}

// hasString reports whether a decoded JSON value holds a string containing s.
func hasString(v any, s string) bool {
	switch v := v.(type) {
	case string:
		return strings.Contains(v, s)
	case []any:
		for _, e := range v {
			if hasString(e, s) {
				return true
			}
		}
	case map[string]any:
		for _, e := range v {
			if hasString(e, s) {
				return true
			}
		}
	}
	return false
}

// A partition that is a symbolic link to a directory (a common way to move a partition to
// another disk) is listed through the link, as Hadoop's local file system does, not dropped.
func TestSymlinkedPartitionListed(t *testing.T) {
	dir := unzipTable(t, "../testdata/fixtures/cow-services-1.2.0/table.zip", t.TempDir())
	moved := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Rename(filepath.Join(dir, "2024-01-02"), moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(moved, filepath.Join(dir, "2024-01-02")); err != nil {
		t.Skip(err)
	}
	out, stderr, code := runCLI(t, "files", "--no-mdt", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "3 partitions, 5 file groups") ||
		!strings.Contains(out, "2fa2d8aa-edfb-4b82-aa6c-8c4006577d99-0_0-1448-5607_20261129162134323.parquet") {
		t.Fatalf("the linked partition's file group is missing:\n%s", out)
	}
}
