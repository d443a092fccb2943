package cli

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/model"
)

func mustReader(t *testing.T, release string) checkpoint.Reader {
	t.Helper()
	rd, err := checkpoint.ReaderFor(release)
	if err != nil {
		t.Fatal(err)
	}
	return rd
}

// The generated Spark reads, exactly.
func TestSparkSQLGenerated(t *testing.T) {
	yes := true
	cases := []struct {
		name string
		got  sparkRead
		sql  string
		opts string
		note string
	}{
		{"incremental 1.x", incrementalSpark("", "s3://b/t", model.IncrementalQuery{Begin: "20261129155610512", Reader: mustReader(t, "1.2.0")}, RowFlags{}),
			"SELECT * FROM hudi_table_changes('s3://b/t', 'latest_state', '20261129155610512');",
			"hoodie.datasource.query.type=incremental hoodie.datasource.read.begin.instanttime=20261129155610512",
			"begin 20261129155610512 is compared as Hudi 1.2.0 (1.1+) compares it: completion time > begin."},
		{"incremental 0.x, end, count by commit, fallback", incrementalSpark("db.orders", "s3://b/t", model.IncrementalQuery{Begin: "20240101000000", End: "20240102000000", Fallback: &yes, Reader: mustReader(t, "0.15.0")}, RowFlags{Count: true, By: "commit"}),
			"SET hoodie.datasource.read.incr.fallback.fulltablescan.enable=true;\nSELECT _hoodie_commit_time, COUNT(*) AS rows FROM hudi_table_changes('db.orders', 'latest_state', '20240101000000', '20240102000000') GROUP BY _hoodie_commit_time ORDER BY _hoodie_commit_time;",
			"hoodie.datasource.query.type=incremental hoodie.datasource.read.begin.instanttime=20240101000000 hoodie.datasource.read.end.instanttime=20240102000000 hoodie.datasource.read.incr.fallback.fulltablescan.enable=true",
			"compared as Hudi 0.15.0 (0.x) compares it: requested time > begin."},
		{"incremental 1.0.x inclusive, columns, limit", incrementalSpark("", "/data/t'x", model.IncrementalQuery{Begin: "20261129155610512", Reader: mustReader(t, "1.0.2")}, RowFlags{Columns: []string{"id", "a`b"}, Limit: 10}),
			"SELECT _hoodie_commit_time, _hoodie_record_key, _hoodie_partition_path, `id`, `a``b` FROM hudi_table_changes('/data/t\\'x', 'latest_state', '20261129155610512') LIMIT 10;",
			"hoodie.datasource.query.type=incremental hoodie.datasource.read.begin.instanttime=20261129155610512",
			"completion time >= begin"},
		{"cdc earliest", changesSpark("", "s3://b/t", model.ChangesQuery{Begin: "earliest"}, false, 0),
			"SELECT * FROM hudi_table_changes('s3://b/t', 'cdc', 'earliest');",
			"hoodie.datasource.query.type=incremental hoodie.datasource.query.incremental.format=cdc hoodie.datasource.read.begin.instanttime=earliest", ""},
		{"cdc range count", changesSpark("db.t", "s3://b/t", model.ChangesQuery{Begin: "20261129155610512", End: "20261129155632267", Reader: mustReader(t, "1.2.0")}, true, 0),
			"SELECT COUNT(*) AS rows FROM hudi_table_changes('db.t', 'cdc', '20261129155610512', '20261129155632267');",
			"hoodie.datasource.query.type=incremental hoodie.datasource.query.incremental.format=cdc hoodie.datasource.read.begin.instanttime=20261129155610512 hoodie.datasource.read.end.instanttime=20261129155632267",
			"completion time > begin"},
		{"snapshot as of", snapshotSpark("", "s3://b/t", "20261129155626253", RowFlags{Count: true, By: "partition"}),
			"CREATE OR REPLACE TEMPORARY VIEW hudiscope_snapshot USING hudi OPTIONS (path 's3://b/t', 'as.of.instant' '20261129155626253');\n" +
				"SELECT _hoodie_partition_path, COUNT(*) AS rows FROM hudiscope_snapshot GROUP BY _hoodie_partition_path ORDER BY _hoodie_partition_path;",
			"as.of.instant=20261129155626253", "requested (instant) times"},
		{"snapshot by name", snapshotSpark("db.t", "s3://b/t", "", RowFlags{Count: true}),
			"SELECT COUNT(*) AS rows FROM db.t;", "", ""},
		{"snapshot by name as of", snapshotSpark("db.t", "s3://b/t", "20261129155626253", RowFlags{Limit: 3}),
			"SELECT * FROM db.t TIMESTAMP AS OF '20261129155626253' LIMIT 3;", "as.of.instant=20261129155626253", ""},
	}
	for _, c := range cases {
		if c.got.SQL != c.sql {
			t.Errorf("%s: SQL\n%s\nwant\n%s", c.name, c.got.SQL, c.sql)
		}
		var opts []string
		for _, o := range c.got.Options {
			opts = append(opts, o[0]+"="+o[1])
		}
		if strings.Join(opts, " ") != c.opts {
			t.Errorf("%s: options %v, want %s", c.name, opts, c.opts)
		}
		if c.note != "" && !strings.Contains(strings.Join(c.got.Comments, "\n"), c.note) {
			t.Errorf("%s: comments %q, want %q", c.name, c.got.Comments, c.note)
		}
	}
}

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

// Quotes and backslashes in a location or value stay inside the literal, as Spark's lexer
// reads it: \' is a quote, \\ a backslash (a path ending in a backslash used to escape the
// closing quote and let the rest of the statement run as SQL).
func TestSQLStringEscapes(t *testing.T) {
	for in, want := range map[string]string{
		`/data/t`:          `'/data/t'`,
		`/data/o'brien`:    `'/data/o\'brien'`,
		`C:\tables\`:       `'C:\\tables\\'`,
		`x\'); DROP x; --`: `'x\\\'); DROP x; --'`,
	} {
		if got := sqlString(in); got != want {
			t.Errorf("sqlString(%q) = %s, want %s", in, got, want)
		}
	}
}
