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

	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
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
func (f ScaleFlags) runSpark(ctx context.Context, w io.Writer, r report.SparkRead) error {
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
func (f ScaleFlags) handOff(ctx context.Context, w io.Writer, size model.ScanSize, build func() (report.SparkRead, error)) (done bool, err error) {
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
	if _, err := io.WriteString(w, r.Text(why)); err != nil {
		return true, err
	}
	return true, codeError{exitUsage, "not scanned: " + why + "; the Spark SQL is on stdout (--spark runs it, --max-scan-bytes/--max-scan-files raise the limit)"}
}
