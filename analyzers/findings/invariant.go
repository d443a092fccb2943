package findings

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Violation is a report invariant a finding broke. Evaluate withholds the findings named
// (status "withheld"): a report never shows them as advice, and says why.
type Violation struct {
	Rule     string   `json:"rule"` // direction, do-nothing, release, corroboration
	Findings []string `json:"findings"`
	Key      string   `json:"key,omitempty"`
	Says     string   `json:"says"`
}

// Invariant rules.
const (
	RuleDirection     = "direction"     // one key, two directions
	RuleDoNothing     = "do-nothing"    // a change beside "change nothing" for the same lever
	RuleRelease       = "release"       // a recommended key the table's release does not have
	RuleCorroboration = "corroboration" // an observation without two falsifiable inputs
	RuleContradiction = "contradiction" // an agreeing input one of whose own signals fails
	RuleForeign       = "foreign"       // an input that describes another table
	RuleSubject       = "subject"       // a subject stage no recommended key governs
	RuleBound         = "bound"         // a key moved past a bound it already sits at
)

// advising: the finding prints its keys as a change (or a change if confirmed).
func advising(f *Finding) bool {
	switch f.Status {
	case StatusObservation, StatusCandidate, StatusHypothesis:
		return f.Risk != RiskDurable && !doNothingReading(f)
	}
	return false
}

// doNothingReading: the finding tells the user to leave its levers alone.
func doNothingReading(f *Finding) bool {
	return f.Status == StatusDoNothing || (f.Status == StatusHypothesis && len(f.Levers) > 0 && strings.Contains(f.Why, "change nothing"))
}

var opposite = map[string]string{"up": "down", "down": "up", "on": "off", "off": "on"}

func conflicts(a, b KeyAdvice) bool {
	if opposite[a.Direction] == b.Direction {
		return true
	}
	return a.Direction == "set" && b.Direction == "set" && a.To != "" && b.To != "" && !strings.EqualFold(a.To, b.To)
}

// CheckInvariants checks what every report must hold: no key in two directions, no change
// beside a do-nothing reading of the same lever, every recommended key defined by the release
// that writes the table, every observation corroborated by two inputs whose signals could
// have been false, no active row whose agreeing input's own signal fails, no input from
// another table, every subject stage governed by a key the row recommends, and no
// recommendation of a value already at its bound.
func CheckInvariants(r *Result) []Violation {
	out := []Violation{}
	excluded := map[string]string{}
	for _, x := range r.Excluded {
		excluded[x.Input] = x.Says
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		for _, in := range f.Agreed {
			if why, ok := excluded[in]; ok {
				out = append(out, Violation{Rule: RuleForeign, Findings: []string{f.ID},
					Says: fmt.Sprintf("%s counts the %s input as agreeing, but %s", f.ID, in, why)})
			}
		}
		if f.Status != StatusObservation && f.Status != StatusCandidate && f.Status != StatusDoNothing {
			continue
		}
		for _, ev := range f.Signals {
			if ev.Contradicts && ev.Known && !ev.Holds && contains(f.Agreed, ev.Input) {
				out = append(out, Violation{Rule: RuleContradiction, Findings: []string{f.ID},
					Says: fmt.Sprintf("%s counts %s as agreeing while its own signal %q does not hold (%s = %s)", f.ID, ev.Input, ev.Says, ev.Path, orAbsent(ev.Value))})
			}
		}
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		if !advising(f) {
			continue
		}
		if v, ok := subjectViolation(f); ok {
			out = append(out, v)
		}
		for _, k := range f.Keys {
			if !k.Inert && atBound(k) {
				out = append(out, Violation{Rule: RuleBound, Findings: []string{f.ID}, Key: k.Key,
					Says: fmt.Sprintf("%s recommends %s %s, which is already %s", f.ID, k.Key, k.Direction, k.Current)})
			}
		}
	}
	type use struct {
		f *Finding
		k KeyAdvice
	}
	byKey := map[string][]use{}
	for i := range r.Findings {
		f := &r.Findings[i]
		if !advising(f) {
			continue
		}
		for _, k := range f.Keys {
			if k.Inert {
				continue
			}
			byKey[k.Key] = append(byKey[k.Key], use{f, k})
			if !k.Exists {
				out = append(out, Violation{Rule: RuleRelease, Findings: []string{f.ID}, Key: k.Key,
					Says: fmt.Sprintf("%s recommends %s, which %s does not define", f.ID, k.Key, r.Release.Words())})
			}
		}
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		us := byKey[k]
		for i := range us {
			for j := i + 1; j < len(us); j++ {
				if us[i].f.ID != us[j].f.ID && conflicts(us[i].k, us[j].k) {
					out = append(out, Violation{Rule: RuleDirection, Findings: []string{us[i].f.ID, us[j].f.ID}, Key: k,
						Says: fmt.Sprintf("%s says %s %s and %s says %s %s", us[i].f.ID, k, us[i].k.Direction, us[j].f.ID, k, us[j].k.Direction)})
				}
			}
		}
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		if !doNothingReading(f) {
			continue
		}
		for _, lever := range f.Levers {
			for _, u := range byKey[lever] {
				out = append(out, Violation{Rule: RuleDoNothing, Findings: []string{u.f.ID}, Key: lever,
					Says: fmt.Sprintf("%s says %s %s while %s says to change nothing about it", u.f.ID, lever, u.k.Direction, f.ID)})
			}
		}
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		if f.Status != StatusObservation && f.Status != StatusCandidate && f.Status != StatusDoNothing {
			continue
		}
		got := map[string]bool{}
		for _, ev := range f.Signals {
			if ev.Known && ev.Holds && !tautology(ev) {
				for _, in := range ev.Agrees {
					got[in] = true
				}
			}
		}
		if len(got) < 2 {
			out = append(out, Violation{Rule: RuleCorroboration, Findings: []string{f.ID},
				Says: fmt.Sprintf("%s is reported as %s with fewer than two inputs whose signals could have been false", f.ID, f.Status)})
		}
	}
	return out
}

