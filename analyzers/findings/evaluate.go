package findings

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/redact"
	"github.com/hudiscope/hudiscope/internal/units"
)

// Input is what Evaluate reads: pointers into a snapshot. Nil parts are absent inputs.
type Input struct {
	// Config is the effective writer configuration (always built; PropsPresent says whether
	// the operator's writer properties were part of it).
	Config       *config.Effective
	PropsPresent bool
	PropsOrigin  string
	EventLog     *eventlog.Report
	Layout       *layout.Result
	Health       *health.Result
	TableConfig  *tableconfig.Config
	Timeline     *timeline.Timeline
	View         *filegroup.View
	TablePath    string
	// Facts overrides DeriveTableFacts(TableConfig, Timeline, View) (tests, replays); with it
	// the table counts as present.
	Facts *TableFacts
	// Keys answers which keys the table's release defines (nil: ConfigKeys).
	Keys Keys
	// Records is the table's record count as read from storage (nil: not read), and
	// RecordsSource says how; sizing figures use it before the commit-metadata estimate.
	Records       *int64
	RecordsSource string
}

// Confidence levels: how far the inputs present let a finding go.
const (
	Describe              = "describe"
	Recommend             = "recommend"
	RecommendWithVerifies = "recommend with verification"
)

// Finding statuses.
const (
	StatusObservation   = "observation"    // two or more inputs agreed
	StatusHypothesis    = "hypothesis"     // one input: names the input that would settle it
	StatusDoNothing     = "do nothing"     // the benign reading: the answer is no change
	StatusRefused       = "refused"        // durable: measurements reported, change refused
	StatusCandidate     = "candidate"      // capability with signals for and none against
	StatusDont          = "don't"          // capability whose counter-signals fire
	StatusStopped       = "stopped"        // observation whose counter-signal fired
	StatusGated         = "gated"          // the lever is inert here, or a precondition fails
	StatusNotApplicable = "not applicable" // capability with no signal for it
	StatusNotObserved   = "not observed"   // observation with no signal for it
	StatusWithheld      = "withheld"       // broke a report invariant: dropped, never advice
)

// Evidence is one condition as evaluated: the field path, the value found, and whether it held.
type Evidence struct {
	Path      string `json:"path"`
	Input     string `json:"input"`
	Says      string `json:"says"`
	Op        string `json:"op"`
	Value     string `json:"value"`               // the value found ("" when unknown)
	Source    string `json:"source,omitempty"`    // where a props value came from
	Threshold string `json:"threshold,omitempty"` // what it was compared with
	Known     bool   `json:"known"`               // the input was present and the field found
	// Unknown says why the condition could not be judged (Known false): unknown is never "no".
	Unknown  string `json:"unknown,omitempty"`
	Holds    bool   `json:"holds"`
	Optional bool   `json:"optional,omitempty"`
	// Contradicts: known not to hold, this signal contradicts the row (Cond.Contradicts).
	Contradicts bool `json:"contradicts,omitempty"`
	// Assumed: a props condition read a default because no writer properties were given.
	Assumed bool `json:"assumed,omitempty"`
	// Default: a props condition read the release's default, not a value the operator set.
	Default bool `json:"default,omitempty"`
	// Agrees are the inputs this condition, holding, counts as agreeing: a default read from
	// an empty props file, or a condition that could not have been false, counts for none.
	Agrees []string `json:"agrees,omitempty"`
}

// KeyAdvice is one config key of a finding's change, as it stands on this table.
type KeyAdvice struct {
	Key       string `json:"key"`
	Direction string `json:"direction"`
	To        string `json:"to,omitempty"`
	Note      string `json:"note,omitempty"`
	Current   string `json:"current"`
	Source    string `json:"source"`
	OnDefault bool   `json:"onDefault"`
	// Inert: the key would do nothing on this table (its When failed); it is not recommended.
	Inert     bool   `json:"inert,omitempty"`
	InertSays string `json:"inertSays,omitempty"`
	// Exists: the release writing the table defines the key (spark.* keys: always).
	Exists bool `json:"exists"`
	// Floor, Ceiling and Governs are the catalog's (KeyChange), for the invariant check.
	Floor   *float64 `json:"floor,omitempty"`
	Ceiling *float64 `json:"ceiling,omitempty"`
	Governs []string `json:"governs,omitempty"`
}

// Estimate is a computed sizing figure attached to a finding.
type Estimate struct {
	Name   string            `json:"name"`
	Value  int64             `json:"value"`
	Text   string            `json:"text"`
	Inputs map[string]string `json:"inputs"`
}

// Finding is one evaluated catalog row.
type Finding struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Theme  string `json:"theme"`
	Title  string `json:"title"`
	Status string `json:"status"`
	Risk   string `json:"risk"`
	// Fired: at least one signal for the row held (the row is worth mentioning).
	Fired   bool       `json:"fired"`
	Signals []Evidence `json:"signals"`
	Against []Evidence `json:"against,omitempty"`
	Gates   []Evidence `json:"gates,omitempty"`
	Agreed  []string   `json:"agreed"`
	// Contradicts are the inputs one of whose own signals is known not to hold: they count
	// against the row (and never as agreeing), shown as such.
	Contradicts []string    `json:"contradicts,omitempty"`
	Missing     []string    `json:"missing,omitempty"` // corroborating inputs not present
	Settle      string      `json:"settle,omitempty"`  // the input that would settle a hypothesis, and what it settles
	Why         string      `json:"why"`               // one sentence: why this status
	Costs       string      `json:"costs"`
	Change      string      `json:"change"`
	Keys        []KeyAdvice `json:"keys,omitempty"`
	Payoff      string      `json:"payoff"`
	Score       float64     `json:"score"`
	Verify      string      `json:"verify"`
	Caveats     []string    `json:"caveats,omitempty"`
	Notes       []string    `json:"notes,omitempty"`
	Estimate    *Estimate   `json:"estimate,omitempty"`
	Refusal     string      `json:"refusal,omitempty"`
	// Subject names what the finding is about ("stage 14 (DATA_TABLE_WRITE)").
	Subject string `json:"subject,omitempty"`
	// Levers are the keys a do-nothing finding says to leave alone.
	Levers []string `json:"levers,omitempty"`
}

// Misspelling is a hoodie.* props key no known key matches, with the nearest known key.
type Misspelling struct {
	Key      string `json:"key"`
	Origin   string `json:"origin"`
	Suggest  string `json:"suggest"`
	Distance int    `json:"distance"`
}

