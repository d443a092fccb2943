package view

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
)

// FilterActions are the words --action accepts. A plan action (compaction, logcompaction,
// clustering) also matches the write it completed as, by the timeline's own predicates: a
// 0.x compaction completes as a commit, a clustering as a replacecommit.
var FilterActions = []string{timeline.ActionCommit, timeline.ActionDeltaCommit, timeline.ActionClean,
	timeline.ActionCompaction, timeline.ActionReplaceCommit, timeline.ActionClustering, timeline.ActionRollback,
	timeline.ActionRestore, timeline.ActionSavepoint, timeline.ActionIndexing, timeline.ActionLogCompaction}

// FilterStates are the words --state accepts.
var FilterStates = []string{"requested", "inflight", "completed"}

// The orders --sort accepts: the table's own (completion order for table version ≥ 8,
// requested order before), or either one explicitly.
const (
	SortTable      = "table"
	SortCompletion = "completion"
	SortRequested  = "requested"
)

// FilterSorts are the words --sort accepts.
var FilterSorts = []string{SortTable, SortCompletion, SortRequested}

// InstantFilter selects and orders instants for a listing. The zero value keeps every
// instant in the table's order. Build one with ParseInstantFilter (which checks the words);
// FilterInstants applies it.
type InstantFilter struct {
	// Limit keeps the newest Limit instants of the order (after the other filters); 0: all.
	Limit int
	// Since and Until bound the requested (instant) time, both inclusive: an instant time or a
	// prefix of one (20261201, 2026120109), an RFC 3339 time, or a duration before now (7d,
	// 36h, 90m, 2w). Kept as given; FilterInstants resolves them against the clock.
	Since, Until string
	// Actions keep instants of these actions (FilterActions); none: every action.
	Actions []string
	// States keep instants in these states; none: every state.
	States []timeline.State
	// Sort is the order (SortTable, SortCompletion, SortRequested); "" is SortTable.
	Sort string
	// Reverse lists newest first.
	Reverse bool
}

// Active reports whether the filter selects or reorders anything.
func (f InstantFilter) Active() bool {
	return f.Limit > 0 || f.Since != "" || f.Until != "" || len(f.Actions) > 0 || len(f.States) > 0 ||
		(f.Sort != "" && f.Sort != SortTable) || f.Reverse
}

// ParseInstantFilter checks the filter's words (as the command line gives them: actions and
// states may be comma lists) and returns the filter; a bad word is an error naming the flag.
func ParseInstantFilter(limit int, since, until string, actions, states []string, sort string, reverse bool) (InstantFilter, error) {
	f := InstantFilter{Limit: limit, Since: strings.TrimSpace(since), Until: strings.TrimSpace(until), Sort: sort, Reverse: reverse}
	if limit < 0 {
		return f, fmt.Errorf("--limit must be 0 or more (got %d)", limit)
	}
	for _, b := range []struct{ flag, v string }{{"--since", f.Since}, {"--until", f.Until}} {
		if b.v == "" {
			continue
		}
		// Any clock checks the syntax; FilterInstants resolves with the real one.
		if _, err := resolveBound(b.v, time.Unix(0, 0), time.UTC); err != nil {
			return f, fmt.Errorf("%s: %w", b.flag, err)
		}
	}
	for _, a := range splitWords(actions) {
		if !slices.Contains(FilterActions, a) {
			return f, fmt.Errorf("--action: unknown action %q (one of %s)", a, strings.Join(FilterActions, ", "))
		}
		if !slices.Contains(f.Actions, a) {
			f.Actions = append(f.Actions, a)
		}
	}
	for _, s := range splitWords(states) {
		if !slices.Contains(FilterStates, s) {
			return f, fmt.Errorf("--state: unknown state %q (one of %s)", s, strings.Join(FilterStates, ", "))
		}
		st := timeline.State(strings.ToUpper(s))
		if !slices.Contains(f.States, st) {
			f.States = append(f.States, st)
		}
	}
	if f.Sort != "" && !slices.Contains(FilterSorts, f.Sort) {
		return f, fmt.Errorf("--sort must be one of %s (got %s)", strings.Join(FilterSorts, ", "), f.Sort)
	}
	return f, nil
}

