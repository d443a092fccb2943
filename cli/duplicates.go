package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/duplicates"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// exitDuplicatesFound is `duplicates`' verdict: the snapshot holds a record key more than once.
const exitDuplicatesFound = 3

// DuplicatesCmd lists the record keys the latest snapshot holds more than once.
type DuplicatesCmd struct {
	Table     string `arg:"" help:"Table path: directory, .zip, s3://, s3a:// or hdfs:// URI."`
	MemBudget string `name:"mem-budget" default:"256MiB" placeholder:"SIZE" help:"Memory for the (key, location) tuples; past it sorted runs are spilled to a temporary directory (removed on exit and on ctrl+c) and merged."`
	TempDir   string `name:"temp-dir" placeholder:"DIR" type:"path" help:"Where the spill directory is made (default: $TMPDIR or /tmp)."`
	Limit     int    `name:"limit" default:"100" help:"List at most N duplicated keys (0: all); the counts cover every one."`
	OutputFlags
	TableFlags
	ScaleFlags
}

func (c *DuplicatesCmd) Help() string {
	return `Finds record keys the latest snapshot holds more than once: in two partitions (a non-global index after a partition-path change), in two file groups of one partition (bulk_insert, or insert without hoodie.combine.before.insert / with hoodie.datasource.write.insert.drop.duplicates=false), or twice in one file group's latest slice. Only the meta columns are read; a merge-on-read slice's log records are merged into its base file first, so a key updated in a log file is one copy. Lists each copy's partition, file group, file (_hoodie_file_name: a log record names its file group) and commit. Exit 3 when a duplicate is found, 0 when none. Past --max-scan-bytes / --max-scan-files it prints the Spark SQL GROUP BY instead (exit 2); --spark runs it through spark-sql.`
}

func (c *DuplicatesCmd) examples() []string {
	return []string{
		`hudiscope duplicates table.zip`,
		`hudiscope duplicates s3://bucket/orders -o json --limit 0 > dups.json`,
		`hudiscope duplicates /data/orders --mem-budget 64MiB --temp-dir /mnt/scratch`,
		`hudiscope duplicates s3://bucket/orders --spark`,
	}
}

// memBudget parses --mem-budget.
func (c *DuplicatesCmd) memBudget() (int64, error) {
	s := strings.TrimSpace(c.MemBudget)
	n, err := units.ParseBytes(s)
	if err != nil || n <= 0 || n > 1<<50 {
		return 0, codeError{exitUsage, fmt.Sprintf("--mem-budget %q: want a size such as 64MiB or 1GiB", c.MemBudget)}
	}
	return n, nil
}

func (c *DuplicatesCmd) Run(ctx context.Context) error {
	format, err := c.format("text", "text", "json", "md")
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	budget, err := c.memBudget()
	if err != nil {
		return err
	}
	if c.Limit < 0 {
		return codeError{exitUsage, "--limit: want 0 (all) or more"}
	}
	opts := c.options(c.Table, []model.Step{model.StepFiles}, nil)
	// On a terminal, stderr counts the files listed, then the slices scanned, cleared before
	// the output (opened once the scan is done).
	line := progressHooks(&opts)
	defer line.Done()
	s, err := load(ctx, opts, model.StepTimeline, model.StepFiles)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	found := false
	err = c.writeOutputAfterWork(line.Done, func(w io.Writer) error {
		done, err := c.handOff(ctx, w, model.SliceScanSize(s.View), func() (report.SparkRead, error) {
			loc, err := sparkLocation(c.Table)
			return report.DuplicatesSpark(c.SparkTable, loc), err
		})
		if done {
			return err
		}
		res, st, err := s.Duplicates(ctx, duplicates.Options{MemBudget: budget, TempDir: c.TempDir, Limit: c.Limit})
		line.Done()
		if err != nil {
			return err
		}
		warnScan(st)
		name, typ := "", ""
		if s.Config != nil {
			name, typ = s.Config.Name, s.Config.Type
		}
		doc := report.NewDuplicatesDocument(name, typ, budget, res)
		found = doc.DuplicateKeys > 0
		switch format {
		case "json":
			return report.WriteJSON(w, doc)
		case "md":
			_, err := io.WriteString(w, report.DuplicatesMarkdown(doc))
			return err
		}
		return report.DuplicatesText(w, doc)
	})
	if err != nil {
		return err
	}
	if found {
		return codeError{exitDuplicatesFound, ""}
	}
	return nil
}
