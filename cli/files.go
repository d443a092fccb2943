package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/model"
)

// FilesCmd lists the latest file slice of every live file group.
type FilesCmd struct {
	Table string `arg:"" help:"Table path: directory, .zip, s3:// or s3a:// URI."`
	JSON  bool   `name:"json" help:"Print JSON."`
	TableFlags
}

type fileGroupJSON struct {
	FileID   string         `json:"fileId"`
	BaseFile *hudi.BaseFile `json:"baseFile"`
	LogFiles []logFileJSON  `json:"logFiles"`
	Pending  *pendingJSON   `json:"pending"`
	Slices   int            `json:"sliceCount"`
}

type logFileJSON struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
}

type pendingJSON struct {
	Compaction string `json:"compaction,omitempty"`
	Clustering string `json:"clustering,omitempty"`
}

type partitionJSON struct {
	Path       string          `json:"path"`
	FileGroups []fileGroupJSON `json:"fileGroups"`
	Replaced   []string        `json:"replacedFileGroups,omitempty"`
}

func (c *FilesCmd) Run() error {
	s, err := load(context.Background(), c.options(c.Table, []model.Step{model.StepFiles}, nil), model.StepTimeline, model.StepFiles)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	if c.JSON {
		return writeFilesJSON(os.Stdout, s.View)
	}
	return writeFilesText(os.Stdout, s.Table, s.View)
}

func filesJSON(view *hudi.FileSystemView) []partitionJSON {
	parts := make([]partitionJSON, 0, len(view.Partitions))
	for _, p := range view.Partitions {
		pj := partitionJSON{Path: p.Path, FileGroups: []fileGroupJSON{}}
		for _, g := range p.FileGroups {
			s := g.Latest()
			fg := fileGroupJSON{FileID: g.FileID, BaseFile: s.Base, LogFiles: []logFileJSON{}, Slices: len(g.Slices)}
			for _, l := range s.Logs {
				fg.LogFiles = append(fg.LogFiles, logFileJSON{Name: l.Name, Size: l.Size})
			}
			if g.PendingCompaction != "" || g.PendingClustering != "" {
				fg.Pending = &pendingJSON{Compaction: g.PendingCompaction, Clustering: g.PendingClustering}
			}
			pj.FileGroups = append(pj.FileGroups, fg)
		}
		for _, g := range p.Replaced {
			pj.Replaced = append(pj.Replaced, g.FileID)
		}
		parts = append(parts, pj)
	}
	return parts
}

func writeFilesJSON(w io.Writer, view *hudi.FileSystemView) error {
	out := struct {
		Source     string          `json:"listingSource"`
		Partitions []partitionJSON `json:"partitions"`
	}{view.Source, filesJSON(view)}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func writeFilesText(w io.Writer, t *hudi.Table, view *hudi.FileSystemView) error {
	fmt.Fprintf(w, "%s · %s · %s\n", t.Config.Name, t.Config.Type, view)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "partition\tfile id\tbase file\tbase bytes\tlogs\tlog bytes\tslices\tpending")
	for _, p := range view.Partitions {
		for _, g := range p.FileGroups {
			s := g.Latest()
			base, size := "-", int64(0)
			if s.Base != nil {
				base, size = s.Base.Name, s.Base.Size
			}
			var logBytes int64
			for _, l := range s.Logs {
				logBytes += l.Size
			}
			pending := ""
			if g.PendingCompaction != "" {
				pending = "compaction@" + g.PendingCompaction
			}
			if g.PendingClustering != "" {
				pending += " clustering@" + g.PendingClustering
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\n", partLabel(p.Path), g.FileID, base, size, len(s.Logs), logBytes, len(g.Slices), dash(pending))
		}
		if len(p.Replaced) > 0 {
			fmt.Fprintf(tw, "%s\t(%d replaced file groups hidden)\t\t\t\t\t\t\n", partLabel(p.Path), len(p.Replaced))
		}
	}
	return tw.Flush()
}

func partLabel(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}
