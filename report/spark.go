package report

import (
	"fmt"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/model"
)

// SparkRead is one read as Spark runs it: the SQL, and the DataFrame options of the same read.
// The commands print it (past a scan limit) or hand its SQL to spark-sql (--spark).
type SparkRead struct {
	Comments []string // -- lines: what the begin value is compared with, and why
	SQL      string
	Format   string      // DataFrame: spark.read.format(...)
	Options  [][2]string // DataFrame options, in order
	Load     string      // DataFrame .load(path)
	Chain    []string    // DataFrame calls after .load (a GROUP BY's)
}

// SparkSelect is what a row read prints: the rows (Columns beside the meta columns, at most
// Limit), or with Count their number, By "commit" or "partition" one count per key.
type SparkSelect struct {
	Count   bool
	By      string
	Columns []string
	Limit   int
	// Where are predicates ANDed in a WHERE clause (column = literal, already quoted).
	Where []string
}

// SQLString quotes a Spark SQL string literal. Every Spark release unescapes backslash
// sequences inside literals (unless spark.sql.parser.escapedStringLiterals is set), and
// releases before Spark 4 read a doubled quote as the end of one literal and the start of the
// next (adjacent literals concatenate): a quote is written as backslash-quote and a backslash
// as two, so no quote is lost and a backslash cannot escape the closing quote.
func SQLString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// sqlIdent quotes an identifier with backticks (a path in hudi.`...`).
func sqlIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// sparkProjection is the SELECT list of a row read: the meta columns and the asked columns, or *.
func sparkProjection(cols []string) string {
	if len(cols) == 0 {
		return "*"
	}
	out := []string{"_hoodie_commit_time", "_hoodie_record_key", "_hoodie_partition_path"}
	for _, c := range cols {
		out = append(out, sqlIdent(c))
	}
	return strings.Join(out, ", ")
}

// sparkSelectSQL applies --count [--by], --columns and --limit to a FROM clause.
func sparkSelectSQL(from string, out SparkSelect) string {
	if len(out.Where) > 0 {
		from += " WHERE " + strings.Join(out.Where, " AND ")
	}
	switch {
	case out.Count && out.By == "commit":
		return "SELECT _hoodie_commit_time, COUNT(*) AS rows FROM " + from + " GROUP BY _hoodie_commit_time ORDER BY _hoodie_commit_time"
	case out.Count && out.By == "partition":
		return "SELECT _hoodie_partition_path, COUNT(*) AS rows FROM " + from + " GROUP BY _hoodie_partition_path ORDER BY _hoodie_partition_path"
	case out.Count:
		return "SELECT COUNT(*) AS rows FROM " + from
	}
	q := "SELECT " + sparkProjection(out.Columns) + " FROM " + from
	if out.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", out.Limit)
	}
	return q
}

// sparkBeginComment says how the reading release compares the begin value, so it is given in the
// right time domain: 0.x compares requested (instant) times, 1.x completion times (1.0.x
// inclusively).
func sparkBeginComment(rd checkpoint.Reader, begin string) string {
	rel := "Hudi " + rd.Line
	if rd.Release != "" {
		rel = "Hudi " + rd.Release + " (" + rd.Line + ")"
	}
	return fmt.Sprintf("begin %s is compared as %s compares it: %s. Run it with a bundle of the same line, or the rows differ.", begin, rel, rd.Rule())
}

// IncrementalSpark is the Spark form of an incremental read.
func IncrementalSpark(table, loc string, q model.IncrementalQuery, out SparkSelect) SparkRead {
	name := table
	if name == "" {
		name = loc
	}
	args := []string{SQLString(name), "'latest_state'", SQLString(q.Begin)}
	if q.End != "" {
		args = append(args, SQLString(q.End))
	}
	r := SparkRead{Comments: []string{sparkBeginComment(q.Reader, q.Begin)}, Format: "hudi", Load: loc,
		Options: [][2]string{{"hoodie.datasource.query.type", "incremental"}, {"hoodie.datasource.read.begin.instanttime", q.Begin}}}
	if q.End != "" {
		r.Options = append(r.Options, [2]string{"hoodie.datasource.read.end.instanttime", q.End})
	}
	sql := sparkSelectSQL("hudi_table_changes("+strings.Join(args, ", ")+")", out) + ";"
	if q.Fallback != nil {
		v := fmt.Sprint(*q.Fallback)
		sql = "SET hoodie.datasource.read.incr.fallback.fulltablescan.enable=" + v + ";\n" + sql
		r.Options = append(r.Options, [2]string{"hoodie.datasource.read.incr.fallback.fulltablescan.enable", v})
	}
	r.SQL = sql
	return r
}

// ChangesSpark is the Spark form of a CDC read.
func ChangesSpark(table, loc string, q model.ChangesQuery, count bool, limit int) SparkRead {
	name := table
	if name == "" {
		name = loc
	}
	begin := q.Begin
	if begin == "" {
		begin = "earliest"
	}
	args := []string{SQLString(name), "'cdc'", SQLString(begin)}
	if q.End != "" {
		args = append(args, SQLString(q.End))
	}
	r := SparkRead{Format: "hudi", Load: loc,
		Options: [][2]string{{"hoodie.datasource.query.type", "incremental"}, {"hoodie.datasource.query.incremental.format", "cdc"},
			{"hoodie.datasource.read.begin.instanttime", begin}}}
	if begin != "earliest" {
		r.Comments = append(r.Comments, sparkBeginComment(q.Reader, begin))
	}
	if q.End != "" {
		r.Options = append(r.Options, [2]string{"hoodie.datasource.read.end.instanttime", q.End})
	}
	r.SQL = sparkSelectSQL("hudi_table_changes("+strings.Join(args, ", ")+")", SparkSelect{Count: count, Limit: limit}) + ";"
	return r
}

// SnapshotSpark is the Spark form of a snapshot read. Spark SQL has no direct query on a Hudi
// path (UNSUPPORTED_DATASOURCE_FOR_DIRECT_QUERY), so a path is read through a temporary view
// (USING hudi, as.of.instant for time travel); a catalog table by name (TIMESTAMP AS OF).
func SnapshotSpark(table, loc, asOf string, out SparkSelect) SparkRead {
	r := SparkRead{Format: "hudi", Load: loc}
	from, view := table, ""
	if table == "" {
		from = "hudiscope_snapshot"
		view = "CREATE OR REPLACE TEMPORARY VIEW hudiscope_snapshot USING hudi OPTIONS (path " + SQLString(loc)
	}
	if asOf != "" {
		if view != "" {
			view += ", 'as.of.instant' " + SQLString(asOf)
		} else {
			from += " TIMESTAMP AS OF " + SQLString(asOf)
		}
		r.Options = append(r.Options, [2]string{"as.of.instant", asOf})
		r.Comments = append(r.Comments, "as of "+asOf+": Hudi compares it with requested (instant) times, in 0.x and 1.x alike.")
	}
	r.SQL = sparkSelectSQL(from, out) + ";"
	if view != "" {
		r.SQL = view + ");\n" + r.SQL
	}
	return r
}

// Text is the read as printed: comments, the SQL, then the DataFrame form; why (if any) says
// why it was not scanned here.
func (r SparkRead) Text(why string) string {
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
	for _, c := range r.Chain {
		fmt.Fprintf(&b, "--   %s\n", c)
	}
	return b.String()
}
