// Package findings evaluates the optimization catalogs (observation rows OBS-001…030 and
// capability rows CAP-001…007) against a table snapshot. The rows are data
// (assets/findings_catalog.json); this package only knows how to read a field path, test a
// condition, count which inputs agreed, and apply the corroboration, gating, counter-signal
// and durable-refusal rules. Evaluate is a pure function: it does no I/O.
package findings

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/hudiscope/hudiscope/assets"
)

// The three inputs.
const (
	InputProps    = "props"
	InputEventLog = "eventlog"
	InputTable    = "table"
)

// Row kinds.
const (
	KindObservation = "observation"
	KindCapability  = "capability"
)

// Risk tiers.
const (
	RiskSafe        = "safe"
	RiskOperational = "operational"
	RiskDurable     = "durable"
)

// Row outcomes (what a row says when it fires).
const (
	OutcomeRecommend = "recommend"
	OutcomeDoNothing = "do-nothing"
	OutcomeRefuse    = "refuse"
)

// Cond is one measurable condition: the value(s) at Path, aggregated by Agg, compared by Op
// with Value or with the value at Ref times Factor.
//
// Paths start with the input they read: props.<hoodie key> (the effective writer
// configuration), eventlog.<HoodieSparkEventLogAnalyzer JSON path>, layout.<layout JSON path>,
// health.<health JSON path> and table.<derived table fact> (a TableFacts field, by its JSON
// name). A path step may select array elements, [field=value] or [field=a|b], or name a key
// holding dots, ["a.b"]. Arrays without a selector fan out: the path yields every element's
// value. Every path is checked against its input's Go type when the catalog loads (Parse).
//
// Agg folds several values: first (default), max, min, sum, mean, count, any, all (any/all
// test each value). Ops: lt le gt ge eq ne in nin approx (|a-b| <= Factor·b) exists missing
// contains set unset (props: supplied by the operator or not).
type Cond struct {
	Path   string  `json:"path"`
	Agg    string  `json:"agg,omitempty"`
	Op     string  `json:"op"`
	Value  any     `json:"value,omitempty"`
	Ref    string  `json:"ref,omitempty"`
	Factor float64 `json:"factor,omitempty"`
	// Optional signals corroborate but are not required for the row to fire.
	Optional bool `json:"optional,omitempty"`
	// Contradicts marks a signal whose failure contradicts the row's premise (not merely fails
	// to corroborate it): known not to hold, its input counts against the row.
	Contradicts bool `json:"contradicts,omitempty"`
	// AnyOf makes the condition hold when every condition of one group holds (Path and Op
	// are then unused): a row whose signal has several forms (per index type, per strategy).
	AnyOf [][]Cond `json:"anyOf,omitempty"`
	// Credits are further inputs a holding condition counts as agreeing (a derived fact that
	// compares one input's measurement with another's).
	Credits []string `json:"credits,omitempty"`
	// Only limits where the condition applies: where one of these is known not to hold, the
	// condition does not apply and is known not to hold ("compaction behind" on a
	// Copy-on-Write table); where one is unknown, so is the condition.
	Only []Cond `json:"only,omitempty"`
	// Judged are what makes the value a measurement: where one of them does not hold (a
	// detector that qualified no partition reports 0 flagged), the condition is unknown —
	// neither agreement nor contradiction.
	Judged []Cond `json:"judged,omitempty"`
	// Says is the condition in words ("p50 base file under a third of the target size").
	Says string `json:"says"`
}

// KeyChange is one config key a row moves, and which way.
type KeyChange struct {
	Key       string `json:"key"`
	Direction string `json:"direction"` // up, down, on, off, set, explicit, unset
	To        string `json:"to,omitempty"`
	Note      string `json:"note,omitempty"`
	// When gates the key: it is named only when every condition holds; otherwise it would be
	// inert on this table and is listed as such, never recommended.
	When []Cond `json:"when,omitempty"`
	// InertSays explains why the key is inert when When fails.
	InertSays string `json:"inertSays,omitempty"`
	// Floor and Ceiling are the key's bounds: a key moved down (or set) already at its floor,
	// or up already at its ceiling, is a recommendation of nothing (an invariant).
	Floor   *float64 `json:"floor,omitempty"`
	Ceiling *float64 `json:"ceiling,omitempty"`
	// Governs are the event-log phases the key governs: a finding's subject stage must be in
	// one of them for the key to be advice about it (an invariant).
	Governs []string `json:"governs,omitempty"`
}

