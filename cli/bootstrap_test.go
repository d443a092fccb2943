package cli

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bootstrapRoot is where bootstrap-1.1.1's source dataset was when it was bootstrapped
// (oracle/summary.json bootstrap_source_root).
const bootstrapRoot = "/tmp/hudiscope-gen/tables/bootstrap-1.1.1/bootstrap_source"

// unzipTo extracts zipPath into dir.
func unzipTo(t *testing.T, zipPath, dir string) {
	t.Helper()
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		t.Skipf("bootstrap source absent: %v", err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		dst := filepath.Join(dir, filepath.FromSlash(f.Name))
		if f.FileInfo().IsDir() {
			os.MkdirAll(dst, 0o755)
			continue
		}
		os.MkdirAll(filepath.Dir(dst), 0o755)
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A bootstrapped table from the command line: files names the skeleton's source file; rows of
// the skeleton carry the source's data columns once --bootstrap-source-prefix says where the
// source is now; an unreachable source is a warning naming both files (exit 0, as any
// unreadable slice, README), its 3 rows missing, never printed with null data columns.
func TestBootstrapCommands(t *testing.T) {
	tbl := fixture("bootstrap-1.1.1")
	if _, err := os.Stat(tbl); err != nil {
		t.Skipf("fixture absent: %v", err)
	}
	src := t.TempDir()
	unzipTo(t, filepath.Join(filepath.Dir(tbl), "bootstrap-source.zip"), src)
	moved := "--bootstrap-source-prefix=" + bootstrapRoot + "=" + filepath.Join(src, "bootstrap_source")
	gone := "--bootstrap-source-prefix=" + bootstrapRoot + "=/nonexistent/src"
	skeleton := "a564933b-2982-4405-8865-830aa1825568_1-9-11_00000000000001.parquet"
	source := "dt=2024-01-01/part-00000-5d03f31a-954f-46fd-a30f-8ba84f22d3a0.c000.snappy.parquet"
	cases := []struct {
		args     []string
		code     int
		out, err string
		lines    int // stdout lines, when > 0
	}{
		{args: []string{"files", tbl, "-o", "json"}, out: `"bootstrapFile": {
              "path": "file:` + bootstrapRoot + "/" + source + `",
              "name": "part-00000-5d03f31a-954f-46fd-a30f-8ba84f22d3a0.c000.snappy.parquet",
              "size": 973
            }`},
		{args: []string{"files", tbl}, out: "bootstrap source"},
		{args: []string{"snapshot", tbl, "-o", "json", moved}, lines: 10,
			out: `{"_hoodie_commit_time":"00000000000001","_hoodie_commit_seqno":"00000000000001_1_0","_hoodie_record_key":"0","_hoodie_partition_path":"dt=2024-01-01","_hoodie_file_name":"` + skeleton + `","id":0,"name":"src0_0","ts":0,"dt":"2024-01-01"}`},
		{args: []string{"snapshot", tbl, "-o", "csv", "--as-of", "00000000000001", moved}, lines: 10, out: ",3,src3_0,0,2024-01-01\n"},
		{args: []string{"incremental", tbl, "--begin", "000", "-o", "json", moved}, lines: 10, out: `"name":"src6_0"`},
		{args: []string{"snapshot", tbl, "-o", "json", gone}, lines: 7,
			err: "warning: ../testdata/fixtures/bootstrap-1.1.1/table.zip/dt=2024-01-01 file group a564933b-2982-4405-8865-830aa1825568: skeleton base file " + skeleton +
				": bootstrap source file unreadable: /nonexistent/src/" + source + ": open /nonexistent/src/dt=2024-01-01: stat /nonexistent/src/dt=2024-01-01: no such file or directory (the index names file:" + bootstrapRoot + "/" + source + ")"},
		{args: []string{"snapshot", tbl, "--count", gone}, out: "10\n"},
		{args: []string{"snapshot", tbl, "--bootstrap-source-prefix", "nope"}, code: exitUsage, err: `--bootstrap-source-prefix "nope" is not OLD=NEW`},
	}
	for _, c := range cases {
		stdout, stderr, code := runCLI(t, c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (stderr %s)", c.args, code, c.code, stderr)
		}
		if !strings.Contains(stdout, c.out) {
			t.Errorf("%v: stdout lacks %q:\n%s", c.args, c.out, stdout)
		}
		if !strings.Contains(stderr, c.err) {
			t.Errorf("%v: stderr lacks %q:\n%s", c.args, c.err, stderr)
		}
		if c.lines > 0 && strings.Count(stdout, "\n")-strings.Count(c.args[len(c.args)-2], "csv") != c.lines {
			t.Errorf("%v: %d lines, want %d", c.args, strings.Count(stdout, "\n"), c.lines)
		}
		if strings.Contains(stdout, `"name":null`) {
			t.Errorf("%v: a row without its data columns:\n%s", c.args, stdout)
		}
	}
}
