// Package config computes the effective writer configuration of a Hudi table: the operator's
// writer properties (--props file and --hoodie-conf), the cluster-wide hudi-defaults.conf,
// hoodie.properties, the engine-effective defaults (Spark, Flink, Java) and the declared
// defaults, in that order of precedence. Every value knows where it came from, and secrets are
// redacted wherever a value is displayed or exported.
package config

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/hudiscope/hudiscope/assets"
	"github.com/hudiscope/hudiscope/internal/redact"
)

// Source says where an effective value came from, highest precedence first.
type Source string

const (
	SourceProps   Source = "props"            // --props file or --hoodie-conf
	SourceCluster Source = "cluster defaults" // hudi-defaults.conf
	// SourceEventLog is a hoodie.* key in the Spark event log's Spark Properties: the
	// application that wrote the table ran with it.
	SourceEventLog Source = "event log"
	SourceTable    Source = "table"            // hoodie.properties
	SourceEngine   Source = "engine default"   // engine-effective default (assets.EngineDefaults)
	SourceDeclared Source = "declared default" // ConfigProperty.defaultValue()
	// SourceRelease is the default of the Hudi release that writes the table, applied to a key
	// the writer properties leave unset (Origin names the release: "Hudi 1.2").
	SourceRelease Source = "default"
)

// Engines hudiscope knows engine-effective defaults for.
var Engines = []string{"spark", "flink", "java"}

// Value is one effective configuration value.
type Value struct {
	Key string `json:"key"`
	// Raw is the value as configured. Never print it: use Display (redacted).
	Raw    string `json:"-"`
	Source Source `json:"source"`
	// Origin details the source: the props file path, "--hoodie-conf", the cluster defaults
	// file, hoodie.properties, or the engine name.
	Origin string `json:"origin,omitempty"`
	// AltKey is the spelling the value was found under when it is an alternative key.
	AltKey string `json:"altKey,omitempty"`
	Secret bool   `json:"secret,omitempty"`
}

// Display is the value as it may be shown or exported: secrets redacted, credentials embedded in
// URIs stripped.
func (v Value) Display() string { return redact.Value(v.Key, v.Raw) }

// MarshalJSON exports the value redacted.
func (v Value) MarshalJSON() ([]byte, error) {
	type out struct {
		Key    string `json:"key"`
		Value  string `json:"value"`
		Source Source `json:"source"`
		Origin string `json:"origin,omitempty"`
		AltKey string `json:"altKey,omitempty"`
		Secret bool   `json:"secret,omitempty"`
	}
	return json.Marshal(out{v.Key, v.Display(), v.Source, v.Origin, v.AltKey, v.Secret})
}

// SourceLabel is a short "source" string for panes and text output, e.g. "props (w.properties)".
func (v Value) SourceLabel() string {
	if v.Source == SourceRelease {
		// "Hudi 1.2 default": the release whose default it is, marked as a default.
		return v.Origin + " " + string(SourceRelease)
	}
	if v.Origin == "" {
		return string(v.Source)
	}
	return string(v.Source) + " (" + v.Origin + ")"
}

// Layer is one set of key/values from one source.
type Layer struct {
	Source Source
	Origin string
	Values map[string]string
}

// Effective is the merged configuration.
type Effective struct {
	Engine string
	// Layers in precedence order (highest first): --hoodie-conf, props file, cluster defaults,
	// hoodie.properties. Engine and declared defaults come from the embedded assets.
	Layers []Layer
	// Problems met while building (unknown engine, bad --hoodie-conf entries).
	Problems []string
}

type knownConfig struct {
	Key          string   `json:"key"`
	Default      string   `json:"default"`
	Alternatives []string `json:"alternatives"`
}

type engineDefault struct {
	Key      string  `json:"key"`
	Declared *string `json:"declared"`
	Spark    *string `json:"spark"`
	Flink    *string `json:"flink"`
	Java     *string `json:"java"`
}

var (
	known       = map[string]knownConfig{}
	altOf       = map[string]string{} // alternative key → primary key
	engineTable = map[string]engineDefault{}
)