// subjectViolation: the finding's subject is a stage whose phase no live key governs (the
// keys that declare what they govern; a row without such keys is not checked).
func subjectViolation(f *Finding) (Violation, bool) {
	if f.Subject == "" {
		return Violation{}, false
	}
	ph := subjectPhase(f.Subject)
	declared := false
	for _, k := range f.Keys {
		if k.Inert || len(k.Governs) == 0 {
			continue
		}
		declared = true
		if contains(k.Governs, ph) {
			return Violation{}, false
		}
	}
	if !declared {
		return Violation{}, false
	}
	return Violation{Rule: RuleSubject, Findings: []string{f.ID},
		Says: fmt.Sprintf("%s is about %s, a stage none of the keys it recommends governs", f.ID, f.Subject)}, true
}

// subjectPhase reads the phase of a stage name ("stage 14 (DATA_TABLE_WRITE/write)").
func subjectPhase(s string) string {
	_, p, ok := strings.Cut(s, "(")
	if !ok {
		return ""
	}
	p = strings.TrimSuffix(p, ")")
	p, _, _ = strings.Cut(p, "/")
	return p
}

// atBound: the key already sits where the recommendation would move it — at its floor for
// down (or set), at its ceiling for up, already on for on, already off for off.
func atBound(k KeyAdvice) bool {
	cur := strings.TrimSpace(k.Current)
	switch k.Direction {
	case "on":
		return strings.EqualFold(cur, "true")
	case "off":
		return strings.EqualFold(cur, "false")
	}
	v, err := strconv.ParseFloat(cur, 64)
	if err != nil {
		return false
	}
	switch k.Direction {
	case "down", "set":
		return k.Floor != nil && v <= *k.Floor
	case "up":
		return k.Ceiling != nil && v >= *k.Ceiling
	}
	return false
}

// tautology: a condition that holds whatever the input says.
func tautology(ev Evidence) bool {
	return (ev.Op == "exists" || ev.Op == "missing") && (ev.Input == InputProps || strings.HasPrefix(ev.Value, "count "))
}

// withhold drops every finding a violation names: it is reported as withheld, with the reason.
func withhold(r *Result) {
	for _, v := range r.Violations {
		for _, id := range v.Findings {
			if f := r.Find(id); f != nil && f.Status != StatusWithheld {
				f.Status = StatusWithheld
				f.Why = "Withheld: " + v.Says + ". A report never carries that, so this finding is not advice."
			} else if f != nil {
				f.Why += " Also: " + v.Says + "."
			}
		}
	}
}

// Withheld are the findings a report invariant dropped.
func (r *Result) Withheld() []*Finding {
	var out []*Finding
	for i := range r.Findings {
		if r.Findings[i].Status == StatusWithheld {
			out = append(out, &r.Findings[i])
		}
	}
	return out
}
