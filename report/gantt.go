package report

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/model"
)

// GanttLimit bounds the Mermaid chart: the most recently requested instants.
const GanttLimit = 50

// TimelineGantt renders instants as a Mermaid gantt block (GitHub draws it): one bar per
// instant from requested to completed, a section per kind of action, pending instants
// active up to the latest time shown, late completions marked crit. Only the last limit
// instants by requested time are drawn, and the text says so.
func TimelineGantt(instants []*timeline.Instant, limit int) string {
	var ins []*timeline.Instant
	for _, in := range instants {
		if !in.Started.IsZero() {
			ins = append(ins, in)
		}
	}
	if len(ins) == 0 {
		return ""
	}
	late := model.LateCompletions(instants)
	isLate := map[*timeline.Instant]bool{}
	for i, in := range instants {
		if late[i] {
			isLate[in] = true
		}
	}
	sort.SliceStable(ins, func(a, b int) bool { return ins[a].Started.Before(ins[b].Started) })
	total := len(ins)
	if limit > 0 && len(ins) > limit {
		ins = ins[len(ins)-limit:]
	}
	var latest time.Time
	for _, in := range ins {
		for _, t := range []time.Time{in.Started, in.Ended} {
			if t.After(latest) {
				latest = t
			}
		}
	}
	var b strings.Builder
	if len(ins) < total {
		fmt.Fprintf(&b, "Gantt chart of the last %d of %d instants by requested time", len(ins), total)
	} else {
		fmt.Fprintf(&b, "Gantt chart of all %d instants", total)
	}
	b.WriteString(" (bars from requested to completed; pending instants are drawn active up to the latest time shown, " +
		"instants that completed after a later-started one as critical).\n\n")
	b.WriteString("```mermaid\ngantt\n    dateFormat x\n")
	axis := "%H:%M:%S"
	if latest.Sub(ins[0].Started) > 24*time.Hour {
		axis = "%m-%d %H:%M"
	}
	fmt.Fprintf(&b, "    axisFormat %s\n", axis)
	sections := map[string][]int{}
	var order []string
	for i, in := range ins {
		k := ganttSection(in)
		if _, ok := sections[k]; !ok {
			order = append(order, k)
		}
		sections[k] = append(sections[k], i)
	}
	for _, k := range order {
		fmt.Fprintf(&b, "    section %s\n", k)
		for _, i := range sections[k] {
			in := ins[i]
			var tags []string
			end := in.Ended
			if end.IsZero() {
				end = latest
				if !in.IsCompleted() {
					tags = append(tags, "active")
				}
			} else {
				tags = append(tags, "done")
			}
			if isLate[in] {
				tags = append(tags, "crit")
			}
			s, e := in.Started.UnixMilli(), end.UnixMilli()
			e = max(e, s+1)
			name := in.RequestedTime + " " + in.Action
			if in.Operation != "" {
				name += " " + in.Operation
			}
			fmt.Fprintf(&b, "    %s :%s, i%d, %d, %d\n", mermaidText(name), strings.Join(tags, ", "), i, s, e)
		}
	}
	b.WriteString("```\n")
	return b.String()
}

func ganttSection(in *timeline.Instant) string {
	switch {
	// A replacecommit that is not clustering (insert_overwrite, delete_partition) is a write,
	// in a section of its own.
	case in.IsClustering():
		return "clustering"
	case in.IsCompaction("") || in.IsLogCompaction():
		return "compaction"
	}
	return mermaidText(in.Action)
}

// mermaidText drops the characters Mermaid's gantt syntax reserves.
func mermaidText(s string) string {
	return strings.NewReplacer(":", " ", "#", " ", ";", " ", "\n", " ").Replace(safetext.Terminal(s))
}
