package findings

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
)

// Verification is a row's verification step as data: the checks two event logs (the run
// before the change and the run after it) can evaluate, or why the step cannot be evaluated
// from an event log. Partly names the part of a step with checks that they do not cover.
type Verification struct {
	Checks       []Check `json:"checks,omitempty"`
	Partly       string  `json:"partly,omitempty"`
	Unverifiable string  `json:"unverifiable,omitempty"`
	// Instant are the checks two instants of the table evaluate (instant.* measures,
	// InstantMeasures), InstantPartly the part of the step they do not cover, and
	// InstantUnverifiable why the table's instants cannot verify the step (for a row without
	// Instant checks; "" reads as "its step reads no measure of the table's commits").
	Instant             []Check `json:"instant,omitempty"`
	InstantPartly       string  `json:"instantPartly,omitempty"`
	InstantUnverifiable string  `json:"instantUnverifiable,omitempty"`
}

// Check is one measurable part of a verification step: the value at Path (an eventlog.* path,
// folded by Agg as a condition's), minus the value at Minus or over the value at Over when
// given, read in both logs; Expect is how it should move:
// up, down, notUp, notDown, zero (falls to zero) or same (stays the same).
type Check struct {
	Path   string `json:"path"`
	Agg    string `json:"agg,omitempty"`
	Minus  string `json:"minus,omitempty"`
	Over   string `json:"over,omitempty"`
	Expect string `json:"expect"`
	// Tolerance is the relative change (of the before value) within which the measure counts
	// as unchanged: run-to-run noise. Nil: DefaultTolerance.
	Tolerance *float64 `json:"tolerance,omitempty"`
	// Guard: the check must not move the wrong way, but its moving is not the claim ("skewRatio
	// does not rise").
	Guard bool `json:"guard,omitempty"`
	// AbsentIsZero: a path with no value (a phase that did not run) reads 0, not unknown.
	AbsentIsZero bool   `json:"absentIsZero,omitempty"`
	Says         string `json:"says"`
}

// DefaultTolerance is the relative change below which a measure counts as unchanged.
const DefaultTolerance = 0.05

// Verification verdicts.
const (
	VerdictMoved   = "moved as predicted"
	VerdictNone    = "no change"
	VerdictWrong   = "moved the wrong way"
	VerdictUnknown = "unknown"
)

// Check outcomes.
const (
	OutcomeMoved   = "moved"
	OutcomeNone    = "unchanged"
	OutcomeWrong   = "wrong way"
	OutcomeUnknown = "unknown"
)

var expects = map[string]bool{"up": true, "down": true, "notUp": true, "notDown": true, "zero": true, "same": true}

// VerifyResult is a row's verification step evaluated on two event logs.
type VerifyResult struct {
	Row   string `json:"row"`
	Title string `json:"title"`
	// Step is the catalog's verification step in words.
	Step    string        `json:"step"`
	Verdict string        `json:"verdict"`
	Why     string        `json:"why"`
	Checks  []CheckResult `json:"checks"`
	// Partly and Unverifiable are the row's Verification notes.
	Partly       string `json:"partly,omitempty"`
	Unverifiable string `json:"unverifiable,omitempty"`
}

// CheckResult is one check on the two logs. Before, After, Delta and Relative are nil when
// unknown (Relative also when Before is 0).
type CheckResult struct {
	Says      string   `json:"says"`
	Measure   string   `json:"measure"`
	Expect    string   `json:"expect"`
	Guard     bool     `json:"guard"`
	Tolerance float64  `json:"tolerance"`
	Before    *float64 `json:"before"`
	After     *float64 `json:"after"`
	Delta     *float64 `json:"delta"`
	Relative  *float64 `json:"relative"`
	Outcome   string   `json:"outcome"`
	// Why says why an outcome is unknown ("" otherwise).
	Why string `json:"why,omitempty"`
}

// Measure is a check's measure in words: the path, with its aggregate and derivation.
func (c Check) Measure() string {
	m := c.Path
	if c.Agg != "" {
		m = c.Agg + "(" + m + ")"
	}
	switch {
	case c.Minus != "":
		m += " - " + c.Minus
	case c.Over != "":
		m += " / " + c.Over
	}
	return m
}

