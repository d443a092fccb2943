package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/hudiscope/hudiscope/report"
)

// Stamped by the release build (make dist):
//
//	-ldflags "-X github.com/hudiscope/hudiscope/cli.version=v1.2.3 -X …cli.commit=abc -X …cli.date=…"
//
// A `go install …@latest` build has none of them; debug.ReadBuildInfo fills them in then.
var (
	version = ""
	commit  = ""
	date    = ""
)

// buildInfo says which build is running: bug reports (the exit-70 message) carry it.
type buildInfo struct {
	Version, Commit, Date, GoVersion, Platform string
	Modified                                   bool
}

func currentBuild() buildInfo {
	b := buildInfo{Version: version, Commit: commit, Date: date, GoVersion: runtime.Version(),
		Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if b.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			b.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if b.Commit == "" {
					b.Commit = s.Value
				}
			case "vcs.time":
				if b.Date == "" {
					b.Date = s.Value
				}
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if b.Version == "" {
		b.Version = "dev"
	}
	if len(b.Commit) > 12 {
		b.Commit = b.Commit[:12]
	}
	if b.Modified && b.Commit != "" {
		b.Commit += "-dirty"
	}
	if t, err := time.Parse(time.RFC3339, b.Date); err == nil {
		b.Date = t.UTC().Format(time.RFC3339)
	}
	return b
}

func (b buildInfo) String() string {
	commit, date := b.Commit, b.Date
	if commit == "" {
		commit = "unknown"
	}
	if date == "" {
		date = "unknown"
	}
	return fmt.Sprintf("hudiscope %s (commit %s, built %s, %s, %s)", b.Version, commit, date, b.GoVersion, b.Platform)
}

// VersionJSON is `hudiscope version -o json` (docs/json.md, section version).
type VersionJSON struct {
	SchemaVersion string `json:"schemaVersion"`
	Version       string `json:"version"`
	Commit        string `json:"commit"`
	Date          string `json:"date"`
	GoVersion     string `json:"goVersion"`
	Platform      string `json:"platform"`
	Modified      bool   `json:"modified"`
}

// VersionCmd prints the build information.
type VersionCmd struct {
	OutputFlags
}

func (*VersionCmd) examples() []string {
	return []string{"hudiscope version", "hudiscope --version", "hudiscope version -o json"}
}

func (c *VersionCmd) Run() error {
	format, err := c.format("text", "text", "json")
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	b := currentBuild()
	c.noPager = true // one line
	return c.writeOutput(func(w io.Writer) error {
		if format == "json" {
			return report.WriteJSON(w, VersionJSON{SchemaVersion: report.SchemaVersion, Version: b.Version, Commit: b.Commit,
				Date: b.Date, GoVersion: b.GoVersion, Platform: b.Platform, Modified: b.Modified})
		}
		_, err := fmt.Fprintln(w, b.String())
		return err
	})
}
