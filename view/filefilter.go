package view

import (
	"fmt"
	"path"
	"strings"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
)

// FileFilter selects the file groups of a files listing: the partitions whose path matches
// Partition, and no more than Limit file groups in listing order (partition path, then
// file id). The zero value keeps everything.
type FileFilter struct {
	// Partition is a partition path (dt=2024-01-01) or a glob (dt=2024-*, */hour=00) matched
	// with path.Match against the whole path or its leading segments: dt=2024-* keeps
	// dt=2024-01-01/hour=00 too. "" keeps every partition.
	Partition string
	// Limit is the most file groups listed; 0: all.
	Limit int
}

// ParseFileFilter checks the pattern and limit.
func ParseFileFilter(partition string, limit int) (FileFilter, error) {
	f := FileFilter{Partition: strings.Trim(strings.TrimSpace(partition), "/"), Limit: limit}
	if limit < 0 {
		return f, fmt.Errorf("--limit must be 0 or more (got %d)", limit)
	}
	if _, err := path.Match(f.Partition, ""); err != nil {
		return f, fmt.Errorf("--partition %q: %w", partition, err)
	}
	return f, nil
}

// Active reports whether the filter drops anything.
func (f FileFilter) Active() bool { return f.Partition != "" || f.Limit > 0 }

// MatchPartition reports whether partition path p is selected.
func (f FileFilter) MatchPartition(p string) bool {
	if f.Partition == "" {
		return true
	}
	for i := 0; i <= len(p); i++ {
		if i == len(p) || p[i] == '/' {
			if ok, _ := path.Match(f.Partition, p[:i]); ok {
				return true
			}
		}
	}
	return false
}

// FileSelector applies a FileFilter to partitions as they are listed, one after another.
type FileSelector struct {
	f    FileFilter
	seen int // file groups kept so far
}

// Selector starts a selection.
func (f FileFilter) Selector() *FileSelector { return &FileSelector{f: f} }

// Select returns p as the listing shows it: nil when the partition is not selected or the
// limit is reached, else p or a copy cut to the file groups the limit still allows.
func (s *FileSelector) Select(p *filegroup.Partition) *filegroup.Partition {
	if s.Done() || !s.f.MatchPartition(p.Path) {
		return nil
	}
	if s.f.Limit > 0 && s.seen+len(p.FileGroups) > s.f.Limit {
		cut := *p
		cut.FileGroups = p.FileGroups[:s.f.Limit-s.seen]
		p = &cut
	}
	s.seen += len(p.FileGroups)
	return p
}

// Done reports whether the limit is reached: no later partition can be listed.
func (s *FileSelector) Done() bool { return s.f.Limit > 0 && s.seen >= s.f.Limit }

// FilterView is v with only what f selects (v itself when f keeps everything).
func FilterView(v *filegroup.View, f FileFilter) *filegroup.View {
	if !f.Active() {
		return v
	}
	out := &filegroup.View{Source: v.Source}
	sel := f.Selector()
	for _, p := range v.Partitions {
		if q := sel.Select(p); q != nil {
			out.Partitions = append(out.Partitions, q)
		}
	}
	return out
}