func (c Check) tolerance() float64 {
	if c.Tolerance != nil {
		return *c.Tolerance
	}
	return DefaultTolerance
}

// compileVerification checks a row's verification data and compiles its paths.
func (c *Catalog) compileVerification(r *Row) error {
	v := r.Verification
	if len(v.Checks) == 0 && v.Unverifiable == "" {
		return fmt.Errorf("verification: neither checks nor why it is unverifiable")
	}
	if len(v.Checks) > 0 && v.Unverifiable != "" {
		return fmt.Errorf("verification: checks and unverifiable both given")
	}
	primary := 0
	for i, ck := range v.Checks {
		at := fmt.Sprintf("verification.checks[%d]", i)
		if !expects[ck.Expect] {
			return fmt.Errorf("%s: unknown expect %q", at, ck.Expect)
		}
		if !aggs[ck.Agg] {
			return fmt.Errorf("%s: unknown agg %q", at, ck.Agg)
		}
		if ck.Minus != "" && ck.Over != "" {
			return fmt.Errorf("%s: minus and over both given", at)
		}
		for _, p := range []string{ck.Path, ck.Minus, ck.Over} {
			if p == "" {
				continue
			}
			if InputOf(p) != InputEventLog {
				return fmt.Errorf("%s: %q: a verification reads the two event logs (eventlog.*)", at, p)
			}
			if err := c.compile(p); err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
		}
		if !ck.Guard {
			primary++
		}
	}
	if len(v.Checks) > 0 && primary == 0 {
		return fmt.Errorf("verification: only guards, no check of the claim")
	}
	if len(v.Instant) > 0 && v.InstantUnverifiable != "" {
		return fmt.Errorf("verification: instant checks and instantUnverifiable both given")
	}
	primary = 0
	for i, ck := range v.Instant {
		at := fmt.Sprintf("verification.instant[%d]", i)
		if !expects[ck.Expect] {
			return fmt.Errorf("%s: unknown expect %q", at, ck.Expect)
		}
		if _, ok := InstantMeasures[ck.Path]; !ok || ck.Agg != "" || ck.Minus != "" || ck.Over != "" {
			return fmt.Errorf("%s: %q: an instant check reads one instant.* measure (InstantMeasures), without agg, minus or over", at, ck.Path)
		}
		if !ck.Guard {
			primary++
		}
	}
	if len(v.Instant) > 0 && primary == 0 {
		return fmt.Errorf("verification: instant checks are only guards")
	}
	return nil
}

// Verifiable says whether a row's verification step has checks an event-log pair evaluates.
func (r *Row) Verifiable() bool { return len(r.Verification.Checks) > 0 }

// verifyRow is row id (whatever its case) of catalog cat, the default catalog when nil,
// and that catalog.
func verifyRow(cat *Catalog, id string) (*Catalog, *Row, error) {
	if cat == nil {
		cat = Default()
	}
	row := cat.Row(strings.ToUpper(id))
	if row == nil {
		return nil, nil, fmt.Errorf("no catalog row %q (rows are OBS-001…OBS-030 and CAP-001…CAP-007)", id)
	}
	return cat, row, nil
}

// Verify evaluates row id's verification step on the event log of the run before the change
// and the one after it. A nil log makes every check unknown (never "no change"). The error
// is for a row the catalog does not have.
func Verify(cat *Catalog, id string, before, after *eventlog.Report) (*VerifyResult, error) {
	cat, row, err := verifyRow(cat, id)
	if err != nil {
		return nil, err
	}
	res := &VerifyResult{Row: row.ID, Title: row.Title, Step: row.Verify, Checks: []CheckResult{},
		Partly: row.Verification.Partly, Unverifiable: row.Verification.Unverifiable}
	if !row.Verifiable() {
		res.Verdict = VerdictUnknown
		res.Why = "not verifiable from an event log: " + row.Verification.Unverifiable
		if row.InstantVerifiable() {
			res.Why += " (verify it from two instants of the table: --table T --before INSTANT --after INSTANT)"
		}
		return res, nil
	}
	var docB, docA any
	if before != nil {
		docB = toJSONValue(before)
	}
	if after != nil {
		docA = toJSONValue(after)
	}
	for _, ck := range row.Verification.Checks {
		res.Checks = append(res.Checks, cat.check(ck, docB, docA))
	}
	res.Verdict, res.Why = combine(res.Checks)
	return res, nil
}