func init() {
	var kc struct {
		Configs []knownConfig `json:"configs"`
	}
	if err := json.Unmarshal(assets.KnownConfigs, &kc); err != nil {
		panic("assets/known_configs.json: " + err.Error())
	}
	for _, c := range kc.Configs {
		known[c.Key] = c
		for _, a := range c.Alternatives {
			altOf[a] = c.Key
		}
	}
	var ed struct {
		Defaults []engineDefault `json:"defaults"`
	}
	if err := json.Unmarshal(assets.EngineDefaults, &ed); err != nil {
		panic("assets/engine_defaults.json: " + err.Error())
	}
	for _, d := range ed.Defaults {
		engineTable[d.Key] = d
	}
}

// Input is what New merges. Files are read by the caller (see LoadFiles).
type Input struct {
	Engine     string            // spark (default), flink or java
	HoodieConf []string          // k=v, later entries win
	Props      map[string]string // parsed --props file
	PropsFile  string            // its path, for Origin
	Cluster    map[string]string // parsed hudi-defaults.conf
	ClusterSrc string            // its path
	EventLog   map[string]string // hoodie.* keys of the event log's Spark Properties
	EventLogID string            // the event log, for Origin
	Table      map[string]string // hoodie.properties
}

// New merges the layers. It does no I/O.
func New(in Input) *Effective {
	e := &Effective{Engine: strings.ToLower(strings.TrimSpace(in.Engine))}
	if e.Engine == "" {
		e.Engine = "spark"
	}
	if !validEngine(e.Engine) {
		e.Problems = append(e.Problems, fmt.Sprintf("unknown engine %q (known: %s); using declared defaults only", e.Engine, strings.Join(Engines, ", ")))
	}
	if len(in.HoodieConf) > 0 {
		l := Layer{Source: SourceProps, Origin: "--hoodie-conf", Values: map[string]string{}}
		for _, kv := range in.HoodieConf {
			k, v, ok := strings.Cut(kv, "=")
			k = strings.TrimSpace(k)
			if !ok || k == "" {
				e.Problems = append(e.Problems, fmt.Sprintf("--hoodie-conf %q is not key=value", redact.Value("", kv)))
				continue
			}
			l.Values[k] = strings.TrimSpace(v)
		}
		e.Layers = append(e.Layers, l)
	}
	if in.Props != nil {
		e.Layers = append(e.Layers, Layer{Source: SourceProps, Origin: in.PropsFile, Values: in.Props})
	}
	if in.Cluster != nil {
		e.Layers = append(e.Layers, Layer{Source: SourceCluster, Origin: in.ClusterSrc, Values: in.Cluster})
	}
	if l, ok := eventLogLayer(in.EventLog, in.EventLogID); ok {
		e.Layers = append(e.Layers, l)
	}
	if in.Table != nil {
		e.Layers = append(e.Layers, Layer{Source: SourceTable, Origin: "hoodie.properties", Values: in.Table})
	}
	return e
}

func eventLogLayer(props map[string]string, origin string) (Layer, bool) {
	l := Layer{Source: SourceEventLog, Origin: origin, Values: map[string]string{}}
	for k, v := range props {
		if strings.HasPrefix(k, "hoodie.") {
			l.Values[k] = v
		}
	}
	return l, len(l.Values) > 0
}

// WithEventLog is e with the hoodie.* keys of an event log's Spark Properties as a layer below
// the cluster defaults and above hoodie.properties (the explorer reads the event log after the
// configuration); e itself when props has none.
func (e *Effective) WithEventLog(props map[string]string, origin string) *Effective {
	l, ok := eventLogLayer(props, origin)
	if !ok {
		return e
	}
	c := *e
	c.Layers = nil
	added := false
	for _, x := range e.Layers {
		if x.Source == SourceEventLog {
			continue
		}
		if !added && x.Source == SourceTable {
			c.Layers, added = append(c.Layers, l), true
		}
		c.Layers = append(c.Layers, x)
	}
	if !added {
		c.Layers = append(c.Layers, l)
	}
	return &c
}

