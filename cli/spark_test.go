package cli

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// unzipFixture extracts a fixture's table.zip (Spark reads directories) and returns the table
// directory.
func unzipFixture(t *testing.T, fx string) string {
	t.Helper()
	zr, err := zip.OpenReader(fixture(fx))
	if err != nil {
		t.Skipf("fixture %s: %v", fx, err)
	}
	defer zr.Close()
	dir := t.TempDir()
	top := ""
	for _, f := range zr.File {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if top == "" {
			top = strings.SplitN(f.Name, "/", 2)[0]
		}
		if f.FileInfo().IsDir() {
			os.MkdirAll(p, 0o755)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		w, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(w, r)
		r.Close()
		w.Close()
	}
	return filepath.Join(dir, top)
}

// Past a limit the read is not scanned: the Spark SQL is on stdout and the exit code is 2;
// under it the rows are read here.
func TestScanLimitHandsOffToSpark(t *testing.T) {
	tbl := unzipFixture(t, "incr-1.2.0")
	stdout, stderr, code := runCLI(t, "incremental", tbl, "--begin", "20261129155610512", "--hudi-version", "1.2.0", "--count", "--max-scan-bytes", "1KiB")
	want := "SELECT COUNT(*) AS rows FROM hudi_table_changes('" + tbl + "', 'latest_state', '20261129155610512');\n"
	if code != exitUsage || !strings.Contains(stdout, want) || !strings.Contains(stdout, "-- hudiscope: not scanned here: the read would touch 1 files, 10 KiB, over --max-scan-bytes 1024.") ||
		!strings.Contains(stderr, "not scanned") {
		t.Fatalf("over the byte limit: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	stdout, _, code = runCLI(t, "incremental", tbl, "--begin", "20261129155610512", "--hudi-version", "1.2.0", "--count")
	if code != 0 || stdout != "4\n" {
		t.Fatalf("under the default limits: exit %d, stdout %q", code, stdout)
	}
	// The file limit; the zip a table may be given as cannot go to Spark.
	_, stderr, code = runCLI(t, "snapshot", fixture("index-bloom-1.2.0"), "--count", "--max-scan-files", "10")
	if code != exitUsage || !strings.Contains(stderr, "is a zip archive: Spark reads tables from a directory") {
		t.Fatalf("zip over the file limit: exit %d, stderr %s", code, stderr)
	}
	_, _, code = runCLI(t, "snapshot", tbl, "--count", "--max-scan-bytes", "lots")
	if code != exitUsage {
		t.Fatalf("bad --max-scan-bytes: exit %d", code)
	}
}

// --spark runs the read through spark-sql (a fake here, found on PATH or named by --spark-sql)
// and streams its output; its failure is exit 1.
func TestSparkRunsSparkSQL(t *testing.T) {
	tbl := unzipFixture(t, "cdc-1.2.0")
	bin := t.TempDir()
	argsFile := filepath.Join(bin, "args")
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > " + argsFile + "\nprintf 'i\\t20261129\\t{\"id\":1}\\n'\nprintf 'u\\t20261130\\t{\"id\":1}\\n'\n[ -z \"$FAKE_FAIL\" ] || exit 3\n"
	if err := os.WriteFile(filepath.Join(bin, "spark-sql"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("HUDISCOPE_HUDI_LIB", t.TempDir()) // no bundle jar: no --jars
	stdout, stderr, code := runCLI(t, "changes", tbl, "--begin", "earliest", "--spark", "--spark-conf", "spark.executor.memory=2g")
	if code != 0 || stdout != "i\t20261129\t{\"id\":1}\nu\t20261130\t{\"id\":1}\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	b, err := os.ReadFile(argsFile)
	if err != nil {
		t.Fatal(err)
	}
	wantArgs := "--conf\nspark.serializer=org.apache.spark.serializer.KryoSerializer\n--conf\nspark.sql.extensions=org.apache.spark.sql.hudi.HoodieSparkSessionExtension\n" +
		"--conf\nspark.sql.catalog.spark_catalog=org.apache.spark.sql.hudi.catalog.HoodieCatalog\n--conf\nspark.executor.memory=2g\n-S\n-e\n" +
		"SELECT * FROM hudi_table_changes('" + tbl + "', 'cdc', 'earliest');\n"
	if string(b) != wantArgs {
		t.Fatalf("spark-sql args:\n%s\nwant\n%s", b, wantArgs)
	}
	t.Setenv("FAKE_FAIL", "1")
	_, stderr, code = runCLI(t, "changes", tbl, "--begin", "earliest", "--spark", "--spark-sql", filepath.Join(bin, "spark-sql"))
	if code != exitError || !strings.Contains(stderr, "failed (exit 3)") {
		t.Fatalf("failing spark-sql: exit %d, stderr %s", code, stderr)
	}
	_, stderr, code = runCLI(t, "changes", tbl, "--begin", "earliest", "--spark", "--spark-sql", "/nonexistent/spark-sql")
	if code != exitUsage || !strings.Contains(stderr, "--spark: /nonexistent/spark-sql not found") {
		t.Fatalf("missing spark-sql: exit %d, stderr %s", code, stderr)
	}
}