// value reads a check's measure in one log's document (nil doc: the log is missing).
func (c *Catalog) value(ck Check, doc any) (float64, string) {
	if doc == nil {
		return 0, "the event log is missing"
	}
	read := func(p string) (float64, string) {
		vals := walk(doc, c.path(p).steps)
		if len(vals) == 0 && ck.AbsentIsZero {
			return 0, ""
		}
		v, ok := aggregate(vals, ck.Agg)
		if !ok {
			return 0, p + " has no value in this log"
		}
		f, ok := num(v)
		if !ok || f < 0 { // -1: not derivable from the log
			return 0, p + " is not derivable from this log"
		}
		return f, ""
	}
	v, why := read(ck.Path)
	if why != "" {
		return 0, why
	}
	switch {
	case ck.Minus != "":
		m, why := read(ck.Minus)
		if why != "" {
			return 0, why
		}
		v -= m
	case ck.Over != "":
		o, why := read(ck.Over)
		if why != "" {
			return 0, why
		}
		if o == 0 {
			return 0, ck.Over + " is 0 in this log"
		}
		v = math.Round(v/o*1000) / 1000
	}
	return v, ""
}

func (c *Catalog) check(ck Check, docB, docA any) CheckResult {
	b, whyB := c.value(ck, docB)
	a, whyA := c.value(ck, docA)
	return judge(ck, b, whyB, a, whyA)
}

// judge is a check's outcome from its measure before (b) and after (a); a non-empty why says
// that side is unknown.
func judge(ck Check, b float64, whyB string, a float64, whyA string) CheckResult {
	r := CheckResult{Says: ck.Says, Measure: ck.Measure(), Expect: ck.Expect, Guard: ck.Guard, Tolerance: ck.tolerance(), Outcome: OutcomeUnknown}
	if whyB != "" {
		r.Why = "before: " + whyB
	}
	if whyA != "" {
		r.Why = strings.TrimPrefix(r.Why+"; after: "+whyA, "; ")
	}
	if whyB == "" {
		r.Before = &b
	}
	if whyA == "" {
		r.After = &a
	}
	if r.Why != "" {
		return r
	}
	d := a - b
	if d == math.Trunc(d) {
		d = math.Trunc(d)
	} else {
		d = math.Round(d*1000) / 1000
	}
	r.Delta = &d
	if b != 0 {
		rel := math.Round(d/b*1000) / 1000
		r.Relative = &rel
	}
	changed := 0 // -1 fell, 0 within tolerance, 1 rose
	if math.Abs(d) > r.Tolerance*math.Abs(b) && d != 0 {
		changed = 1
		if d < 0 {
			changed = -1
		}
	}
	switch ck.Expect {
	case "up":
		r.Outcome = map[int]string{1: OutcomeMoved, 0: OutcomeNone, -1: OutcomeWrong}[changed]
	case "down":
		r.Outcome = map[int]string{-1: OutcomeMoved, 0: OutcomeNone, 1: OutcomeWrong}[changed]
	case "notUp":
		r.Outcome = map[int]string{-1: OutcomeMoved, 0: OutcomeMoved, 1: OutcomeWrong}[changed]
	case "notDown":
		r.Outcome = map[int]string{1: OutcomeMoved, 0: OutcomeMoved, -1: OutcomeWrong}[changed]
	case "same":
		r.Outcome = map[int]string{0: OutcomeMoved, 1: OutcomeWrong, -1: OutcomeWrong}[changed]
	case "zero":
		switch {
		case a == 0 && b > 0:
			r.Outcome = OutcomeMoved
		case a > b:
			r.Outcome = OutcomeWrong
		default: // still above zero, or zero before already: nothing moved to zero
			r.Outcome = OutcomeNone
		}
	}
	return r
}

