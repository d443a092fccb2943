package common

import (
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
)

// FindInstant is the snapshot's instant with requested time rt, or nil.
func FindInstant(s *model.Snapshot, rt string) *timeline.Instant {
	if s == nil || s.Timeline == nil || rt == "" {
		return nil
	}
	for _, in := range s.TimelineInstants() {
		if in.RequestedTime == rt {
			return in
		}
	}
	return nil
}
