package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
)

// ScaleFlags decide when a read is too large for one machine and hand it to Spark.
type ScaleFlags struct {
	MaxScanBytes string   `name:"max-scan-bytes" default:"2GiB" placeholder:"SIZE" help:"Do not scan when the read would touch more than SIZE on storage (e.g. 500MiB, 2GiB; 0: no limit); print the Spark SQL instead."`
	MaxScanFiles int      `name:"max-scan-files" default:"2000" placeholder:"N" help:"Do not scan when the read would touch more than N files (0: no limit); print the Spark SQL instead."`
	Spark        bool     `name:"spark" help:"Run the read through spark-sql on this node (EMR masters have it) instead of scanning here, streaming its output."`
	SparkSQL     string   `name:"spark-sql" default:"spark-sql" placeholder:"PATH" help:"The spark-sql launcher --spark runs."`
	SparkTable   string   `name:"spark-table" placeholder:"DB.TBL" help:"Name the table in the generated SQL by its catalog name (default: its path)."`
	SparkConf    []string `name:"spark-conf" sep:"none" placeholder:"K=V" help:"Extra --conf K=V for spark-sql (repeatable)."`
}

// sparkRead is one read as Spark runs it: the SQL, and the DataFrame options of the same read.
type sparkRead struct {
	Comments []string // -- lines: what the begin value is compared with, and why
	SQL      string
	Format   string      // DataFrame: spark.read.format(...)
	Options  [][2]string // DataFrame options, in order
	Load     string      // DataFrame .load(path)
}

// maxBytes parses --max-scan-bytes.
func (f ScaleFlags) maxBytes() (int64, error) {
	s := strings.TrimSpace(f.MaxScanBytes)
	if s == "" || s == "0" {
		return 0, nil
	}
	n, err := units.ParseBytes(s)
	if err != nil || n > 1<<62 {
		return 0, codeError{exitUsage, fmt.Sprintf("--max-scan-bytes %q: want a size such as 500MiB or 2GiB", f.MaxScanBytes)}
	}
	return n, nil
}

// sqlString quotes a Spark SQL string literal. Every Spark release unescapes backslash
// sequences inside literals (unless spark.sql.parser.escapedStringLiterals is set), and
// releases before Spark 4 read a doubled quote as the end of one literal and the start of the
// next (adjacent literals concatenate): a quote is written as backslash-quote and a backslash
// as two, so no quote is lost and a backslash cannot escape the closing quote.
func sqlString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// sqlIdent quotes an identifier with backticks (a path in hudi.`...`).
func sqlIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// sparkLocation is how Spark names the table location: s3:// stays (EMRFS), a zip cannot be read.
func sparkLocation(loc string) (string, error) {
	if isZip(loc) {
		return "", codeError{exitUsage, loc + " is a zip archive: Spark reads tables from a directory or an object store, not from a zip"}
	}
	if strings.Contains(loc, "://") {
		return loc, nil
	}
	abs, err := filepath.Abs(loc)
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", loc, err)
	}
	return abs, nil
}

// projection is the SELECT list of a row read: the meta columns and the asked columns, or *.
func projection(cols []string) string {
	if len(cols) == 0 {
		return "*"
	}
	out := []string{"_hoodie_commit_time", "_hoodie_record_key", "_hoodie_partition_path"}
	for _, c := range cols {
		out = append(out, sqlIdent(c))
	}
	return strings.Join(out, ", ")
}

// wrapSelect applies --count [--by], --columns and --limit to a FROM clause.
func wrapSelect(from string, out RowFlags) string {
	switch {
	case out.Count && out.By == "commit":
		return "SELECT _hoodie_commit_time, COUNT(*) AS rows FROM " + from + " GROUP BY _hoodie_commit_time ORDER BY _hoodie_commit_time"
	case out.Count && out.By == "partition":
		return "SELECT _hoodie_partition_path, COUNT(*) AS rows FROM " + from + " GROUP BY _hoodie_partition_path ORDER BY _hoodie_partition_path"
	case out.Count:
		return "SELECT COUNT(*) AS rows FROM " + from
	}
	q := "SELECT " + projection(out.Columns) + " FROM " + from
	if out.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", out.Limit)
	}
	return q
}