// Row is one catalog row.
type Row struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Theme string `json:"theme"`
	Title string `json:"title"`
	Costs string `json:"costs"`
	// Signals argue for the row; every non-optional one must hold where its input is present.
	Signals []Cond `json:"signals"`
	// Against are counter-signals: any one holding stops an observation, and makes a
	// capability row say "don't".
	Against []Cond `json:"against,omitempty"`
	// Gates are preconditions (capability) or the conditions under which the row's lever is
	// live (observation). A gate that is known and false stops the row.
	Gates []Cond `json:"gates,omitempty"`
	// Corroborate are the inputs that must agree; at least two must always agree.
	Corroborate []string `json:"corroborate"`
	// Settle says, per input, what that input would settle when it is missing.
	Settle map[string]string `json:"settle,omitempty"`
	Change struct {
		Text string      `json:"text"`
		Keys []KeyChange `json:"keys,omitempty"`
	} `json:"change"`
	Risk    string `json:"risk"`
	Outcome string `json:"outcome,omitempty"` // default recommend
	// Levers are the keys a do-nothing reading tells the user to leave alone: no other row may
	// recommend moving them in the same report.
	Levers []string `json:"levers,omitempty"`
	// Subject names what the finding is about (a run.* path naming a stage).
	Subject string `json:"subject,omitempty"`
	// MaxStatus caps the status: "hypothesis" when the catalog's decisive evidence is one no
	// input carries (query evidence); CapSays says so.
	MaxStatus string `json:"maxStatus,omitempty"`
	CapSays   string `json:"capSays,omitempty"`
	// DoNothingWhen turns a firing row into "do nothing" (the benign reading).
	DoNothingWhen []Cond `json:"doNothingWhen,omitempty"`
	DoNothingText string `json:"doNothingText,omitempty"`
	// Payoff in words; PayoffPath (a share, 0..1) orders observations, else PayoffRank.
	Payoff     string  `json:"payoff"`
	PayoffPath string  `json:"payoffPath,omitempty"`
	PayoffRank float64 `json:"payoffRank,omitempty"`
	Verify     string  `json:"verify"`
	// Verification is Verify as data: the checks a pair of event logs evaluates (Verify),
	// or why the step cannot be evaluated from an event log.
	Verification Verification `json:"verification"`
	// Caveats are event-log caveat tags carried into the finding's text (see caveatTags).
	Caveats []string `json:"caveats,omitempty"`
	// Notes are always printed with the finding (the row's own warnings).
	Notes []string `json:"notes,omitempty"`
	// Estimate names a computed estimate attached to the finding ("record-index-file-groups").
	Estimate string `json:"estimate,omitempty"`
	// Handoff is the refusal text of a durable row.
	Handoff string `json:"handoff,omitempty"`
	// Fidelity is how the row follows the catalog's text: docs/findings-fidelity.md is
	// generated from it (TestFidelityDoc), and every deviation is printed with the finding.
	Fidelity Fidelity `json:"fidelity"`
}

// Fidelity is a row's catalog text in brief and where hudiscope departs from it.
type Fidelity struct {
	Catalog    string      `json:"catalog"`
	Deviations []Deviation `json:"deviations,omitempty"`
}

// Deviation is one departure from the catalog's text, and the test that pins the behaviour.
type Deviation struct {
	Says string `json:"says"`
	Pin  string `json:"pin"`
}

// DeviationNote is how a deviation is shown with the finding (Finding.Notes).
const DeviationNote = "Deviation from the catalog: "

// Catalog is the whole data file.
type Catalog struct {
	Source string `json:"_source"`
	// Defaults are declared defaults of keys the rows read that the config analyzer's known
	// configs do not carry (the effective configuration is asked first).
	Defaults map[string]string `json:"defaults"`
	// Caveats maps a caveat tag to a phrase the analyzer's caveats[] entry contains and the
	// text to use when the event log did not carry one.
	Caveats map[string]CaveatText `json:"caveats"`
	Rows    []Row                 `json:"rows"`
	// Known are the hoodie.* keys the misspelling check matches against (with the config
	// analyzer's known keys and the keys the rows name).
	Known map[string]bool `json:"-"`

	// paths are the rows' paths, compiled by Parse.
	paths map[string]*fieldPath
}

