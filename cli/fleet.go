package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hudiscope/hudiscope/internal/progress"
	"github.com/hudiscope/hudiscope/internal/redact"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/ui"
)

// FleetFlags choose and bound the tables of a fleet; shared by `fleet` and the explorer.
type FleetFlags struct {
	Glue         string `name:"glue" placeholder:"DB[,DB…]" help:"Read the tables of these AWS Glue databases ('*' for every database) instead of walking a location; tables whose location holds no Hudi table are skipped."`
	GlueEndpoint string `name:"glue-endpoint" placeholder:"URL" help:"Endpoint URL of a Glue-compatible API (tests, emulators)."`
	GlueRegion   string `name:"glue-region" help:"Region of the Glue catalog (default: the SDK's, then us-east-1)."`
	HMS          string `name:"hms" placeholder:"thrift://HOST:9083" help:"Read the tables of a Hive Metastore (Thrift, no SASL/Kerberos) instead of walking a location; --hms-db picks the databases."`
	HMSDB        string `name:"hms-db" placeholder:"DB[,DB…]" default:"*" help:"Databases to read with --hms ('*': every database)."`
	Depth        int    `name:"depth" default:"4" help:"Directory levels below the location to look for tables."`
	MaxEntries   int    `name:"max-entries" default:"200000" help:"Stop discovery after listing this many entries (and say so)."`
	Parallel     int    `name:"parallel" default:"8" help:"Tables read at once."`
}

// base is the load options every row shares. A fleet has no per-table writer properties:
// without Hudi's defaults every check would be SKIPPED and the health column empty, so the
// Fleet view always applies them and `fleet` does unless --no-apply-all-defaults.
func (f FleetFlags) base(t TableFlags, applyAll bool, logw io.Writer) model.Options {
	o := t.options("", nil, logw)
	o.Health.ApplyAllDefaults = applyAll
	return o
}

// FleetCmd lists every Hudi table under a location or in a catalog (Glue, HMS), one row each.
type FleetCmd struct {
	Location string `arg:"" optional:"" help:"Location to walk for tables: directory, s3://, s3a:// or hdfs:// URI (or --glue, --hms)."`
	FleetFlags
	ApplyAllDefaults bool `name:"apply-all-defaults" default:"true" negatable:"" help:"Health: judge unsupplied writer properties by Hudi's (engine-effective) defaults (default on for a fleet; --no-apply-all-defaults skips them)."`
	OutputFlags
	TableFlags
}

func (c *FleetCmd) examples() []string {
	return []string{
		`hudiscope fleet s3://bucket/warehouse/ -o md > triage.md`,
		`hudiscope fleet --glue sales,marketing -o json`,
		`hudiscope fleet --hms thrift://metastore:9083 --hms-db sales -o md`,
	}
}

func (c *FleetCmd) Run(ctx context.Context) error {
	format, err := c.format("text", "text", "json", "md")
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	if err := c.FleetFlags.validate(c.Location); err != nil {
		return codeError{exitUsage, err.Error()}
	}
	// One --props for every row: refused up front as every command refuses it, not once per
	// row beside a verdict judged without it.
	if err := c.checkProps(); err != nil {
		return err
	}
	base := c.FleetFlags.base(c.TableFlags, c.ApplyAllDefaults, nil)
	// On a terminal, stderr counts the tables read so far, cleared before the output.
	line := progress.LineOnStderr()
	var onRow func(int, model.FleetRow)
	if read := line.Counter("reading %s tables…"); read != nil {
		onRow = func(int, model.FleetRow) { read(1) }
	}
	d, rows, err := model.RunFleet(ctx, c.FleetFlags.source(c.Location), base, onRow)
	line.Done()
	if err != nil {
		return err
	}
	doc := report.NewFleetDocument(d, rows)
	// Every string of the document: locations and messages may carry credentials (a URI's user
	// part, a Glue location's presigned query string in a row, a skip or an error).
	redact.Strings(doc)
	return c.writeOutput(func(w io.Writer) error {
		switch format {
		case "json":
			return report.WriteJSON(w, doc)
		case "md":
			_, err := io.WriteString(w, report.FleetMarkdown(doc))
			return err
		}
		return report.WriteFleetText(w, doc)
	})
}

func (f FleetFlags) validate(location string) error {
	switch {
	case f.HMS != "" && f.Glue != "":
		return fmt.Errorf("give either --glue or --hms, not both")
	case location != "" && (f.Glue != "" || f.HMS != ""):
		return fmt.Errorf("give either a location or a catalog (--glue, --hms), not both")
	case location == "" && f.Glue == "" && f.HMS == "":
		return fmt.Errorf("give a location to walk, --glue DATABASE or --hms thrift://HOST:PORT")
	case f.Depth < 1:
		return fmt.Errorf("--depth must be at least 1")
	}
	return nil
}

// databases splits --glue (or --hms-db).
func (f FleetFlags) databases() []string {
	list := f.Glue
	if f.HMS != "" {
		list = f.HMSDB
	}
	var out []string
	for _, d := range strings.Split(list, ",") {
		if d = strings.TrimSpace(d); d != "" {
			out = append(out, d)
		}
	}
	return out
}

// source is where the flags say the fleet's tables are: the location walked, or --glue / --hms.
func (f FleetFlags) source(location string) model.FleetSource {
	src := model.FleetSource{Location: location, Depth: f.Depth, MaxEntries: f.MaxEntries, Parallel: f.Parallel}
	switch {
	case f.Glue != "":
		src.Catalog, src.Databases, src.GlueEndpoint, src.GlueRegion = model.FleetGlue, f.databases(), f.GlueEndpoint, f.GlueRegion
	case f.HMS != "":
		src.Catalog, src.Databases, src.HMS = model.FleetHMS, f.databases(), f.HMS
	}
	return src
}

func isZip(location string) bool { return strings.HasSuffix(strings.ToLower(location), ".zip") }

// runFleet is the explorer on a location that is not a table (or --glue): the Fleet view,
// whose Enter opens a table in the usual panes with the explorer's own flags.
func (c *OpenCmd) runFleet(ctx context.Context, opts model.Options) error {
	if err := c.FleetFlags.validate(c.Table); err != nil {
		return codeError{exitUsage, err.Error()}
	}
	base := c.FleetFlags.base(c.TableFlags, true, opts.Storage.Log)
	src := c.FleetFlags.source(c.Table)
	f := ui.NewFleet(ui.FleetOptions{
		Source: src.Name(),
		Now:    opts.Now,
		Color:  colorEnabled(os.LookupEnv),
		ASCII:  c.ASCII,
		Mouse:  c.Mouse && !c.NoMouse,
		Run: func(ctx context.Context, row func(int, model.FleetRow)) (*model.Discovery, error) {
			d, _, err := model.RunFleet(ctx, src, base, row)
			return d, err
		},
		Open: func(r model.FleetRow) ui.Options {
			o := model.FleetTableOptions(opts, base, r)
			return ui.Options{Location: r.Location, ExportDir: c.ExportDir, Color: colorEnabled(os.LookupEnv), ASCII: c.ASCII,
				Mouse: c.Mouse && !c.NoMouse, FullExport: c.FullExport, Now: o.Now,
				Load: func(ctx context.Context, progress func(model.Progress)) { _, _ = model.Load(ctx, o, progress) }}
		},
	})
	return runTUIOffStderr(ctx, f, opts.Storage.Log)
}
