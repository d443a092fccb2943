package cli

import (
	"context"
	"errors"
	"io"

	"github.com/hudiscope/hudiscope/analyzers/mdt"
	"github.com/hudiscope/hudiscope/internal/progress"
	"github.com/hudiscope/hudiscope/internal/redact"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// exitMDTMismatch is `metadata validate-files`: the metadata table lists other files than storage.
const exitMDTMismatch = 3

// MetadataCmd groups the metadata-table checks (hudi-cli's `metadata` commands).
type MetadataCmd struct {
	ValidateFiles MetadataValidateCmd `cmd:"" name:"validate-files" help:"Compare every partition's files in the metadata table with storage (exit 3 on a mismatch)."`
	Stats         MetadataStatsCmd    `cmd:"" name:"stats" help:"The metadata table's partitions: file groups, base and log files, sizes, records."`
	Timeline      MetadataTimelineCmd `cmd:"" name:"timeline" help:"The metadata table's own timeline, its compaction state and its lag behind the data table."`
}

// metadataTable is the table argument and flags every metadata subcommand takes.
type metadataTable struct {
	Table string `arg:"" help:"Table path: directory, .zip, s3://, s3a:// or hdfs:// URI."`
	OutputFlags
	TableFlags
}

// load reads what the subcommands start from: the data table's properties and timeline
// (and the effective configuration, for timeline's max delta commits).
func (m *metadataTable) load(ctx context.Context, steps ...model.Step) (*model.Snapshot, string, error) {
	return m.loadProgress(ctx, nil, steps...)
}

// loadProgress is load with the snapshot's hooks on line (nil: load's own, ended with it).
func (m *metadataTable) loadProgress(ctx context.Context, line *progress.Line, steps ...model.Step) (*model.Snapshot, string, error) {
	opts := m.options(m.Table, steps, nil)
	opts.LazyCommits = true
	if line != nil {
		opts.OnListed = line.Counter("listing %s files…")
	}
	s, err := load(ctx, opts, steps...)
	if err != nil {
		return nil, "", err
	}
	return s, redact.Text(s.BasePath()), nil
}

// mdtError turns a table without a metadata table into exit 1 with the reason.
func mdtError(err error) error {
	if errors.Is(err, mdt.ErrNoMetadataTable) {
		return codeError{exitError, err.Error()}
	}
	return err
}

// MetadataValidateCmd is validate_metadata_table_files / hudi-cli `metadata validate-files`.
type MetadataValidateCmd struct {
	metadataTable
	All bool `name:"all" help:"List every file, matching ones too (Spark's verbose => true)."`
}

func (c *MetadataValidateCmd) Help() string {
	return `Lists every partition's files twice, from the metadata table's files partition and from storage, and compares names and sizes. Storage files of writes the data timeline does not count as committed (failed or running writes) are listed as "uncommitted on storage" and are no mismatch. Exit status: 0 match, 3 a mismatch (missing on storage, missing in the metadata table, size differs), 1 the table cannot be read or has no complete metadata table, 2 bad arguments.`
}

func (c *MetadataValidateCmd) examples() []string {
	return []string{
		`hudiscope metadata validate-files s3://bucket/warehouse/orders`,
		`hudiscope metadata validate-files table.zip --all -o json | jq '.files[] | select(.status != "ok")'`,
	}
}

func (c *MetadataValidateCmd) Run(ctx context.Context) error {
	format, err := c.format("text", "text", "json", "md")
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	// On a terminal, stderr counts the storage files listed, cleared before the output.
	line := progress.LineOnStderr()
	defer line.Done()
	s, table, err := c.loadProgress(ctx, line, model.StepTimeline)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	v, err := s.ValidateMetadataFiles(ctx, c.All)
	line.Done()
	if err != nil {
		return mdtError(err)
	}
	err = c.writeOutput(func(w io.Writer) error {
		switch format {
		case "json":
			return report.WriteJSON(w, report.MetadataValidateDocument{SchemaVersion: report.SchemaVersion, Table: table, Validation: *v})
		case "md":
			_, err := io.WriteString(w, report.MetadataValidateMarkdown(table, v))
			return err
		}
		return report.MetadataValidateText(w, table, v)
	})
	if err != nil {
		return err
	}
	if !v.Match {
		return codeError{exitMDTMismatch, ""}
	}
	return nil
}

// MetadataStatsCmd is hudi-cli `metadata stats`, per metadata-table partition.
type MetadataStatsCmd struct{ metadataTable }

func (c *MetadataStatsCmd) examples() []string {
	return []string{
		`hudiscope metadata stats s3://bucket/warehouse/orders`,
		`hudiscope metadata stats table.zip -o json | jq '.partitions[] | {name, fileGroups, baseRecords}'`,
	}
}

func (c *MetadataStatsCmd) Run(ctx context.Context) error {
	format, err := c.format("text", "text", "json", "md")
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	s, table, err := c.load(ctx, model.StepTimeline)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	st, err := s.MetadataStats(ctx)
	if err != nil {
		return mdtError(err)
	}
	return c.writeOutput(func(w io.Writer) error {
		switch format {
		case "json":
			return report.WriteJSON(w, report.MetadataStatsDocument{SchemaVersion: report.SchemaVersion, Table: table, Stats: *st})
		case "md":
			_, err := io.WriteString(w, report.MetadataStatsMarkdown(table, st))
			return err
		}
		return report.MetadataStatsText(w, table, st)
	})
}

// MetadataTimelineCmd is hudi-cli `metadata timeline` plus the compaction and sync state.
type MetadataTimelineCmd struct{ metadataTable }

func (c *MetadataTimelineCmd) examples() []string {
	return []string{
		`hudiscope metadata timeline s3://bucket/warehouse/orders --props writer.properties`,
		`hudiscope metadata timeline table.zip -o json | jq '{lagging, notSynced, deltaCommitsSinceCompaction}'`,
	}
}

func (c *MetadataTimelineCmd) Run(ctx context.Context) error {
	format, err := c.format("text", "text", "json", "md")
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	s, table, err := c.load(ctx, model.StepTimeline, model.StepConfig)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	t, err := s.MetadataTimeline(ctx)
	if err != nil {
		return mdtError(err)
	}
	return c.writeOutput(func(w io.Writer) error {
		switch format {
		case "json":
			return report.WriteJSON(w, report.MetadataTimelineDocument{SchemaVersion: report.SchemaVersion, Table: table, TimelineState: *t})
		case "md":
			_, err := io.WriteString(w, report.MetadataTimelineMarkdown(table, t))
			return err
		}
		return report.MetadataTimelineText(w, table, t)
	})
}