// beginComment says how the reading release compares the begin value, so it is given in the
// right time domain: 0.x compares requested (instant) times, 1.x completion times (1.0.x
// inclusively).
func beginComment(rd checkpoint.Reader, begin string) string {
	rel := "Hudi " + rd.Line
	if rd.Release != "" {
		rel = "Hudi " + rd.Release + " (" + rd.Line + ")"
	}
	return fmt.Sprintf("begin %s is compared as %s compares it: %s. Run it with a bundle of the same line, or the rows differ.", begin, rel, rd.Rule())
}

// incrementalSpark is the Spark form of an incremental read.
func incrementalSpark(table, loc string, q model.IncrementalQuery, out RowFlags) sparkRead {
	name := table
	if name == "" {
		name = loc
	}
	args := []string{sqlString(name), "'latest_state'", sqlString(q.Begin)}
	if q.End != "" {
		args = append(args, sqlString(q.End))
	}
	r := sparkRead{Comments: []string{beginComment(q.Reader, q.Begin)}, Format: "hudi", Load: loc,
		Options: [][2]string{{"hoodie.datasource.query.type", "incremental"}, {"hoodie.datasource.read.begin.instanttime", q.Begin}}}
	if q.End != "" {
		r.Options = append(r.Options, [2]string{"hoodie.datasource.read.end.instanttime", q.End})
	}
	sql := wrapSelect("hudi_table_changes("+strings.Join(args, ", ")+")", out) + ";"
	if q.Fallback != nil {
		v := fmt.Sprint(*q.Fallback)
		sql = "SET hoodie.datasource.read.incr.fallback.fulltablescan.enable=" + v + ";\n" + sql
		r.Options = append(r.Options, [2]string{"hoodie.datasource.read.incr.fallback.fulltablescan.enable", v})
	}
	r.SQL = sql
	return r
}

// changesSpark is the Spark form of a CDC read.
func changesSpark(table, loc string, q model.ChangesQuery, count bool, limit int) sparkRead {
	name := table
	if name == "" {
		name = loc
	}
	begin := q.Begin
	if begin == "" {
		begin = "earliest"
	}
	args := []string{sqlString(name), "'cdc'", sqlString(begin)}
	if q.End != "" {
		args = append(args, sqlString(q.End))
	}
	r := sparkRead{Format: "hudi", Load: loc,
		Options: [][2]string{{"hoodie.datasource.query.type", "incremental"}, {"hoodie.datasource.query.incremental.format", "cdc"},
			{"hoodie.datasource.read.begin.instanttime", begin}}}
	if begin != "earliest" {
		r.Comments = append(r.Comments, beginComment(q.Reader, begin))
	}
	if q.End != "" {
		r.Options = append(r.Options, [2]string{"hoodie.datasource.read.end.instanttime", q.End})
	}
	r.SQL = wrapSelect("hudi_table_changes("+strings.Join(args, ", ")+")", RowFlags{Count: count, Limit: limit}) + ";"
	return r
}

// snapshotSpark is the Spark form of a snapshot read. Spark SQL has no direct query on a Hudi
// path (UNSUPPORTED_DATASOURCE_FOR_DIRECT_QUERY), so a path is read through a temporary view
// (USING hudi, as.of.instant for time travel); a catalog table by name (TIMESTAMP AS OF).
func snapshotSpark(table, loc, asOf string, out RowFlags) sparkRead {
	r := sparkRead{Format: "hudi", Load: loc}
	from, view := table, ""
	if table == "" {
		from = "hudiscope_snapshot"
		view = "CREATE OR REPLACE TEMPORARY VIEW hudiscope_snapshot USING hudi OPTIONS (path " + sqlString(loc)
	}
	if asOf != "" {
		if view != "" {
			view += ", 'as.of.instant' " + sqlString(asOf)
		} else {
			from += " TIMESTAMP AS OF " + sqlString(asOf)
		}
		r.Options = append(r.Options, [2]string{"as.of.instant", asOf})
		r.Comments = append(r.Comments, "as of "+asOf+": Hudi compares it with requested (instant) times, in 0.x and 1.x alike.")
	}
	r.SQL = wrapSelect(from, out) + ";"
	if view != "" {
		r.SQL = view + ");\n" + r.SQL
	}
	return r
}