// Inputs says which inputs are present and what that buys.
type Inputs struct {
	Props      bool              `json:"props"`
	EventLog   bool              `json:"eventLog"`
	Table      bool              `json:"table"`
	Count      int               `json:"count"`
	Confidence string            `json:"confidence"`
	Statement  string            `json:"statement"`
	Sources    map[string]string `json:"sources"`
}

// Phase is one row of hudiscope's phase (or operation) summary, for "where the time went",
// with the Java tool's share of the same label beside it.
type Phase struct {
	Phase  string  `json:"phase"`
	Share  float64 `json:"share"`
	Millis int64   `json:"stageWallClockMillis"`
	Stages int     `json:"stageCount"`
	// JavaShare is the share the Java tool's attribution (the event-log JSON's top-level
	// phaseSummary/operationSummary) gives the label: 0 when it has no such row.
	JavaShare float64 `json:"javaShare"`
}

// TimeBreakdown is the event log's phase breakdown with its caveats. The phases are
// hudiscope's attribution (hudiscope.phaseSummary), the one the Event log pane and the report
// lead with: it files metadata-table writes that reuse data-table job texts under
// METADATA_TABLE_WRITE, where the Java tool counts them as data-table tagging or writing
// (docs/eventlog-differences.md). The Java tool's share is JavaShare.
type TimeBreakdown struct {
	DurationMillis int64   `json:"durationMillis"`
	UnknownShare   float64 `json:"unknownShare"`
	// UncoveredMillis is application time no Spark job covers (driver-side listing, timeline
	// I/O, waits), UncoveredShare its share of DurationMillis; -1 when unknown. No phase share
	// counts it: those are shares of stage wall clock.
	UncoveredMillis int64    `json:"uncoveredMillis"`
	UncoveredShare  float64  `json:"uncoveredShare"`
	Attribution     string   `json:"attribution"`
	Phases          []Phase  `json:"phases"`
	Operations      []Phase  `json:"operations"`
	Caveats         []string `json:"caveats"`
	Lead            string   `json:"lead"`
}

// UncoveredMaterial is the share of the application no job covers from which the time
// breakdown leads with it.
const UncoveredMaterial = 0.2

// Missing is one absent input and what it would settle.
type Missing struct {
	Input   string   `json:"input"`
	Unlocks string   `json:"unlocks"`
	Settles []string `json:"settles"` // "OBS-011: …"
	Skipped []string `json:"skipped,omitempty"`
}

// Result is the whole evaluation.
type Result struct {
	Inputs       Inputs         `json:"inputs"`
	Release      Release        `json:"release"`
	Time         *TimeBreakdown `json:"time,omitempty"`
	Findings     []Finding      `json:"findings"` // catalog order
	Misspellings []Misspelling  `json:"misspellings"`
	// ReleaseKeys are supplied keys the table's release does not have (ignored by the writer).
	ReleaseKeys []ReleaseKey `json:"releaseKeys"`
	Missing     []Missing    `json:"missing"`
	// Violations are report invariants a finding broke; the finding is withheld.
	Violations []Violation `json:"violations"`
	// Excluded are inputs given but left out because they describe another table.
	Excluded []Exclusion `json:"excluded"`
	// Top is TopFinding, for the JSON reader.
	Top Top `json:"top"`
}

// Top is the one answer to "what is the top finding".
type Top struct {
	// ID and Title are the highest-ranked observation's; empty when no observation row is
	// corroborated.
	ID    string `json:"id,omitempty"`
	Title string `json:"title,omitempty"`
	// Hypotheses counts the observation rows that are hypotheses: ranked in the list, never
	// the top finding.
	Hypotheses int `json:"hypotheses"`
	// Says is the answer in words: "OBS-015 Compaction trails …" or "none (3 hypotheses)".
	Says string `json:"says"`
}

// TopFinding is the top finding every view shows (the Overview, the report): the
// highest-ranked observation that two inputs corroborated. A hypothesis is never the top
// finding, however it ranks: "none (N hypotheses)" says what there is instead.
func (r *Result) TopFinding() Top {
	var t Top
	for _, f := range r.Observations() {
		switch {
		case f.Status == StatusHypothesis:
			t.Hypotheses++
		case f.Status == StatusObservation && t.ID == "":
			t.ID, t.Title = f.ID, f.Title
		}
	}
	if t.ID != "" {
		t.Says = t.ID + " " + t.Title
		return t
	}
	noun := "hypotheses"
	if t.Hypotheses == 1 {
		noun = "hypothesis"
	}
	t.Says = fmt.Sprintf("none (%d %s)", t.Hypotheses, noun)
	return t
}

// Find returns a finding by row id, or nil.
func (r *Result) Find(id string) *Finding {
	for i := range r.Findings {
		if r.Findings[i].ID == id {
			return &r.Findings[i]
		}
	}
	return nil
}