// CaveatText is one caveat: Match is a phrase of the analyzer's own caveat; Text the fallback.
type CaveatText struct {
	Match string `json:"match"`
	Text  string `json:"text"`
}

// Load parses the embedded catalog and known-key lists.
func Load() (*Catalog, error) {
	return Parse(assets.FindingsCatalog, assets.FindingsKnownKeys, assets.KnownConfigs, assets.EngineDefaults)
}

var (
	defaultOnce    sync.Once
	defaultCatalog *Catalog
)

// Default is the embedded catalog (parsed once; it panics on a malformed asset, which the
// package tests catch).
func Default() *Catalog {
	defaultOnce.Do(func() {
		c, err := Load()
		if err != nil {
			panic(err)
		}
		defaultCatalog = c
	})
	return defaultCatalog
}

// Parse reads a catalog and the known-key data.
func Parse(catalog, knownKeys, knownConfigs, engineDefaults []byte) (*Catalog, error) {
	var c Catalog
	if err := json.Unmarshal(catalog, &c); err != nil {
		return nil, fmt.Errorf("findings catalog: %w", err)
	}
	c.Known = map[string]bool{}
	var kk struct {
		Keys []string `json:"keys"`
	}
	if len(knownKeys) > 0 {
		if err := json.Unmarshal(knownKeys, &kk); err != nil {
			return nil, fmt.Errorf("findings known keys: %w", err)
		}
	}
	for _, k := range kk.Keys {
		c.Known[k] = true
	}
	var kc struct {
		Configs []struct {
			Key          string   `json:"key"`
			Alternatives []string `json:"alternatives"`
		} `json:"configs"`
		Defaults []struct {
			Key string `json:"key"`
		} `json:"defaults"`
	}
	for _, b := range [][]byte{knownConfigs, engineDefaults} {
		if len(b) == 0 {
			continue
		}
		kc.Configs, kc.Defaults = nil, nil
		if err := json.Unmarshal(b, &kc); err != nil {
			return nil, fmt.Errorf("known configs: %w", err)
		}
		for _, x := range kc.Configs {
			c.Known[x.Key] = true
			for _, a := range x.Alternatives {
				c.Known[a] = true
			}
		}
		for _, x := range kc.Defaults {
			c.Known[x.Key] = true
		}
	}
	for k := range c.Defaults {
		c.Known[k] = true
	}
	c.paths = map[string]*fieldPath{}
	seen := map[string]bool{}
	for i := range c.Rows {
		r := &c.Rows[i]
		if seen[r.ID] {
			return nil, fmt.Errorf("findings catalog: duplicate row %s", r.ID)
		}
		seen[r.ID] = true
		if r.Outcome == "" {
			r.Outcome = OutcomeRecommend
		}
		if r.Risk == RiskDurable && r.Outcome != OutcomeRefuse {
			return nil, fmt.Errorf("findings catalog: %s is durable but its outcome is %q; durable rows are refused", r.ID, r.Outcome)
		}
		if len(r.Signals) == 0 {
			return nil, fmt.Errorf("findings catalog: %s has no signals", r.ID)
		}
		for _, k := range r.Change.Keys {
			if strings.HasPrefix(k.Key, "hoodie.") {
				c.Known[k.Key] = true
			}
		}
		if err := c.compileRow(r); err != nil {
			return nil, fmt.Errorf("findings catalog: %s: %w", r.ID, err)
		}
		if err := c.compileVerification(r); err != nil {
			return nil, fmt.Errorf("findings catalog: %s: %w", r.ID, err)
		}
		for _, cs := range [][]Cond{r.Signals, r.Against, r.Gates, r.DoNothingWhen} {
			for _, cd := range cs {
				if strings.HasPrefix(cd.Path, "props.hoodie.") {
					c.Known[strings.TrimPrefix(cd.Path, "props.")] = true
				}
			}
		}
	}
	return &c, nil
}