// text is the read as printed: comments, the SQL, then the DataFrame form.
func (r sparkRead) text(why string) string {
	var b strings.Builder
	if why != "" {
		fmt.Fprintf(&b, "-- hudiscope: not scanned here: %s.\n-- Run it in Spark (or again with --spark to run it through spark-sql on this node):\n", why)
	}
	for _, c := range r.Comments {
		fmt.Fprintf(&b, "-- %s\n", c)
	}
	b.WriteString(r.SQL + "\n")
	fmt.Fprintf(&b, "-- The same read with the DataFrame API:\n-- spark.read.format(%q)\n", r.Format)
	for _, o := range r.Options {
		fmt.Fprintf(&b, "--   .option(%q, %q)\n", o[0], o[1])
	}
	fmt.Fprintf(&b, "--   .load(%q)\n", r.Load)
	return b.String()
}

// sparkSQLArgs are spark-sql's arguments: Hudi's session extension and catalog, the installed
// bundle when one is found (EMR: /usr/lib/hudi), --spark-conf, then the query.
func (f ScaleFlags) sparkSQLArgs(sql string) []string {
	confs := []string{
		"spark.serializer=org.apache.spark.serializer.KryoSerializer",
		"spark.sql.extensions=org.apache.spark.sql.hudi.HoodieSparkSessionExtension",
		"spark.sql.catalog.spark_catalog=org.apache.spark.sql.hudi.catalog.HoodieCatalog",
	}
	confs = append(confs, f.SparkConf...)
	var args []string
	if jars, _ := filepath.Glob(filepath.Join(hudiLibDir(), "hudi-spark*-bundle*.jar")); len(jars) > 0 {
		sort.Strings(jars)
		args = append(args, "--jars", jars[len(jars)-1])
	}
	for _, c := range confs {
		args = append(args, "--conf", c)
	}
	return append(args, "-S", "-e", sql)
}

// runSpark runs the read through spark-sql, its output streamed to w and its log to stderr.
func (f ScaleFlags) runSpark(ctx context.Context, w io.Writer, r sparkRead) error {
	bin := f.SparkSQL
	if bin == "" {
		bin = "spark-sql"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return codeError{exitUsage, fmt.Sprintf("--spark: %s not found (%v); give its path with --spark-sql PATH", bin, err)}
	}
	cmd := exec.CommandContext(ctx, path, f.sparkSQLArgs(r.SQL)...)
	cmd.Stdout, cmd.Stderr, cmd.Stdin = w, os.Stderr, nil
	warnf("running through %s: %s", path, strings.ReplaceAll(r.SQL, "\n", " "))
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return codeError{exitError, fmt.Sprintf("%s failed (exit %d); its messages are above", path, ee.ExitCode())}
		}
		return fmt.Errorf("run %s: %w", path, err)
	}
	return nil
}

// handOff decides whether a read of size runs here. With --spark it runs through spark-sql;
// past a limit the Spark form is printed and the command exits 2; otherwise done is false and
// the caller scans.
func (f ScaleFlags) handOff(ctx context.Context, w io.Writer, size model.ScanSize, build func() (sparkRead, error)) (done bool, err error) {
	maxB, err := f.maxBytes()
	if err != nil {
		return true, err
	}
	why := size.Over(maxB, f.MaxScanFiles)
	if !f.Spark && why == "" {
		return false, nil
	}
	r, err := build()
	if err != nil {
		return true, err
	}
	if f.Spark {
		return true, f.runSpark(ctx, w, r)
	}
	why = fmt.Sprintf("the read would touch %d files, %s, over %s", size.Files, units.Bytes(max(0, size.Bytes)), why)
	if _, err := io.WriteString(w, r.text(why)); err != nil {
		return true, err
	}
	return true, codeError{exitUsage, "not scanned: " + why + "; the Spark SQL is on stdout (--spark runs it, --max-scan-bytes/--max-scan-files raise the limit)"}
}