// Observations are the observation findings to report (observations, hypotheses and
// do-nothing readings, not durable), ordered by payoff.
func (r *Result) Observations() []*Finding {
	var out []*Finding
	for i := range r.Findings {
		f := &r.Findings[i]
		if f.Kind == KindObservation && f.Risk != RiskDurable && (f.Status == StatusObservation || f.Status == StatusHypothesis || f.Status == StatusDoNothing) {
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}

// Capabilities are the non-durable capability rows (every one, with its verdict).
func (r *Result) Capabilities() []*Finding {
	var out []*Finding
	for i := range r.Findings {
		if f := &r.Findings[i]; f.Kind == KindCapability && f.Risk != RiskDurable {
			out = append(out, f)
		}
	}
	return out
}

// Durable are durable rows with at least one signal for them: reported and refused.
func (r *Result) Durable() []*Finding {
	var out []*Finding
	for i := range r.Findings {
		if f := &r.Findings[i]; f.Risk == RiskDurable && f.Fired {
			out = append(out, f)
		}
	}
	return out
}

// Stopped are observation rows some signal fired for that a counter-signal or gate stopped.
func (r *Result) Stopped() []*Finding {
	var out []*Finding
	for i := range r.Findings {
		if f := &r.Findings[i]; f.Kind == KindObservation && f.Fired && (f.Status == StatusStopped || f.Status == StatusGated) {
			out = append(out, f)
		}
	}
	return out
}

type env struct {
	in     Input
	cat    *Catalog
	facts  *TableFacts
	run    *RunFacts
	keysrc Keys
	rel    Release
	// The analyzer reports as the JSON documents they print (nil when absent): catalog paths
	// name those documents' fields, and were checked against the report types at load.
	eventlog, layout, health any
}

// Evaluate matches every catalog row against the input.
func Evaluate(in Input, cat *Catalog) *Result {
	if cat == nil {
		cat = Default()
	}
	in, excluded := excludeForeign(in)
	e := &env{in: in, cat: cat}
	if in.EventLog != nil {
		e.eventlog = toJSONValue(in.EventLog)
	}
	if in.Layout != nil {
		e.layout = toJSONValue(in.Layout)
	}
	if in.Health != nil {
		e.health = toJSONValue(in.Health)
	}
	e.facts = in.Facts
	if e.facts == nil {
		e.facts = DeriveTableFacts(in.TableConfig, in.Timeline, in.View)
	}
	e.keysrc = in.Keys
	if e.keysrc == nil {
		e.keysrc = ConfigKeys{}
	}
	e.rel = e.release()
	files, cores := int64(-1), 0
	if in.Layout != nil {
		files = int64(in.Layout.TotalFiles)
	}
	if kv := e.otherVal("spark.executor.cores"); kv.supplied {
		cores, _ = strconv.Atoi(strings.TrimSpace(kv.raw))
	}
	e.run = DeriveRunFacts(in.EventLog, files, cores)
	r := &Result{Findings: []Finding{}, Misspellings: []Misspelling{}, Missing: []Missing{}, Violations: []Violation{}, Excluded: []Exclusion{}}
	r.Excluded = append(r.Excluded, excluded...)
	r.Release = e.rel
	r.Inputs = e.inputs(excluded)
	r.Time = e.time()
	for i := range cat.Rows {
		r.Findings = append(r.Findings, e.row(&cat.Rows[i], r.Inputs))
	}
	r.Misspellings = misspellings(in.Config, cat)
	r.ReleaseKeys = e.releaseKeys()
	r.Violations = CheckInvariants(r)
	withhold(r)
	r.Missing = e.missing(r)
	r.Top = r.TopFinding()
	return r
}

func (e *env) present(input string) bool {
	switch input {
	case InputProps:
		return e.in.PropsPresent
	case InputEventLog:
		return e.in.EventLog != nil
	case InputTable:
		return e.in.TableConfig != nil || e.in.Layout != nil || e.in.Health != nil || e.in.Facts != nil
	}
	return false
}

func (e *env) inputs(excluded []Exclusion) Inputs {
	in := Inputs{Props: e.present(InputProps), EventLog: e.present(InputEventLog), Table: e.present(InputTable), Sources: map[string]string{}}
	var have, miss []string
	for _, x := range []struct {
		ok   bool
		name string
		src  string
	}{{in.Props, "writer properties", e.in.PropsOrigin}, {in.EventLog, "Spark event log", evPath(e.in.EventLog)}, {in.Table, "table", e.in.TablePath}} {
		if x.ok {
			in.Count++
			have = append(have, x.name)
			if x.src != "" {
				in.Sources[x.name] = x.src
			}
		} else {
			miss = append(miss, x.name)
		}
	}
	switch {
	case in.Count >= 3:
		in.Confidence = RecommendWithVerifies
	case in.Count == 2:
		in.Confidence = Recommend
	default:
		in.Confidence = Describe
	}
	s := fmt.Sprintf("Working from %d of 3 inputs (%s)", in.Count, strings.Join(have, ", "))
	if len(miss) > 0 {
		s += "; missing: " + strings.Join(miss, ", ")
	}
	for _, x := range excluded {
		s += fmt.Sprintf("; %s excluded: %s", inputName(x.Input), x.Says)
	}
	switch in.Confidence {
	case RecommendWithVerifies:
		s += ". That is enough to recommend, with a verification step for each change."
	case Recommend:
		s += ". That is enough to recommend where two inputs agree; without the third, no change comes with a predicted measurement."
	default:
		s += ". With one input this report describes what was measured and recommends nothing; each reading names the input that would make it a recommendation."
	}
	in.Statement = s
	return in
}

func evPath(r *eventlog.Report) string {
	if r == nil {
		return ""
	}
	return r.EventLogPath
}

func (e *env) time() *TimeBreakdown {
	r := e.in.EventLog
	if r == nil {
		return nil
	}
	x := &r.Hudiscope
	t := &TimeBreakdown{DurationMillis: r.Application.Observed.DurationMillis, UncoveredMillis: x.Application.UncoveredMillis,
		UncoveredShare: float64(x.Application.UncoveredShare), Attribution: "hudiscope",
		Caveats: append(append([]string(nil), x.Caveats...), r.Caveats...)}
	javaShare := func(rows []eventlog.GroupSummary, label string) float64 {
		for _, g := range rows {
			if g.Label == label {
				return max(0, float64(g.ShareOfStageWallClock))
			}
		}
		return 0
	}
	for _, p := range x.PhaseSummary {
		t.Phases = append(t.Phases, Phase{Phase: p.Label, Share: float64(p.ShareOfStageWallClock), Millis: p.StageWallClockMillis,
			Stages: p.StageCount, JavaShare: javaShare(r.PhaseSummary, p.Label)})
		if p.Label == eventlog.PhaseUnknown {
			t.UnknownShare = float64(p.ShareOfStageWallClock)
		}
	}
	for _, p := range x.OperationSummary {
		t.Operations = append(t.Operations, Phase{Phase: p.Label, Share: float64(p.ShareOfStageWallClock), Millis: p.StageWallClockMillis,
			Stages: p.StageCount, JavaShare: javaShare(r.OperationSummary, p.Label)})
	}
	sort.SliceStable(t.Phases, func(i, j int) bool { return t.Phases[i].Share > t.Phases[j].Share })
	var top *Phase
	for i := range t.Phases {
		if t.Phases[i].Phase != eventlog.PhaseUnknown {
			top = &t.Phases[i]
			break
		}
	}
	// The largest fact first: time no job covers is in no phase share.
	if t.UncoveredShare >= UncoveredMaterial && t.DurationMillis > 0 {
		t.Lead = fmt.Sprintf("No Spark job ran for %s of the application's %s (%s): driver-side listing, timeline I/O or waits, which no phase share below counts. ",
			units.Millis(t.UncoveredMillis), units.Millis(t.DurationMillis), pct(t.UncoveredShare))
	}
	switch {
	case t.UnknownShare >= 0.2:
		t.Lead += fmt.Sprintf("%s of stage wall clock is UNKNOWN — unattributable, not idle — so every phase share below is a partial picture.", pct(t.UnknownShare))
		if v := e.val("hoodie.metadata.streaming.write.enabled"); v.found && strings.EqualFold(v.raw, "true") {
			t.Lead += " hoodie.metadata.streaming.write.enabled is true (" + v.source + "); setting it to false for one diagnostic run gives a fully attributed breakdown and costs nothing to turn back on."
		}
		if top != nil {
			t.Lead += fmt.Sprintf(" The largest attributed phase is %s at %s%s.", top.Phase, pct(top.Share), javaBeside(*top))
		}
	case top != nil:
		t.Lead += fmt.Sprintf("The largest phase is %s at %s of stage wall clock%s (UNKNOWN %s).", top.Phase, pct(top.Share), javaBeside(*top), pct(t.UnknownShare))
	}
	t.Lead = strings.TrimSpace(t.Lead)
	return t
}

// javaBeside names the Java tool's share of a phase where it differs at one decimal.
func javaBeside(p Phase) string {
	if pct(p.JavaShare) == pct(p.Share) {
		return ""
	}
	return "; the Java tool's attribution gives it " + pct(p.JavaShare)
}

func pct(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) + "%" }

// resolved is what a path read: its values, whether the input was present and the field
// could be read, and for props where the value came from.
type resolved struct {
	vals     []any
	known    bool
	source   string
	supplied bool // props: the operator set it
}

// resolve reads a path. A props key the table's release lacks, or one whose default the
// release lines disagree on, is unknown: never read as some other release's default.
func (e *env) resolve(path string) resolved {
	p := e.cat.path(path)
	switch p.root {
	case "props":
		kv := e.val(p.key)
		if !kv.found {
			return resolved{source: kv.why}
		}
		return resolved{vals: []any{kv.raw}, known: true, source: kv.source, supplied: kv.supplied}
	case "run":
		if e.in.EventLog == nil {
			return resolved{}
		}
		if v := factValue(e.run, p.fact); v != nil {
			return resolved{vals: []any{v}, known: true}
		}
		return resolved{known: true}
	case "table":
		if !e.present(InputTable) {
			return resolved{}
		}
		// A list fact (mdtPartitions) is one value, for contains; it does not fan out.
		if v := factValue(e.facts, p.fact); v != nil {
			return resolved{vals: []any{v}, known: true}
		}
		return resolved{known: true}
	}
	doc, ok := e.doc(p.root)
	if !ok {
		return resolved{}
	}
	return resolved{vals: walk(doc, p.steps), known: true}
}

// doc is an analyzer report's JSON document, and whether that analyzer ran.
func (e *env) doc(root string) (any, bool) {
	switch root {
	case "eventlog":
		return e.eventlog, e.in.EventLog != nil
	case "layout":
		return e.layout, e.in.Layout != nil
	case "health":
		return e.health, e.in.Health != nil
	}
	return nil, false
}

// cond evaluates one condition, and says which inputs it counts as agreeing when it holds.
func (e *env) cond(c Cond) Evidence {
	if len(c.AnyOf) > 0 {
		return e.anyOf(c)
	}
	if ev, ok := e.only(c); !ok {
		return ev
	}
	for _, j := range c.Judged {
		if x := e.cond(j); !x.Known || !x.Holds {
			return Evidence{Path: c.Path, Input: InputOf(c.Path), Says: c.Says, Op: c.Op, Optional: c.Optional,
				Unknown: "not a measurement here: " + j.Says + " does not hold (" + j.Path + " = " + orAbsent(x.Value) + ")"}
		}
	}
	ev := e.cond1(c)
	e.credit(&ev, c)
	return ev
}

// only evaluates a condition's Only: false when the condition does not apply (known not to
// hold) or cannot be told to apply (unknown), with that evidence.
func (e *env) only(c Cond) (Evidence, bool) {
	for _, o := range c.Only {
		x := e.cond(o)
		if x.Known && x.Holds {
			continue
		}
		ev := Evidence{Path: c.Path, Input: InputOf(c.Path), Says: c.Says, Op: c.Op, Optional: c.Optional, Known: x.Known}
		if c.Ref == "" && c.Value != nil {
			ev.Threshold = scalarString(c.Value)
		}
		if x.Known {
			ev.Value = "(does not apply: " + o.Path + " = " + orAbsent(x.Value) + ")"
		} else {
			ev.Unknown = "whether it applies cannot be told: " + o.Says + " is unknown"
			if x.Unknown != "" {
				ev.Unknown += " (" + x.Unknown + ")"
			}
		}
		return ev, false
	}
	return Evidence{}, true
}

var checkSel = regexp.MustCompile(`checks\[name=([^\]|]+)\]`)

// skippedCheck says why a health path reads nothing a verdict may rest on: the check it
// names was skipped (a writer property not supplied, a table the check does not judge).
func (e *env) skippedCheck(path string) (string, bool) {
	m := checkSel.FindStringSubmatch(path)
	if m == nil || e.in.Health == nil {
		return "", false
	}
	ch := e.in.Health.Check(m[1])
	switch {
	case ch == nil:
		return "the health report has no " + m[1] + " check", true
	case ch.Status == health.Skipped:
		return "the " + m[1] + " health check was skipped: " + ch.Summary, true
	}
	return "", false
}

// notApplicableCheck: the health check a path names was skipped because the table has
// nothing for it to judge (no compaction on Copy-on-Write, no metadata table). Its state is
// then known: the condition does not apply and does not hold — not unknown.
func (e *env) notApplicableCheck(path string) (string, bool) {
	m := checkSel.FindStringSubmatch(path)
	if m == nil || e.in.Health == nil || e.in.Health.Hudiscope == nil {
		return "", false
	}
	ch := e.in.Health.Check(m[1])
	if ch == nil || ch.Status != health.Skipped {
		return "", false
	}
	for _, b := range e.in.Health.Hudiscope.Checks {
		if b.Name == m[1] && b.Skip == health.NotApplicable {
			return "(does not apply: the " + m[1] + " check is not applicable here: " + ch.Summary + ")", true
		}
	}
	return "", false
}

// inputMissing is unknownAt's reason when the path's input is absent (Evidence.Unknown stays
// empty: the missing input is said where the row names what would settle it).
const inputMissing = "input missing"

// unknownAt says why path could not be read, or "" when it could.
func (e *env) unknownAt(path string, rs resolved) string {
	if !rs.known {
		if !e.present(InputOf(path)) {
			return inputMissing
		}
		if rs.source != "" {
			return rs.source
		}
		switch root, _, _ := strings.Cut(path, "."); root {
		case "layout", "health":
			return "the " + root + " analysis did not run"
		}
		return "not derivable from the " + inputName(InputOf(path))
	}
	if strings.HasPrefix(path, "health.") {
		if why, ok := e.skippedCheck(path); ok {
			return why
		}
	}
	return ""
}

func (e *env) cond1(c Cond) Evidence {
	ev := Evidence{Path: c.Path, Input: InputOf(c.Path), Says: c.Says, Op: c.Op, Optional: c.Optional}
	if c.Op == "set" || c.Op == "unset" {
		key := strings.TrimPrefix(c.Path, "props.")
		kv := e.val(key)
		ev.Assumed = !e.in.PropsPresent
		ev.Known = kv.name != ""
		if !ev.Known {
			ev.Value, ev.Source = "(no such key)", kv.why
			return ev
		}
		if kv.found {
			ev.Value, ev.Source = redact.Value(key, kv.raw), kv.source
		} else {
			ev.Value, ev.Source = "(not set)", kv.why
		}
		ev.Default = !kv.supplied
		ev.Holds = kv.supplied == (c.Op == "set")
		return ev
	}
	rs := e.resolve(c.Path)
	vals := rs.vals
	if why, ok := e.notApplicableCheck(c.Path); ok && rs.known && c.Op != "missing" {
		ev.Known, ev.Value = true, why
		if c.Value != nil {
			ev.Threshold = scalarString(c.Value)
		}
		return ev
	}
	ev.Known, ev.Source, ev.Assumed = rs.known, rs.source, ev.Input == InputProps && !e.in.PropsPresent
	ev.Default = ev.Input == InputProps && rs.known && !rs.supplied
	if why := e.unknownAt(c.Path, rs); why != "" {
		ev.Known = false
		if why != inputMissing {
			ev.Unknown = why
			if c.Ref == "" && c.Value != nil {
				ev.Threshold = scalarString(c.Value)
			}
		}
		return ev
	}
	var cmp any = c.Value
	if c.Ref != "" {
		rr := e.resolve(c.Ref)
		if why := e.unknownAt(c.Ref, rr); why != "" {
			ev.Known = false
			if why != inputMissing {
				ev.Unknown = "its threshold " + c.Ref + " is unknown: " + why
			}
			return ev
		}
		if InputOf(c.Ref) == InputProps && !rr.supplied {
			ev.Default = true
		}
		r, ok := aggregate(rr.vals, "first")
		if !ok {
			ev.Known, ev.Unknown = false, "its threshold "+c.Ref+" has no value"
			return ev
		}
		f, ok := num(r)
		if !ok {
			cmp = r
		} else {
			factor := c.Factor
			if factor == 0 {
				factor = 1
			}
			if c.Op == "approx" {
				cmp = f
			} else {
				cmp = f * factor
			}
		}
		ev.Threshold = describeRef(c, cmp)
	} else if c.Value != nil {
		ev.Threshold = scalarString(c.Value)
	}
	if strings.HasPrefix(c.Path, "props.") {
		for i, v := range vals {
			vals[i] = redact.Value(strings.TrimPrefix(c.Path, "props."), scalarString(v))
		}
	}
	switch c.Agg {
	case "any", "all":
		hits := 0
		var shown []string
		for _, v := range vals {
			if e.test(v, c, cmp) {
				hits++
				if len(shown) < 3 {
					shown = append(shown, scalarString(v))
				}
			}
		}
		if c.Agg == "any" {
			ev.Holds = hits > 0
		} else {
			ev.Holds = len(vals) > 0 && hits == len(vals)
		}
		ev.Value = fmt.Sprintf("%d of %d match", hits, len(vals))
		if len(shown) > 0 {
			ev.Value += " (" + strings.Join(shown, ", ") + ")"
		}
		return ev
	}
	v, ok := aggregate(vals, c.Agg)
	if !ok {
		ev.Value = "(absent)"
		if (strings.HasPrefix(c.Path, "health.") || strings.HasPrefix(c.Path, "table.")) && c.Op != "exists" && c.Op != "missing" {
			// Nothing to compare is not a "no": the checker omits a state it did not judge (no
			// cadence, or skipped), and a nil table fact could not be derived. (Run facts are
			// nil for "no such stage" too; their rows read an absent value as before.)
			ev.Known, ev.Unknown = false, "the health report has no value there"
			if strings.HasPrefix(c.Path, "table.") {
				ev.Unknown = "not derivable from the table as read"
			}
			return ev
		}
		ev.Holds = c.Op == "missing"
		return ev
	}
	ev.Value = scalarString(v)
	if c.Agg != "" && c.Agg != "first" {
		ev.Value = c.Agg + " " + ev.Value
	}
	ev.Holds = e.test(v, c, cmp)
	return ev
}

// credit fills ev.Agrees: the condition's own input, the input its ref reads (a measurement
// against a configured value is agreement from both), and the inputs it credits. A props
// reading agrees only when it is evidence: a value the operator set, or a default the writer
// properties leave in place (an empty props file says nothing, so its defaults are not).
func (e *env) credit(ev *Evidence, c Cond) {
	if !ev.Known || !ev.Holds {
		return
	}
	add := func(in string) {
		if e.present(in) && !contains(ev.Agrees, in) {
			ev.Agrees = append(ev.Agrees, in)
		}
	}
	propsOK := !ev.Default || e.substantive()
	if ev.Input != InputProps || propsOK {
		add(ev.Input)
	}
	if c.Ref != "" && (InputOf(c.Ref) != InputProps || propsOK) {
		add(InputOf(c.Ref))
	}
	for _, in := range c.Credits {
		if in != InputProps || propsOK {
			add(in)
		}
	}
}

// anyOf is three-valued: yes when every condition of one group holds (the first such group is
// its evidence), no when every group has a condition known not to hold, and otherwise unknown
// (a group none of whose conditions fails could still hold: unknown is never "no").
func (e *env) anyOf(c Cond) Evidence {
	ev := Evidence{Path: "any of", Input: "", Says: c.Says, Op: "anyOf", Optional: c.Optional}
	var parts []string
	open := "" // why the first group that could still hold is undecided
	for _, g := range c.AnyOf {
		fails, holds := false, true
		var evs []Evidence
		var unk *Evidence
		for _, sc := range g {
			x := e.cond(sc)
			evs = append(evs, x)
			fails = fails || (x.Known && !x.Holds)
			holds = holds && x.Known && x.Holds
			if !x.Known && unk == nil {
				unk = &evs[len(evs)-1]
			}
		}
		if !fails && !holds && open == "" && unk != nil {
			open = fmt.Sprintf("%q (%s) is unknown", unk.Says, unk.Path)
			if unk.Unknown != "" {
				open += ": " + unk.Unknown
			}
		}
		if holds {
			ev.Known = true
		}
		if holds && !ev.Holds {
			ev.Holds = true
			var inputs []string
			for _, x := range evs {
				parts = append(parts, x.Path+" = "+orAbsent(x.Value))
				if ev.Input == "" {
					ev.Input = x.Input
				}
				for _, in := range x.Agrees {
					if !contains(ev.Agrees, in) {
						ev.Agrees = append(ev.Agrees, in)
					}
				}
				inputs = append(inputs, x.Input)
				ev.Default = ev.Default || x.Default
			}
			ev.Path = "any of: " + strings.Join(inputs, "+")
		}
	}
	if !ev.Holds {
		ev.Input = InputOf(c.AnyOf[0][0].Path)
		if open != "" {
			// One form could still hold: the condition is undecided, not false.
			ev.Unknown = "no form is known to hold and one cannot be judged: " + open
			return ev
		}
		ev.Known = true
		parts = append(parts, "no form holds")
	}
	ev.Value = strings.Join(parts, "; ")
	return ev
}

func (e *env) test(v any, c Cond, cmp any) bool {
	if c.Op == "approx" {
		a, ok1 := num(v)
		b, ok2 := num(cmp)
		if !ok1 || !ok2 {
			return false
		}
		tol := c.Factor
		if tol == 0 {
			tol = 0.1
		}
		d := a - b
		if d < 0 {
			d = -d
		}
		return d <= tol*b
	}
	return compare(v, c.Op, cmp)
}

func describeRef(c Cond, cmp any) string {
	s := c.Ref
	if c.Op == "approx" {
		tol := c.Factor
		if tol == 0 {
			tol = 0.1
		}
		return fmt.Sprintf("%s = %s (±%s)", s, scalarString(cmp), pct(tol))
	}
	if c.Factor != 0 && c.Factor != 1 {
		return fmt.Sprintf("%s × %s = %s", s, FormatNumber(c.Factor), scalarString(cmp))
	}
	return fmt.Sprintf("%s = %s", s, scalarString(cmp))
}

// row evaluates one catalog row.
func (e *env) row(r *Row, inputs Inputs) Finding {
	f := Finding{ID: r.ID, Kind: r.Kind, Theme: r.Theme, Title: r.Title, Risk: r.Risk, Costs: r.Costs,
		Change: r.Change.Text, Payoff: r.Payoff, Verify: r.Verify, Agreed: []string{}}
	// Every deviation from the catalog's text is said with the finding: none is silent.
	f.Notes = append([]string(nil), r.Notes...)
	for _, d := range r.Fidelity.Deviations {
		f.Notes = append(f.Notes, DeviationNote+d.Says)
	}
	agree := map[string]bool{}
	needFail, anyHold := false, false
	for _, c := range r.Signals {
		ev := e.cond(c)
		ev.Contradicts = c.Contradicts
		f.Signals = append(f.Signals, ev)
		for _, in := range ev.Agrees {
			agree[in] = true
			anyHold = true
		}
		if !c.Optional && ev.Known && !ev.Holds {
			needFail = true
		}
	}
	for _, c := range r.Against {
		f.Against = append(f.Against, e.cond(c))
	}
	for _, c := range r.Gates {
		f.Gates = append(f.Gates, e.cond(c))
	}
	// An input agrees only when its own signals hold for this table: a signal marked
	// contradicts that is known not to hold (an optional one; a required one stops the row)
	// contradicts the premise, and its input counts against the row, never for it. Unknown is
	// neither. (An optional signal without the mark only fails to corroborate.)
	for _, ev := range f.Signals {
		if ev.Contradicts && ev.Known && !ev.Holds && ev.Input != "" && !contains(f.Contradicts, ev.Input) {
			f.Contradicts = append(f.Contradicts, ev.Input)
			delete(agree, ev.Input)
		}
	}
	for _, in := range []string{InputProps, InputEventLog, InputTable} {
		if agree[in] {
			f.Agreed = append(f.Agreed, in)
		}
	}
	for _, in := range r.Corroborate {
		if !e.present(in) {
			f.Missing = append(f.Missing, in)
		}
	}
	f.Fired = anyHold && !needFail
	f.Keys = e.keys(r)
	f.Levers = r.Levers
	if r.Subject != "" {
		if rs := e.resolve(r.Subject); rs.known && len(rs.vals) > 0 {
			f.Subject = scalarString(rs.vals[0])
		}
	}
	f.Score = e.score(r)
	f.Caveats = e.caveats(r)
	if r.Estimate != "" {
		f.Estimate = e.estimate(r.Estimate)
	}
	against := firing(f.Against)
	gate := failing(f.Gates)
	switch {
	case !f.Fired:
		f.Status = StatusNotApplicable
		if r.Kind == KindObservation {
			f.Status = StatusNotObserved
		}
		f.Why = e.notFiredWhy(f)
	case gate != nil:
		f.Status = StatusGated
		f.Why = "Not raised: " + gate.Says + " (" + gate.Path + " = " + gate.Value + ")."
	case r.Risk == RiskDurable:
		f.Status = StatusRefused
		f.Refusal = r.Handoff
		switch unk := undecided(&f); {
		case against != nil:
			f.Why = "Counter-signals fire (" + against.Says + "), so even the handoff should start from \"don't\"."
		case unk != nil:
			// Refused either way; the handoff must not read as if every condition was judged.
			f.Why = fmt.Sprintf("The measurements present point at a change to what is on storage, but %q (%s) is unknown — %s.",
				unk.Says, unk.Path, firstSentence(orUnknown(unk.Unknown)))
		default:
			f.Why = "The measurements point at a change to what is on storage."
		}
	case against != nil && r.Kind == KindCapability:
		f.Status = StatusDont
		f.Why = "Don't: " + against.Says + " (" + against.Path + " = " + against.Value + ")."
	case against != nil:
		f.Status = StatusStopped
		f.Why = "Not raised: " + against.Says + " (" + against.Path + " = " + against.Value + ")."
	default:
		e.corroborate(r, &f, agree, inputs)
	}
	return f
}

// corroborate applies the two-input rule.
func (e *env) corroborate(r *Row, f *Finding, agree map[string]bool, inputs Inputs) {
	var short []string
	for _, in := range r.Corroborate {
		if !agree[in] {
			short = append(short, in)
		}
	}
	unk := undecided(f)
	// A contradicting input counts against the row: the agreeing inputs must outnumber it by two.
	if len(f.Agreed)-len(f.Contradicts) >= 2 && len(short) == 0 && unk == nil {
		switch {
		case r.Outcome == OutcomeDoNothing:
			f.Status = StatusDoNothing
			f.Why = "Confirmed by " + strings.Join(f.Agreed, " + ") + ": " + r.DoNothingText
		case e.all(r.DoNothingWhen):
			f.Status = StatusDoNothing
			f.Why = "Confirmed by " + strings.Join(f.Agreed, " + ") + ": " + r.DoNothingText
		case r.Kind == KindCapability:
			f.Status = StatusCandidate
			f.Why = "Signals for it from " + strings.Join(f.Agreed, " + ") + " and no counter-signal fires."
		case r.MaxStatus == StatusHypothesis:
			f.Status = StatusHypothesis
			f.Why = "Hypothesis although " + strings.Join(f.Agreed, " + ") + " agree: " + r.CapSays
			f.Settle = "query evidence: " + r.CapSays
			return
		default:
			f.Status = StatusObservation
			f.Why = "Corroborated by " + strings.Join(f.Agreed, " + ") + "."
		}
		if inputs.Confidence != RecommendWithVerifies && f.Status != StatusDoNothing {
			f.Why += " With fewer than three inputs, the verification step is stated but not predicted."
		}
		return
	}
	f.Status = StatusHypothesis
	if len(short) == 0 && unk != nil {
		// The inputs agree, but a condition the verdict rests on could not be judged: say
		// which, and do not promote the row on the strength of what was not read.
		agreed := "no input"
		if len(f.Agreed) > 0 {
			agreed = strings.Join(f.Agreed, " + ")
		}
		f.Settle = unk.Input + ": " + unk.Says
		f.Why = fmt.Sprintf("Hypothesis — %s agreed, but one condition could not be judged, so the row is not promoted: %q (%s) is unknown — %s.",
			agreed, unk.Says, unk.Path, firstSentence(orUnknown(unk.Unknown)))
		if r.Outcome == OutcomeDoNothing || e.all(r.DoNothingWhen) {
			f.Why += " If it holds, the answer is to change nothing: " + r.DoNothingText
		}
		return
	}
	settle := ""
	for _, in := range short {
		if !e.present(in) {
			settle = in
			break
		}
	}
	if settle == "" && len(short) > 0 {
		settle = short[0]
	}
	if settle == "" {
		for _, in := range []string{InputProps, InputTable, InputEventLog} {
			if !agree[in] {
				settle = in
				break
			}
		}
	}
	what := r.Settle[settle]
	if what == "" {
		what = "whether the reading holds"
	}
	f.Settle = settle + ": " + what
	agreed := "no input"
	if len(f.Agreed) > 0 {
		agreed = "only " + strings.Join(f.Agreed, " + ")
	}
	f.Why = fmt.Sprintf("Hypothesis — %s agreed; the %s input would settle %s.", agreed, inputName(settle), what)
	if c := contradiction(f); c != nil {
		f.Why = fmt.Sprintf("Hypothesis — %s agreed; the %s input contradicts it: %s does not hold (%s = %s).",
			agreed, inputName(c.Input), c.Says, c.Path, orAbsent(c.Value))
	}
	if r.Outcome == OutcomeDoNothing || e.all(r.DoNothingWhen) {
		f.Why += " If it holds, the answer is to change nothing: " + r.DoNothingText
	}
}

func inputName(in string) string {
	switch in {
	case InputProps:
		return "writer properties"
	case InputEventLog:
		return "event log"
	}
	return "table"
}

func (e *env) all(cs []Cond) bool {
	if len(cs) == 0 {
		return false
	}
	for _, c := range cs {
		ev := e.cond(c)
		if !ev.Known || !ev.Holds {
			return false
		}
	}
	return true
}

// undecided is the first condition a promotion would rest on that could not be judged: a
// required signal, a gate or a counter-signal whose value is unknown (nil when all are known).
func undecided(f *Finding) *Evidence {
	for _, evs := range [][]Evidence{f.Signals, f.Gates, f.Against} {
		for i := range evs {
			if !evs[i].Known && !evs[i].Optional {
				return &evs[i]
			}
		}
	}
	return nil
}

func orUnknown(s string) string {
	if s == "" {
		return "its input is not present"
	}
	return s
}

// firstSentence keeps a reason short in a one-sentence why (the evidence carries all of it).
func firstSentence(s string) string {
	s = strings.TrimSuffix(s, ".")
	if i := strings.Index(s, ". "); i > 0 {
		return s[:i]
	}
	return s
}

// contradiction is the first signal of an input that contradicts the row (nil: none).
func contradiction(f *Finding) *Evidence {
	for i := range f.Signals {
		if ev := &f.Signals[i]; ev.Known && !ev.Holds && contains(f.Contradicts, ev.Input) {
			return ev
		}
	}
	return nil
}

func firing(evs []Evidence) *Evidence {
	for i := range evs {
		if evs[i].Known && evs[i].Holds {
			return &evs[i]
		}
	}
	return nil
}

func failing(evs []Evidence) *Evidence {
	for i := range evs {
		if evs[i].Known && !evs[i].Holds {
			return &evs[i]
		}
	}
	return nil
}

func (e *env) notFiredWhy(f Finding) string {
	for _, ev := range f.Signals {
		if !ev.Optional && ev.Known && !ev.Holds {
			return "Not observed: " + ev.Says + " does not hold (" + ev.Path + " = " + orAbsent(ev.Value) + ")."
		}
	}
	return "Not observed: no signal for it in the inputs present."
}

func orAbsent(s string) string {
	if s == "" {
		return "(absent)"
	}
	return s
}

func (e *env) keys(r *Row) []KeyAdvice {
	var out []KeyAdvice
	for _, k := range r.Change.Keys {
		a := KeyAdvice{Key: k.Key, Direction: k.Direction, To: k.To, Note: k.Note, Exists: true, Floor: k.Floor, Ceiling: k.Ceiling, Governs: k.Governs}
		if strings.HasPrefix(k.Key, "hoodie.") {
			name, ok := e.releaseName(k.Key)
			if !ok {
				a.Exists, a.Inert = false, true
				a.InertSays = "not a key in " + e.rel.Words() + ": the writer would ignore it"
				out = append(out, a)
				continue
			}
			if name != k.Key {
				a.Key = name
				a.Note = strings.TrimSpace(a.Note + " (" + k.Key + " in newer releases)")
			}
		}
		kv := e.val(a.Key)
		if kv.found {
			a.Current, a.Source = redact.Value(a.Key, kv.raw), kv.source
		} else {
			a.Current, a.Source = "(not set)", kv.why
		}
		a.OnDefault = !kv.supplied
		for _, c := range k.When {
			if ev := e.cond(c); !ev.Known || !ev.Holds {
				// A lever whose condition is unknown is not recommended either.
				a.Inert, a.InertSays = true, k.InertSays
				if a.InertSays == "" {
					a.InertSays = "inert here: " + c.Says + " does not hold"
				}
				if !ev.Known {
					a.InertSays = "whether " + c.Says + " cannot be told from the inputs present"
				}
				break
			}
		}
		if !a.Inert && atBound(a) {
			// Already where the change would move it: recommending it is recommending nothing.
			a.Inert, a.InertSays = true, "already "+a.Current+": there is nothing to move"
		}
		out = append(out, a)
	}
	return out
}

func (e *env) score(r *Row) float64 {
	if r.PayoffPath != "" {
		if rs := e.resolve(r.PayoffPath); rs.known {
			if v, ok := aggregate(rs.vals, "max"); ok {
				if f, ok := num(v); ok && f >= 0 {
					return f
				}
			}
		}
	}
	return r.PayoffRank
}

// caveats carries the event log's own caveat text for each tag the row names.
func (e *env) caveats(r *Row) []string {
	var out []string
	for _, tag := range r.Caveats {
		ct, ok := e.cat.Caveats[tag]
		if !ok {
			continue
		}
		if tag == "unknown" {
			if e.in.EventLog == nil {
				continue
			}
			share := -1.0
			for _, p := range e.in.EventLog.Hudiscope.PhaseSummary {
				if p.Label == eventlog.PhaseUnknown {
					share = float64(p.ShareOfStageWallClock)
				}
			}
			if share < 0.2 {
				continue
			}
			out = append(out, fmt.Sprintf("UNKNOWN is %s of stage wall clock in this log: %s", pct(share), ct.Text))
			continue
		}
		text := ct.Text
		if e.in.EventLog != nil && ct.Match != "" {
			for _, c := range e.in.EventLog.Caveats {
				if strings.Contains(strings.ToLower(c), strings.ToLower(ct.Match)) {
					text = c
					break
				}
			}
		}
		out = append(out, text)
	}
	return out
}

// estimate computes a named sizing figure.
func (e *env) estimate(name string) *Estimate {
	switch name {
	case "record-index-file-groups":
		est, src := e.facts.Records.Estimate, ""
		if e.facts.Records.Source != nil {
			src = *e.facts.Records.Source
		}
		if e.in.Records != nil {
			// A count read from the table beats the commit-metadata estimate (which can read 0
			// for a table of 12 records: numWrites of rewritten files, deletes over a window).
			est, src = ptr(float64(*e.in.Records)), e.in.RecordsSource
		}
		if est == nil {
			return &Estimate{Name: name, Value: -1, Text: "No record count could be derived from the table, so the record-level index cannot be sized here; run the layout analyzer with --include-row-counts."}
		}
		get := func(k string, def float64) float64 {
			if v := e.val(k); v.found {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v.raw), 64); err == nil {
					return f
				}
			}
			return def
		}
		growth := get("hoodie.metadata.record.index.growth.factor", 2.0)
		maxBytes := get("hoodie.metadata.record.index.max.filegroup.size", 1073741824)
		minN := get("hoodie.metadata.global.record.level.index.min.filegroup.count", 10)
		maxN := get("hoodie.metadata.global.record.level.index.max.filegroup.count", 10000)
		recs := *est
		const avgRecordSize = 48 // HoodieTableMetadataUtil's record-index entry estimate
		n := health.EstimateFileGroupCount(int64(recs), avgRecordSize, int64(minN), int64(maxN), float32(growth), int64(maxBytes))
		text := fmt.Sprintf("Your record count (%s, from %s) implies roughly %d record-index file group(s) (growth factor %s, %s bytes per file group, clamped to %s–%s); bootstrap writes that index once over the whole table.",
			FormatNumber(recs), src, n, FormatNumber(growth), FormatNumber(maxBytes), FormatNumber(minN), FormatNumber(maxN))
		if float64(n) >= maxN {
			text += " The estimate sits at the max.filegroup.count ceiling: the index will be clamped and each file group will exceed the target size, which makes metadata-table compaction heavier."
		} else if float64(n) <= minN {
			text += " The estimate sits at the min.filegroup.count floor: the table is small for this index."
		}
		return &Estimate{Name: name, Value: n, Text: text, Inputs: map[string]string{
			"records": FormatNumber(recs), "growth.factor": FormatNumber(growth), "max.filegroup.size": FormatNumber(maxBytes),
			"min.filegroup.count": FormatNumber(minN), "max.filegroup.count": FormatNumber(maxN), "avg.record.size": "48"}}
	}
	return nil
}

