package report

import (
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
		got  SparkRead
		sql  string
		opts string
		note string
	}{
		{"incremental 1.x", IncrementalSpark("", "s3://b/t", model.IncrementalQuery{Begin: "20261129155610512", Reader: mustReader(t, "1.2.0")}, SparkSelect{}),
			"SELECT * FROM hudi_table_changes('s3://b/t', 'latest_state', '20261129155610512');",
			"hoodie.datasource.query.type=incremental hoodie.datasource.read.begin.instanttime=20261129155610512",
			"begin 20261129155610512 is compared as Hudi 1.2.0 (1.1+) compares it: completion time > begin."},
		{"incremental 0.x, end, count by commit, fallback", IncrementalSpark("db.orders", "s3://b/t", model.IncrementalQuery{Begin: "20240101000000", End: "20240102000000", Fallback: &yes, Reader: mustReader(t, "0.15.0")}, SparkSelect{Count: true, By: "commit"}),
			"SET hoodie.datasource.read.incr.fallback.fulltablescan.enable=true;\nSELECT _hoodie_commit_time, COUNT(*) AS rows FROM hudi_table_changes('db.orders', 'latest_state', '20240101000000', '20240102000000') GROUP BY _hoodie_commit_time ORDER BY _hoodie_commit_time;",
			"hoodie.datasource.query.type=incremental hoodie.datasource.read.begin.instanttime=20240101000000 hoodie.datasource.read.end.instanttime=20240102000000 hoodie.datasource.read.incr.fallback.fulltablescan.enable=true",
			"compared as Hudi 0.15.0 (0.x) compares it: requested time > begin."},
		{"incremental 1.0.x inclusive, columns, limit", IncrementalSpark("", "/data/t'x", model.IncrementalQuery{Begin: "20261129155610512", Reader: mustReader(t, "1.0.2")}, SparkSelect{Columns: []string{"id", "a`b"}, Limit: 10}),
			"SELECT _hoodie_commit_time, _hoodie_record_key, _hoodie_partition_path, `id`, `a``b` FROM hudi_table_changes('/data/t\\'x', 'latest_state', '20261129155610512') LIMIT 10;",
			"hoodie.datasource.query.type=incremental hoodie.datasource.read.begin.instanttime=20261129155610512",
			"completion time >= begin"},
		{"cdc earliest", ChangesSpark("", "s3://b/t", model.ChangesQuery{Begin: "earliest"}, false, 0),
			"SELECT * FROM hudi_table_changes('s3://b/t', 'cdc', 'earliest');",
			"hoodie.datasource.query.type=incremental hoodie.datasource.query.incremental.format=cdc hoodie.datasource.read.begin.instanttime=earliest", ""},
		{"cdc range count", ChangesSpark("db.t", "s3://b/t", model.ChangesQuery{Begin: "20261129155610512", End: "20261129155632267", Reader: mustReader(t, "1.2.0")}, true, 0),
			"SELECT COUNT(*) AS rows FROM hudi_table_changes('db.t', 'cdc', '20261129155610512', '20261129155632267');",
			"hoodie.datasource.query.type=incremental hoodie.datasource.query.incremental.format=cdc hoodie.datasource.read.begin.instanttime=20261129155610512 hoodie.datasource.read.end.instanttime=20261129155632267",
			"completion time > begin"},
		{"snapshot as of", SnapshotSpark("", "s3://b/t", "20261129155626253", SparkSelect{Count: true, By: "partition"}),
			"CREATE OR REPLACE TEMPORARY VIEW hudiscope_snapshot USING hudi OPTIONS (path 's3://b/t', 'as.of.instant' '20261129155626253');\n" +
				"SELECT _hoodie_partition_path, COUNT(*) AS rows FROM hudiscope_snapshot GROUP BY _hoodie_partition_path ORDER BY _hoodie_partition_path;",
			"as.of.instant=20261129155626253", "requested (instant) times"},
		{"snapshot by name", SnapshotSpark("db.t", "s3://b/t", "", SparkSelect{Count: true}),
			"SELECT COUNT(*) AS rows FROM db.t;", "", ""},
		{"snapshot by name as of", SnapshotSpark("db.t", "s3://b/t", "20261129155626253", SparkSelect{Limit: 3}),
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
		if got := SQLString(in); got != want {
			t.Errorf("SQLString(%q) = %s, want %s", in, got, want)
		}
	}
}

// The read as printed past a scan limit, exactly: why, the begin comment, the SQL, then the
// same read with the DataFrame API.
func TestSparkReadText(t *testing.T) {
	r := IncrementalSpark("", "s3://b/t", model.IncrementalQuery{Begin: "20261129155610512", Reader: mustReader(t, "1.2.0")}, SparkSelect{Count: true})
	want := "-- hudiscope: not scanned here: the read would touch 1 files, 10 KiB, over --max-scan-bytes 1024.\n" +
		"-- Run it in Spark (or again with --spark to run it through spark-sql on this node):\n" +
		"-- begin 20261129155610512 is compared as Hudi 1.2.0 (1.1+) compares it: completion time > begin. Run it with a bundle of the same line, or the rows differ.\n" +
		"SELECT COUNT(*) AS rows FROM hudi_table_changes('s3://b/t', 'latest_state', '20261129155610512');\n" +
		"-- The same read with the DataFrame API:\n" +
		"-- spark.read.format(\"hudi\")\n" +
		"--   .option(\"hoodie.datasource.query.type\", \"incremental\")\n" +
		"--   .option(\"hoodie.datasource.read.begin.instanttime\", \"20261129155610512\")\n" +
		"--   .load(\"s3://b/t\")\n"
	if got := r.Text("the read would touch 1 files, 10 KiB, over --max-scan-bytes 1024"); got != want {
		t.Errorf("text:\n%s\nwant\n%s", got, want)
	}
	// Without a reason (--spark prints nothing; a caller that only shows the read) no preamble.
	if got := r.Text(""); !strings.HasPrefix(got, "-- begin 20261129155610512 is compared") {
		t.Errorf("no reason:\n%s", got)
	}
}
