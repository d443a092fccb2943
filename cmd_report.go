package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// ReportCmd writes the full report without starting the TUI.
type ReportCmd struct {
	Table    string `arg:"" help:"Table path: directory, .zip, s3:// or s3a:// URI."`
	Props    string `help:"Writer properties file." type:"existingfile"`
	EventLog string `name:"event-log" help:"Spark event log: a file, a rolling directory, s3://, hdfs:// or shs://HOST:PORT/APP_ID."`
	Archived bool   `help:"Also read the archived timeline."`
	Format   string `help:"Output format: md or json." enum:"md,json" default:"md"`
	Output   string `short:"o" help:"Write to FILE instead of standard output." type:"path"`
}

func (c *ReportCmd) Run() error {
	ctx := context.Background()
	s, err := model.Load(ctx, model.Options{Location: c.Table, Archived: c.Archived, Props: c.Props, EventLog: c.EventLog}, nil)
	if err != nil {
		return err
	}
	for st, e := range s.StepErrors {
		fmt.Fprintf(os.Stderr, "hudiscope: %s: %v\n", st, e)
	}
	var w io.Writer = os.Stdout
	if c.Output != "" {
		f, err := os.Create(c.Output)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	if c.Format == "json" {
		return report.JSON(ctx, w, s)
	}
	_, err = io.WriteString(w, report.Markdown(ctx, s))
	return err
}