func validEngine(e string) bool {
	for _, x := range Engines {
		if x == e {
			return true
		}
	}
	return false
}

// keys returns the spellings a key may be supplied under: itself, its primary key and every
// alternative of that primary.
func keys(key string) []string {
	primary := key
	if p, ok := altOf[key]; ok {
		primary = p
	}
	out := []string{primary}
	return append(out, known[primary].Alternatives...)
}

func (e *Effective) find(key string, sources ...Source) (Value, bool) {
	for _, l := range e.Layers {
		if len(sources) > 0 && !hasSource(sources, l.Source) {
			continue
		}
		for _, k := range keys(key) {
			if v, ok := l.Values[k]; ok {
				val := Value{Key: key, Raw: v, Source: l.Source, Origin: l.Origin, Secret: redact.IsSecret(key) || redact.IsSecret(k)}
				if k != key {
					val.AltKey = k
				}
				return val, true
			}
		}
	}
	return Value{}, false
}

func hasSource(list []Source, s Source) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Supplied returns the value the operator supplied for key (props, --hoodie-conf, cluster
// defaults or the event log's Spark Properties), honouring alternative keys. This is what
// "present" means for the health checker's SKIPPED rule.
func (e *Effective) Supplied(key string) (Value, bool) {
	return e.find(key, suppliedSources...)
}

// suppliedSources are the layers the operator (or the writing application) set: what
// Supplied, SuppliedExact and the release defaults count as given.
var suppliedSources = []Source{SourceProps, SourceCluster, SourceEventLog}

// supplied: a layer the operator (or the writing application) set.
func supplied(s Source) bool { return hasSource(suppliedSources, s) }

// SuppliedExact is Supplied without alternative keys (Java's props.containsKey).
func (e *Effective) SuppliedExact(key string) (Value, bool) {
	for _, l := range e.Layers {
		if !supplied(l.Source) {
			continue
		}
		if v, ok := l.Values[key]; ok {
			return Value{Key: key, Raw: v, Source: l.Source, Origin: l.Origin, Secret: redact.IsSecret(key)}, true
		}
	}
	return Value{}, false
}

// Default is the value Hudi would use with nothing supplied: the engine-effective default for
// this engine if assets.EngineDefaults has one, else the declared default.
func (e *Effective) Default(key string) (Value, bool) {
	primary := key
	if p, ok := altOf[key]; ok {
		primary = p
	}
	if d, ok := engineTable[primary]; ok {
		var v *string
		switch e.Engine {
		case "spark":
			v = d.Spark
		case "flink":
			v = d.Flink
		case "java":
			v = d.Java
		}
		if v != nil {
			return Value{Key: key, Raw: *v, Source: SourceEngine, Origin: e.Engine, Secret: redact.IsSecret(key)}, true
		}
		if d.Declared != nil {
			return Value{Key: key, Raw: *d.Declared, Source: SourceDeclared, Secret: redact.IsSecret(key)}, true
		}
	}
	if k, ok := known[primary]; ok {
		return Value{Key: key, Raw: k.Default, Source: SourceDeclared, Secret: redact.IsSecret(key)}, true
	}
	return Value{}, false
}

// DeclaredDefault is ConfigProperty.defaultValue() only (what Java's checker applies).
func DeclaredDefault(key string) (string, bool) {
	primary := key
	if p, ok := altOf[key]; ok {
		primary = p
	}
	if d, ok := engineTable[primary]; ok && d.Declared != nil {
		return *d.Declared, true
	}
	if k, ok := known[primary]; ok {
		return k.Default, true
	}
	return "", false
}

// ReleaseValue is the value a writer of release line (e.g. "1.2") runs with for key when the
// writer properties were given: the value supplied under any spelling that release accepts
// (its own name for the key, that name's alternatives, and key itself when it accepts it), else the engine-effective
// default where this engine overrides the declared one, else the release's declared default
// (Source SourceRelease). Keys are renamed between lines (hoodie.clean.max.commits in 0.x is
// hoodie.clean.trigger.max.commits in 1.x), so the name is the release's. ok is false with a
// reason when the release has no such key or declares no default for it.
func (e *Effective) ReleaseValue(key, release string) (v Value, ok bool, reason string) {
	name, known := NameIn(key, release)
	// key itself counts only when the release accepts that spelling: 0.14 silently ignores
	// 1.x's hoodie.clean.trigger.max.commits, so its value is not what the writer ran with.
	var spellings []string
	if !known || KnownIn(key, release) {
		spellings = []string{key}
	}
	var info KeyInfo
	if known {
		info, _ = Key(name, release)
		spellings = append(spellings, name)
		spellings = append(spellings, info.Alternatives...)
	}
	for _, l := range e.Layers {
		if !supplied(l.Source) {
			continue
		}
		for _, k := range spellings {
			if raw, found := l.Values[k]; found {
				v = Value{Key: key, Raw: raw, Source: l.Source, Origin: l.Origin, Secret: redact.IsSecret(key) || redact.IsSecret(k)}
				if k != key {
					v.AltKey = k
				}
				return v, true, ""
			}
		}
	}
	if !known {
		return Value{}, false, fmt.Sprintf("Hudi %s, which writes this table, has no key '%s'", release, key)
	}
	if d, found := e.Default(key); found && d.Source == SourceEngine {
		return d, true, ""
	}
	if !info.HasDefault {
		return Value{}, false, fmt.Sprintf("Hudi %s declares no default for '%s'", release, name)
	}
	v = Value{Key: key, Raw: info.Default, Source: SourceRelease, Origin: "Hudi " + release, Secret: redact.IsSecret(key)}
	if name != key {
		v.AltKey = name
	}
	return v, true, ""
}

// WriterValue is ReleaseValue for a table that any of releases may have written (a table
// version is written by more than one line): a supplied value under a spelling any of them
// accepts, else their default when every line declares the same one (Origin "Hudi 0.12/0.13").
// Lines that disagree, or one that lacks the key, leave it without a value and say so.
func (e *Effective) WriterValue(key string, releases []string) (Value, bool, string) {
	var vals []Value
	for _, r := range releases {
		v, ok, why := e.ReleaseValue(key, r)
		if !ok {
			return Value{}, false, why
		}
		if v.Source != SourceRelease {
			return v, true, ""
		}
		vals = append(vals, v)
	}
	if len(vals) == 0 {
		return Value{}, false, "the release that writes this table is not known"
	}
	v := vals[0]
	for _, x := range vals[1:] {
		if x.Raw != v.Raw {
			return Value{}, false, fmt.Sprintf("the releases that may write this table declare different defaults for it (%s %s, %s %s)",
				v.Origin, v.Raw, x.Origin, x.Raw)
		}
	}
	v.Origin = "Hudi " + strings.Join(releases, "/")
	return v, true, ""
}

// Lookup is the effective value of key through the whole chain.
func (e *Effective) Lookup(key string) (Value, bool) {
	if v, ok := e.find(key); ok {
		return v, true
	}
	return e.Default(key)
}

// Get is Lookup's raw value, or "" when nothing applies.
func (e *Effective) Get(key string) string {
	v, _ := e.Lookup(key)
	return v.Raw
}

// All lists every explicitly set key (all layers) plus every known key's default, sorted by key,
// each with its effective value and source.
func (e *Effective) All() []Value {
	seen := map[string]bool{}
	var out []Value
	add := func(k string) {
		if seen[k] {
			return
		}
		seen[k] = true
		if v, ok := e.Lookup(k); ok {
			out = append(out, v)
		}
	}
	for _, l := range e.Layers {
		for k := range l.Values {
			if p, ok := altOf[k]; ok {
				add(p)
				continue
			}
			add(k)
		}
	}
	for k := range known {
		add(k)
	}
	for k := range engineTable {
		add(k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// MarshalJSON exports the effective configuration (redacted) with its sources.
func (e *Effective) MarshalJSON() ([]byte, error) {
	type out struct {
		Engine   string   `json:"engine"`
		Values   []Value  `json:"values"`
		Problems []string `json:"problems,omitempty"`
	}
	return json.Marshal(out{e.Engine, e.All(), e.Problems})
}