func (e *env) missing(r *Result) []Missing {
	unlocks := map[string]string{
		InputProps:    "whether a lever is live at all: which keys the writer actually sets, so a recommendation is never made against a default the writer overrides (pass --props FILE or --hoodie-conf)",
		InputEventLog: "where the time actually went, per Hudi phase (pass --event-log with the Spark event log written under spark.eventLog.enabled=true)",
		InputTable:    "file sizes, partition skew, service cadence and timeline state",
	}
	var out []Missing
	for _, in := range []string{InputProps, InputEventLog, InputTable} {
		if e.present(in) {
			continue
		}
		m := Missing{Input: in, Unlocks: unlocks[in], Settles: []string{}}
		for _, f := range r.Findings {
			if f.Status == StatusHypothesis && strings.HasPrefix(f.Settle, in+":") {
				m.Settles = append(m.Settles, f.ID+" ("+f.Title+"): "+strings.TrimSpace(strings.TrimPrefix(f.Settle, in+":")))
			}
		}
		out = append(out, m)
	}
	if e.in.Health != nil {
		for _, c := range e.in.Health.Checks {
			if c.Status == health.Skipped {
				for i := range out {
					if out[i].Input == InputProps {
						out[i].Skipped = append(out[i].Skipped, c.Name+": "+c.Summary)
					}
				}
			}
		}
	}
	return out
}