// compileRow checks every condition of a row and compiles the paths it reads.
func (c *Catalog) compileRow(r *Row) error {
	var conds func(where string, cs []Cond) error
	conds = func(where string, cs []Cond) error {
		for i, cd := range cs {
			at := fmt.Sprintf("%s[%d]", where, i)
			if len(cd.AnyOf) > 0 {
				for j, g := range cd.AnyOf {
					if err := conds(fmt.Sprintf("%s.anyOf[%d]", at, j), g); err != nil {
						return err
					}
				}
				continue
			}
			if where == "signals" || strings.HasPrefix(where, "signals[") {
				// A signal that holds on any input is not a signal.
				if (cd.Op == "exists" || cd.Op == "missing") && (InputOf(cd.Path) == InputProps || cd.Agg == "count") {
					return fmt.Errorf("%s: %s %s can never be false", at, cd.Path, cd.Op)
				}
			}
			if err := conds(at+".only", cd.Only); err != nil {
				return err
			}
			if err := conds(at+".judged", cd.Judged); err != nil {
				return err
			}
			if err := c.compile(cd.Path); err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
			if cd.Ref != "" {
				if err := c.compile(cd.Ref); err != nil {
					return fmt.Errorf("%s ref: %w", at, err)
				}
			}
			if !validOp(cd.Op) {
				return fmt.Errorf("%s: unknown op %q", at, cd.Op)
			}
			if !aggs[cd.Agg] {
				return fmt.Errorf("%s: unknown agg %q", at, cd.Agg)
			}
			if (cd.Op == "set" || cd.Op == "unset") && InputOf(cd.Path) != InputProps {
				return fmt.Errorf("%s: op %q needs a props path, not %q", at, cd.Op, cd.Path)
			}
		}
		return nil
	}
	for _, x := range []struct {
		where string
		cs    []Cond
	}{{"signals", r.Signals}, {"against", r.Against}, {"gates", r.Gates}, {"doNothingWhen", r.DoNothingWhen}} {
		if err := conds(x.where, x.cs); err != nil {
			return err
		}
	}
	for i, k := range r.Change.Keys {
		if err := conds(fmt.Sprintf("change.keys[%d] (%s) when", i, k.Key), k.When); err != nil {
			return err
		}
	}
	if r.PayoffPath != "" {
		if err := c.compile(r.PayoffPath); err != nil {
			return fmt.Errorf("payoffPath: %w", err)
		}
	}
	return nil
}

func (c *Catalog) compile(p string) error {
	if _, ok := c.paths[p]; ok {
		return nil
	}
	fp, err := compilePath(p)
	if err != nil {
		return err
	}
	c.paths[p] = fp
	return nil
}

// path is a compiled path. Parse compiled every path of its rows; a path it did not see
// (a catalog built by hand) is compiled here, and an invalid one is a programming error.
func (c *Catalog) path(p string) *fieldPath {
	if fp, ok := c.paths[p]; ok {
		return fp
	}
	fp, err := compilePath(p)
	if err != nil {
		panic("findings: " + err.Error())
	}
	return fp
}

// Row returns the row with an id, or nil.
func (c *Catalog) Row(id string) *Row {
	for i := range c.Rows {
		if c.Rows[i].ID == id {
			return &c.Rows[i]
		}
	}
	return nil
}

// KnownKeys lists the known hoodie.* keys, sorted.
func (c *Catalog) KnownKeys() []string {
	out := make([]string, 0, len(c.Known))
	for k := range c.Known {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var ops = map[string]bool{"has": true, "lt": true, "le": true, "gt": true, "ge": true, "eq": true, "ne": true, "in": true, "nin": true,
	"approx": true, "exists": true, "missing": true, "contains": true, "ncontains": true, "set": true, "unset": true}

func validOp(op string) bool { return ops[op] }

// aggs are the folds aggregate knows; any other name would silently sum.
var aggs = map[string]bool{"": true, "first": true, "any": true, "all": true, "count": true,
	"max": true, "min": true, "sum": true, "mean": true}

// InputOf is the input a path reads: layout, health and table facts are all the table.
func InputOf(path string) string {
	root, _, _ := strings.Cut(path, ".")
	switch root {
	case "props":
		return InputProps
	case "eventlog", "run":
		return InputEventLog
	}
	return InputTable
}