// combine is the row's verdict from its checks: a claim check that moved the wrong way
// decides; then any unknown claim check makes the verdict unknown (never "no change"); then a
// guard that moved the wrong way; the verdict is "moved as predicted" only when every claim
// check moved, "no change" otherwise.
func combine(cs []CheckResult) (string, string) {
	var wrong, unknown, none, guardWrong []string
	for _, c := range cs {
		switch {
		case c.Outcome == OutcomeWrong && !c.Guard:
			wrong = append(wrong, c.Says)
		case c.Outcome == OutcomeUnknown && !c.Guard:
			unknown = append(unknown, c.Says+" ("+c.Why+")")
		case c.Outcome == OutcomeNone && !c.Guard:
			none = append(none, c.Says)
		case c.Outcome == OutcomeWrong && c.Guard:
			guardWrong = append(guardWrong, c.Says)
		}
	}
	switch {
	case len(wrong) > 0:
		return VerdictWrong, "moved opposite to: " + strings.Join(wrong, "; ")
	case len(unknown) > 0:
		return VerdictUnknown, "cannot be read: " + strings.Join(unknown, "; ")
	case len(guardWrong) > 0:
		return VerdictWrong, "a guard moved the wrong way: " + strings.Join(guardWrong, "; ")
	case len(none) > 0:
		return VerdictNone, "within run-to-run tolerance: " + strings.Join(none, "; ")
	}
	return VerdictMoved, "every check moved as the catalog predicts"
}

// KeyDiff is one configuration key whose value differs between the two event logs' Spark
// Properties (hudiscope.hudi.configs); nil is absent.
type KeyDiff struct {
	Key    string  `json:"key"`
	Before *string `json:"before"`
	After  *string `json:"after"`
}

// Applied is a catalog row whose change was applied between two runs (one of the keys it moves
// differs between the logs' properties), and its verification on them.
type Applied struct {
	Row string `json:"row"`
	// Status is the row's finding status on the run before ("" when no result was given).
	Status string `json:"status"`
	// Fired: the row's finding fired on the run before (a signal held).
	Fired  bool          `json:"fired"`
	Keys   []KeyDiff     `json:"keys"`
	Verify *VerifyResult `json:"verify"`
}

// ChangedKeys are the keys whose value differs between two event logs' recorded properties,
// in key order. Values are compared as recorded (redacted values compare equal).
func ChangedKeys(before, after *eventlog.Report) []KeyDiff {
	if before == nil || after == nil {
		return nil
	}
	b, a := before.Hudiscope.Hudi.Configs, after.Hudiscope.Hudi.Configs
	keys := map[string]bool{}
	for k := range b {
		keys[k] = true
	}
	for k := range a {
		keys[k] = true
	}
	var out []KeyDiff
	for k := range keys {
		vb, inB := b[k]
		va, inA := a[k]
		if inB == inA && vb == va {
			continue
		}
		d := KeyDiff{Key: k}
		if inB {
			d.Before = &vb
		}
		if inA {
			d.After = &va
		}
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// VerifyApplied verifies every row of cat that moves a key the two runs' properties differ in
// (res, the findings on the run before, gives each its status; nil leaves it empty), in
// catalog order.
func VerifyApplied(cat *Catalog, res *Result, before, after *eventlog.Report) []Applied {
	if cat == nil {
		cat = Default()
	}
	diffs := ChangedKeys(before, after)
	var out []Applied
	for _, r := range cat.Rows {
		var keys []KeyDiff
		for _, k := range r.Change.Keys {
			for _, d := range diffs {
				if d.Key == k.Key {
					keys = append(keys, d)
				}
			}
		}
		if len(keys) == 0 {
			continue
		}
		v, err := Verify(cat, r.ID, before, after)
		if err != nil {
			continue
		}
		a := Applied{Row: r.ID, Keys: keys, Verify: v}
		if res != nil {
			if f := res.Find(r.ID); f != nil {
				a.Status, a.Fired = f.Status, f.Fired
			}
		}
		out = append(out, a)
	}
	return out
}
