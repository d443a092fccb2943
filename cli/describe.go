package cli

import (
	"context"
	"io"

	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/view"
)

// DescribeCmd prints a table's properties, configuration, schema and schema history.
type DescribeCmd struct {
	Table string `arg:"" help:"Table path: directory, .zip, s3://, s3a:// or hdfs:// URI."`
	OutputFlags
	TableFlags
}

func (c *DescribeCmd) examples() []string {
	return []string{
		`hudiscope describe s3://bucket/warehouse/orders`,
		`hudiscope describe table.zip --props writer.properties -o md > orders.md`,
		`hudiscope describe table.zip -o json | jq '.history[] | {at: .instant.requestedTime, changes}'`,
	}
}

func (c *DescribeCmd) Run(ctx context.Context) error {
	format, err := c.format("text", "text", "json", "md")
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	opts := c.options(c.Table, []model.Step{model.StepTimeline, model.StepConfig}, nil)
	// The schema history reads every write, archived ones too; only the schema text of each.
	opts.LazyCommits, opts.Archived = true, true
	s, err := load(ctx, opts, model.StepTimeline)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	instants := s.Timeline.All()
	d := view.BuildDescribe(s, instants, s.WriterSchemas(ctx, instants))
	text, path, err := s.SchemaHistoryFile(ctx)
	d.AddSchemaFile(path, text, err, instants)
	if err := ctx.Err(); err != nil {
		return err
	}
	return c.writeOutput(func(w io.Writer) error {
		switch format {
		case "json":
			return report.WriteJSON(w, report.NewDescribeDocument(d))
		case "md":
			_, err := io.WriteString(w, report.DescribeMarkdown(d))
			return err
		}
		return report.DescribeText(w, d)
	})
}
