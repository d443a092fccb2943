package findings

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/ui/common"
)

// Focus selects the finding a jump names by id (closing an open finding); a jump without one
// only shows the pane.
func (p *Findings) Focus(j common.Jump) bool {
	jf, _ := j.(common.JumpFinding)
	if jf.ID == "" {
		return true
	}
	if p.res == nil {
		return false
	}
	for si, li := range p.Sel {
		if f := p.Lines[li].F; f != nil && strings.EqualFold(f.ID, jf.ID) {
			p.Detail, p.Cursor, p.Past = nil, si, 0
			p.Reflow()
			return true
		}
	}
	return false
}

// Click selects the finding on body line y; headings and text lines do nothing.
func (p *Findings) Click(y int) tea.Cmd {
	if p.res == nil || p.Detail != nil || y < 0 {
		return nil
	}
	view := p.ListLines(p.Width)
	if i := p.Top + p.Past + y; i < len(view) && y < p.Height && view[i].Sel >= 0 {
		p.Cursor = view[i].Sel
		p.Top, p.Past = p.Top+p.Past, 0 // the clicked line stays where it is
		p.Reflow()
	}
	return nil
}

// CopyValue is the focused (or open) finding's change as key=value lines, one per key it
// recommends setting to a value; a finding without one copies its id.
func (p *Findings) CopyValue() (string, string, bool) {
	f := p.Detail
	if f == nil {
		f = p.Selected()
	}
	if f == nil {
		return "", "", false
	}
	var kv []string
	for _, k := range f.Keys {
		if k.To != "" && !k.Inert {
			kv = append(kv, k.Key+"="+k.To)
		}
	}
	if len(kv) > 0 {
		return "change", strings.Join(kv, "\n"), true
	}
	return "finding", f.ID, true
}

// ---- evidence links: lines of an open finding that name a stage, instant, partition or check ----

// evTarget is one Markdown line of the open finding that links to another pane.
type evTarget struct {
	md    int // line of report.FindingMarkdown
	j     common.Jump
	label string
}

// evLink is a target's screen lines in the evidence view: [start, end).
type evLink struct {
	start, end int
	J          common.Jump
}

// evidenceKeys are the evidence view's keys: scroll, and move between and follow links.
type evidenceKeys struct {
	common.NavKeys
	Next, Prev, Follow key.Binding
}

func (k evidenceKeys) ShortHelp() []key.Binding {
	return common.Enabled(k.Up, k.Down, k.Next, k.Follow)
}
func (k evidenceKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.All(), {k.Next, k.Prev, k.Follow}}
}
func (k evidenceKeys) HelpTitles() []string { return []string{"Scroll", "Links"} }

func newEvidenceKeys(c *common.Common) evidenceKeys {
	return evidenceKeys{Next: common.Bind("n", "next linked line", "n"), Prev: common.Bind("N", "previous linked line", "N"),
		Follow: common.Bind("enter", "go to the linked stage, instant, partition or check", "enter")}
}

// Open shows f's evidence with its links, the first selected.
func (p *Findings) Open(f *findings.Finding) {
	p.Detail, p.Link = f, 0
	p.Targets = nil
	if f != nil {
		p.Targets = evidenceTargets(p.snap, f)
	}
	p.text.Vp.GotoTop()
}

// EvKeys are the open finding's keys.
func (p *Findings) EvKeys() evidenceKeys {
	k := p.ekm
	k.NavKeys = p.text.Keys(p.c.Keys.Nav).NavKeys
	k.Next = common.When(k.Next, len(p.Links) > 1)
	k.Prev = common.When(k.Prev, len(p.Links) > 1)
	k.Follow = common.When(k.Follow, p.linkShown())
	return k
}

// linkShown: the selected link is on screen.
func (p *Findings) linkShown() bool {
	if p.Link < 0 || p.Link >= len(p.Links) {
		return false
	}
	l, top := p.Links[p.Link], p.text.Vp.YOffset()
	return l.start < top+p.text.Vp.Height() && l.end > top
}

func (p *Findings) updateEvidence(k evidenceKeys, msg tea.Msg) tea.Cmd {
	if km, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(km, k.Next):
			p.selectLink((p.Link + 1) % len(p.Links))
			return nil
		case key.Matches(km, k.Prev):
			p.selectLink((p.Link + len(p.Links) - 1) % len(p.Links))
			return nil
		case key.Matches(km, k.Follow):
			return common.JumpTo(p.Links[p.Link].J)
		}
	}
	if p.text.Handle(k.NavKeys, msg) && !p.linkShown() {
		// Scrolling moves the selection to a link on screen, if there is one.
		top := p.text.Vp.YOffset()
		for i, l := range p.Links {
			if l.start < top+p.text.Vp.Height() && l.end > top {
				p.Link = i
				break
			}
		}
	}
	return nil
}

// selectLink selects link i and scrolls it into view.
func (p *Findings) selectLink(i int) {
	p.Link = i
	l, top, h := p.Links[i], p.text.Vp.YOffset(), p.text.Vp.Height()
	switch {
	case l.start < top:
		p.text.Vp.SetYOffset(l.start)
	case l.end > top+h:
		p.text.Vp.SetYOffset(max(l.start, l.end-h))
	}
}

// linksNote is the evidence view's line saying what links there are.
func (p *Findings) linksNote() string {
	if len(p.Targets) == 0 {
		return "Links: none. This finding's evidence names no stage, instant, partition or health check."
	}
	return "Links: " + common.Itoa(len(p.Targets)) + " lines name a stage, instant, partition or check (n/N select, enter goes there)."
}

var (
	subjectStage = regexp.MustCompile(`^stage (\d+)\b`)
	checkName    = regexp.MustCompile(`checks\[name=([^\]|]+)\]`)
	partSel      = regexp.MustCompile(`\[partition=([^\]|]+)\]`)
)

