// Package eventlog reads Spark event logs (any codec, rolling directories,
// History Server downloads) in one streaming pass and attributes every stage
// to a Hudi operation, phase and sub-phase twice: by Hudi's
// HoodieSparkEventLogAnalyzer rules into its schemaVersion 1.1.0 fields, and by
// hudiscope's rules under the "hudiscope" key, with its other additions.
package eventlog

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/eventlog/source"
	"github.com/hudiscope/hudiscope/internal/redact"
)

// Options control Analyze.
type Options struct {
	// Opener reads paths; nil means the local file system. S3/HDFS backends plug in here.
	Opener source.Opener
	// HTTPClient is used for shs:// paths; nil means http.DefaultClient.
	HTTPClient *http.Client
	// IncludeTasks adds p25/p75/p99 to every stage's taskDurationMillis.
	IncludeTasks bool
	// Progress, when set, is called every few MiB of decoded log.
	Progress func(Progress)
	// DisplayPath is written as eventLogPath; default the path as given.
	DisplayPath string

	// workers is the number of parser goroutines; 0 means GOMAXPROCS (tests).
	workers int
	// noMmap reads plain local files with read(2), not through a mapping (tests).
	noMmap bool
	// mapped is called when a part is read through a mapping (tests).
	mapped func(path string)
	// readPart replaces analysis.readPart (tests: the single-threaded reference).
	readPart func(a *analysis, ctx context.Context, op source.Opener, p source.Part, idx, total int) error
}

// opener is Opener, or the local file system.
func (o Options) opener() source.Opener {
	if o.Opener != nil {
		return o.Opener
	}
	return source.Local{}
}

// display is the eventLogPath for path: DisplayPath or path, credentials redacted
// (shs://user:pw@… must not reach the report).
func (o Options) display(path string) string {
	if o.DisplayPath != "" {
		path = o.DisplayPath
	}
	return redact.Text(path)
}

// Errors for the CLI's exit codes (all are exit 2 in the Java tool).
var (
	ErrNoEvents = errors.New("no parseable Spark events")
	ErrNoLog    = source.ErrNoLog
)

type analysis struct {
	opt                Options
	st                 *state
	files              []FileInfo
	damage             []DamageRecord
	warnings           []string
	totalDecoded       int64
	eventsBefore       int64
	rollbackExecutions int
}

// Analyze reads the event log at path (a file, a rolling or Databricks
// directory, or shs://HOST:PORT/APP_ID[/ATTEMPT]) and returns the report.
func Analyze(ctx context.Context, path string, opt Options) (*Report, error) {
	op, display := opt.opener(), opt.display(path)
	var srcInfo SourceInfo
	root := path
	shs, isSHS, err := source.ParseSHS(path)
	if err != nil {
		return nil, err
	}
	if isSHS {
		dl, err := shs.Fetch(ctx, opt.HTTPClient)
		if err != nil {
			return nil, err
		}
		defer dl.Close()
		op, root = dl.Opener, dl.Root
		srcInfo.HistoryServer = shs.LogsURL()
		srcInfo.Notes = append(srcInfo.Notes, dl.Notes...)
	} else if i := strings.Index(path, "://"); i > 0 && opt.Opener == nil && !strings.HasPrefix(path, "file://") {
		return nil, fmt.Errorf("%s: no storage backend for %q paths is available yet; copy the log locally or use shs://", path, path[:i])
	} else {
		root = strings.TrimPrefix(path, "file://")
	}
	log, err := source.Resolve(op, root)
	if err != nil {
		return nil, err
	}
	srcInfo.Layout, srcInfo.InProgress, srcInfo.Compacted = string(log.Layout), log.InProgress, log.Compacted
	srcInfo.Notes = append(srcInfo.Notes, log.Notes...)

	a := &analysis{opt: opt, st: newState()}
	read := a.readPart
	if opt.readPart != nil {
		read = func(ctx context.Context, op source.Opener, p source.Part, idx, total int) error {
			return opt.readPart(a, ctx, op, p, idx, total)
		}
	}
	for i, p := range log.Parts {
		if err := read(ctx, op, p, i, len(log.Parts)); err != nil {
			return nil, err
		}
	}
	if a.st.eventsRead == 0 {
		return nil, fmt.Errorf("%s: %w; is this a Spark event log?", path, ErrNoEvents)
	}
	if srcInfo.Notes == nil {
		srcInfo.Notes = []string{}
	}
	r := a.build(display)
	r.Hudiscope.Source = srcInfo
	return r, nil
}

// AnalyzeLines runs the analysis over in-memory lines (tests, fuzzing, TUI previews).
func AnalyzeLines(lines [][]byte, opt Options) *Report {
	a := &analysis{opt: opt, st: newState()}
	fi := FileInfo{Path: "<memory>", Codec: "plain", CodecFromName: "plain"}
	for i, l := range lines {
		ok, blank := a.st.Line(l)
		if !blank {
			fi.Lines++
		}
		if !ok {
			fi.MalformedLines++
			ln := int64(i + 1)
			a.damage = append(a.damage, DamageRecord{File: fi.Path, Kind: "malformed-line", Line: &ln, Detail: "line is not valid JSON"})
		}
	}
	if fi.MalformedLines > 0 {
		a.warnings = append(a.warnings, fmt.Sprintf("%d line(s) in %s could not be parsed as JSON and were skipped.", fi.MalformedLines, fi.Path))
	}
	fi.Events = a.st.eventsRead
	a.files = append(a.files, fi)
	r := a.build(opt.DisplayPath)
	r.Hudiscope.Source = SourceInfo{Layout: "memory", Notes: []string{}}
	return r
}