// splitWords splits comma lists, lower-cases and drops empty words.
func splitWords(in []string) []string {
	var out []string
	for _, w := range in {
		for _, p := range strings.Split(w, ",") {
			if p = strings.ToLower(strings.TrimSpace(p)); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// resolveBound turns a --since/--until value into an instant-time prefix to compare with:
// digits are taken as they are, a time or a duration before now becomes the 17-digit instant
// time in the table's zone.
func resolveBound(v string, now time.Time, zone *time.Location) (string, error) {
	if v == "" {
		return "", nil
	}
	if isDigits(v) {
		if len(v) < 4 || len(v) > 17 {
			return "", fmt.Errorf("%q: an instant time has 4 to 17 digits (yyyyMMddHHmmssSSS or a prefix)", v)
		}
		return v, nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return timeline.FormatInstantTime(t, zone), nil
	}
	d, err := parseAge(v)
	if err != nil {
		return "", fmt.Errorf("%q is neither an instant time (20261201093000), an RFC 3339 time nor a duration (7d, 36h, 90m)", v)
	}
	return timeline.FormatInstantTime(now.Add(-d), zone), nil
}

// parseAge is a Go duration with days (d) and weeks (w) besides: 7d, 2w, 1d12h, 36h, 90m.
func parseAge(v string) (time.Duration, error) {
	var total time.Duration
	rest := v
	for rest != "" {
		i := 0
		for i < len(rest) && (rest[i] >= '0' && rest[i] <= '9') {
			i++
		}
		if i == 0 || i == len(rest) {
			break
		}
		unit := map[byte]time.Duration{'d': 24 * time.Hour, 'w': 7 * 24 * time.Hour}[rest[i]]
		if unit == 0 {
			break
		}
		n, err := strconv.Atoi(rest[:i])
		if err != nil || n > 100000 {
			return 0, fmt.Errorf("bad duration %q", v)
		}
		total += time.Duration(n) * unit
		rest = rest[i+1:]
	}
	if rest != "" {
		d, err := time.ParseDuration(rest)
		if err != nil {
			return 0, err
		}
		total += d
	}
	if total < 0 {
		return 0, fmt.Errorf("negative duration %q", v)
	}
	return total, nil
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// FilterTable is what a filter needs of the table: the clock durations count back from, the
// zone instant times are written in, the table type (a MERGE_ON_READ commit is a compaction)
// and the table's own order.
type FilterTable struct {
	Now         time.Time
	Zone        *time.Location
	TableType   string
	ByRequested bool
}

// FilterTableOf is the snapshot's: its clock (model.Options.Now), zone, type and order.
func FilterTableOf(s *model.Snapshot) FilterTable {
	t := FilterTable{Now: s.Now()}
	if s.Config != nil {
		t.Zone, t.TableType = s.Config.Zone, s.Config.Type
	}
	if s.Timeline != nil {
		t.ByRequested = s.Timeline.ByRequested
	}
	return t
}

// Filtered is a filter's result: the instants kept, in the order asked, and what was applied.
type Filtered struct {
	Instants []*timeline.Instant
	// Total is how many instants there were before filtering.
	Total int
	// SinceInstant and UntilInstant are the resolved bounds ("" when not given): the instant
	// time (or prefix) the requested times were compared with.
	SinceInstant, UntilInstant string
	// Sort is the order applied: SortCompletion or SortRequested (the table's, when the
	// filter said SortTable).
	Sort string
}

// FilterInstants applies f to instants (in the table's order, as the timeline lists them).
// The input is not modified. Bounds compare the requested time's first digits with the
// bound's; Limit keeps the newest of the order; Reverse then lists newest first.
func FilterInstants(instants []*timeline.Instant, f InstantFilter, t FilterTable) (Filtered, error) {
	res := Filtered{Total: len(instants)}
	var err error
	if res.SinceInstant, err = resolveBound(f.Since, t.Now, t.Zone); err != nil {
		return res, fmt.Errorf("--since: %w", err)
	}
	if res.UntilInstant, err = resolveBound(f.Until, t.Now, t.Zone); err != nil {
		return res, fmt.Errorf("--until: %w", err)
	}
	out := make([]*timeline.Instant, 0, len(instants))
	for _, in := range instants {
		if res.SinceInstant != "" && comparePrefix(in.RequestedTime, res.SinceInstant) < 0 {
			continue
		}
		if res.UntilInstant != "" && comparePrefix(in.RequestedTime, res.UntilInstant) > 0 {
			continue
		}
		if len(f.States) > 0 && !slices.Contains(f.States, in.State) {
			continue
		}
		if len(f.Actions) > 0 && !slices.ContainsFunc(f.Actions, func(a string) bool { return actionMatches(in, a, t.TableType) }) {
			continue
		}
		out = append(out, in)
	}
	res.Sort = f.Sort
	if res.Sort == "" || res.Sort == SortTable {
		res.Sort = SortCompletion
		if t.ByRequested {
			res.Sort = SortRequested
		}
	}
	switch {
	case res.Sort == SortCompletion && t.ByRequested:
		timeline.SortByCompletion(out)
	case res.Sort == SortRequested && !t.ByRequested:
		timeline.SortByRequested(out)
	}
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[len(out)-f.Limit:]
	}
	if f.Reverse {
		slices.Reverse(out)
	}
	res.Instants = out
	return res, nil
}

// comparePrefix compares an instant time with a bound over the bound's length (a shorter
// instant time is padded with zeros): 20261201 bounds the whole day from either side.
func comparePrefix(instant, bound string) int {
	if len(instant) >= len(bound) {
		return strings.Compare(instant[:len(bound)], bound)
	}
	return strings.Compare(instant+strings.Repeat("0", len(bound)-len(instant)), bound)
}

// actionMatches: the instant's action is a, or a is a planned service the instant is (a
// compaction that completed as a commit, a clustering replacecommit).
func actionMatches(in *timeline.Instant, a, tableType string) bool {
	switch a {
	case timeline.ActionCompaction:
		return in.IsCompaction(tableType)
	case timeline.ActionLogCompaction:
		return in.IsLogCompaction()
	case timeline.ActionClustering:
		return in.IsClustering()
	}
	return in.Action == a
}