// evidenceTargets finds the Markdown lines of f that link: the subject ("about: stage 14 …")
// and evidence rows whose path names a stage, instant, partition or health check.
func evidenceTargets(s *model.Snapshot, f *findings.Finding) []evTarget {
	var out []evTarget
	evs := append(append(append([]findings.Evidence(nil), f.Signals...), f.Against...), f.Gates...)
	k := 0
	var stages []any // the event log's stages as JSON, decoded once
	for i, l := range strings.Split(report.FindingMarkdown(f, "#"), "\n") {
		t := strings.TrimSpace(l)
		switch {
		case f.Subject != "" && strings.HasPrefix(TerminalText(t), "- about:"):
			if m := subjectStage.FindStringSubmatch(f.Subject); m != nil && s != nil && s.EventLog != nil {
				n, _ := strconv.Atoi(m[1])
				out = append(out, evTarget{md: i, j: common.JumpStage{ID: n}, label: "stage " + m[1]})
			}
		case strings.HasPrefix(t, "|") && k < len(evs) && strings.Contains(t, report.Escape(evs[k].Path)):
			path := evs[k].Path
			k++
			if strings.HasPrefix(path, "eventlog.stages") && stages == nil {
				stages = EventStages(s)
			}
			if j, label, ok := pathTarget(s, path, stages); ok {
				out = append(out, evTarget{md: i, j: j, label: label})
			}
		}
	}
	return out
}

// pathTarget is the row an evidence path names, if it names one this snapshot has.
func pathTarget(s *model.Snapshot, path string, stages []any) (common.Jump, string, bool) {
	if s == nil {
		return nil, "", false
	}
	switch {
	case strings.HasPrefix(path, "eventlog.stages"):
		if id, ok := PickStage(stages, strings.TrimPrefix(path, "eventlog.stages")); ok {
			return common.JumpStage{ID: id}, "stage " + common.Itoa(id), true
		}
	case strings.HasPrefix(path, "health."):
		if m := checkName.FindStringSubmatch(path); m != nil && s.Health != nil && s.Health.Check(m[1]) != nil {
			return common.JumpCheck{Name: m[1]}, "check " + m[1], true
		}
	case strings.HasPrefix(path, "layout."):
		part := ""
		if m := partSel.FindStringSubmatch(path); m != nil {
			part = m[1]
		} else if strings.HasPrefix(path, "layout.skew.") && s.Layout != nil && s.Layout.NumPartitions > 1 && len(s.Layout.Rows) > 0 {
			part = s.Layout.Rows[0].Partition // the largest, as the Overview names it
		}
		if part != "" {
			return common.JumpPartition{Path: part}, "partition " + common.PartLabel(part), true
		}
	case strings.HasPrefix(path, "table."):
		if in := serviceInstant(s.TimelineInstants(), path); in != nil {
			return common.JumpInstant{Requested: in.RequestedTime}, "instant " + in.RequestedTime, true
		}
	}
	return nil, "", false
}

// serviceInstant is the instant a table.* service fact is about: the oldest savepoint, the
// oldest pending clustering plan, else the latest completed compaction, clustering or clean.
func serviceInstant(ins []*timeline.Instant, path string) *timeline.Instant {
	kind := strings.Split(path, ".")[1]
	var first, last, pending *timeline.Instant
	for _, in := range ins {
		var ok bool
		switch kind {
		case "savepoints":
			ok = in.IsSavepoint()
		case "compactions":
			ok = in.IsCompaction("")
		case "clustering":
			ok = in.IsClustering()
		case "cleans":
			ok = in.IsClean()
		default:
			return nil
		}
		if !ok || in.Archived {
			continue
		}
		if !in.IsCompleted() {
			if pending == nil {
				pending = in
			}
			continue
		}
		if first == nil {
			first = in
		}
		last = in
	}
	switch {
	case kind == "savepoints":
		return first
	case kind == "clustering" && pending != nil:
		return pending
	case last != nil:
		return last
	}
	return pending
}

// EventStages are the event log report's stages as its JSON has them (what paths read).
func EventStages(s *model.Snapshot) []any {
	if s == nil || s.EventLog == nil {
		return []any{}
	}
	b, err := json.Marshal(s.EventLog)
	var doc struct {
		Stages []any `json:"stages"`
	}
	if err != nil || json.Unmarshal(b, &doc) != nil || doc.Stages == nil {
		return []any{}
	}
	return doc.Stages
}

// PickStage is the stage a path below eventlog.stages names: of the stages its selector
// keeps, the one with the largest value at its field (the first when none is a number).
func PickStage(stages []any, rest string) (int, bool) {
	var field string
	var values []string
	if strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return 0, false
		}
		f, v, _ := strings.Cut(rest[1:end], "=")
		field, values, rest = f, strings.Split(v, "|"), rest[end+1:]
	}
	leaf := strings.Split(strings.TrimPrefix(rest, "."), ".")
	best, bestV, found := 0, 0.0, false
	for _, st := range stages {
		m, ok := st.(map[string]any)
		if !ok {
			continue
		}
		id, ok := m["stageId"].(float64)
		if !ok {
			continue
		}
		if field != "" {
			v, _ := m[field].(string)
			keep := false
			for _, w := range values {
				keep = keep || v == w
			}
			if !keep {
				continue
			}
		}
		var cur any = m
		for _, k := range leaf {
			if mm, ok := cur.(map[string]any); ok {
				cur = mm[k]
			} else {
				cur = nil
			}
		}
		n, isNum := cur.(float64)
		if !found || (isNum && n > bestV) {
			best, found = int(id), true
			if isNum {
				bestV = n
			}
		}
	}
	return best, found
}
