package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/model"
)

// LayoutCmd is HoodieTableLayoutAnalyzer in Go: base-file size statistics, skew and detectors.
type LayoutCmd struct {
	Table           string   `arg:"" help:"Table path: directory, .zip, s3:// or s3a:// URI."`
	Output          string   `name:"output" short:"o" default:"TABLE" help:"TABLE or JSON."`
	TableStats      bool     `name:"enable-table-stats" help:"Show table-level statistics (TABLE output; JSON always has them)."`
	PartitionStats  bool     `name:"enable-partition-stats" help:"Per-partition statistics (partitions[])."`
	TopN            int      `name:"top-n" default:"0" help:"Show only the N largest partitions (0 = all)."`
	Characteristics bool     `name:"analyze-table-characteristics" help:"Run the micro-partition, small-files and hot-partitions detectors."`
	PrintTopK       int      `name:"print-top-k" default:"0" help:"List the K partitions with the smallest average file size per detector."`
	Props           string   `name:"props" help:"Writer properties file (Java properties syntax)."`
	HoodieConf      []string `name:"hoodie-conf" help:"Writer property k=v (repeatable)."`
	Engine          string   `name:"engine" default:"spark" enum:"spark,flink,java" help:"Engine whose effective defaults apply (spark, flink, java)."`

	MicroCount      int     `name:"micro-partition-count-threshold" default:"10000"`
	MicroMinFiles   int     `name:"micro-partition-min-files" default:"25"`
	MicroMaxAvg     int64   `name:"micro-partition-max-avg-bytes" default:"52428800"`
	MicroMinAge     int     `name:"micro-partition-min-age-days" default:"30"`
	SmallThreshold  int64   `name:"small-files-threshold-bytes" default:"52428800"`
	SmallMinFiles   int     `name:"small-files-min-files-per-partition" default:"5"`
	SmallModerate   float64 `name:"small-files-moderate-pct" default:"0.10"`
	SmallSevere     float64 `name:"small-files-severe-pct" default:"0.30"`
	SmallMinCommits int     `name:"small-files-min-table-commits" default:"10"`
	HotWindow       int     `name:"hot-window-commits" default:"50"`
	HotShare        float64 `name:"hot-partition-commit-share" default:"0.5"`
}

func (c *LayoutCmd) Run() error {
	format := strings.ToUpper(strings.TrimSpace(c.Output))
	if format != "TABLE" && format != "JSON" {
		return codeError{exitError, fmt.Sprintf("--output must be TABLE or JSON (got %s)", c.Output)}
	}
	ctx := context.Background()
	t, tl, err := openTimeline(ctx, c.Table, false)
	if err != nil {
		return codeError{exitError, err.Error()}
	}
	defer reportProblems(t)
	view, err := t.FileSystemView(ctx, tl)
	if err != nil {
		return codeError{exitError, err.Error()}
	}
	eff, err := model.LoadConfig(c.Props, c.HoodieConf, c.Engine, t.Config)
	if err != nil {
		return codeError{exitError, err.Error()}
	}
	opt := model.LayoutOptions(eff)
	opt.PartitionStats, opt.TopN, opt.Characteristics, opt.PrintTopK = c.PartitionStats, c.TopN, c.Characteristics, c.PrintTopK
	opt.MicroPartitionCountThreshold, opt.MicroPartitionMinFiles, opt.MicroPartitionMaxAvgBytes, opt.MicroPartitionMinAgeDays =
		c.MicroCount, c.MicroMinFiles, c.MicroMaxAvg, c.MicroMinAge
	opt.SmallFilesThresholdBytes, opt.SmallFilesMinFilesPerPartition, opt.SmallFilesModeratePct, opt.SmallFilesSeverePct, opt.SmallFilesMinTableCommits =
		c.SmallThreshold, c.SmallMinFiles, c.SmallModerate, c.SmallSevere, c.SmallMinCommits
	opt.HotWindowCommits, opt.HotPartitionCommitShare = c.HotWindow, c.HotShare
	in, err := model.LayoutInput(ctx, t, tl, view, opt)
	if err != nil {
		return codeError{exitError, err.Error()}
	}
	r := layout.Analyze(in, opt)
	r.BasePath = config.Redact("", r.BasePath)
	if format == "JSON" {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(r)
	}
	return layout.WriteText(os.Stdout, r, c.PartitionStats, c.TopN)
}
