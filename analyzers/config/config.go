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
	SourceProps    Source = "props"            // --props file or --hoodie-conf
	SourceCluster  Source = "cluster defaults" // hudi-defaults.conf
	SourceTable    Source = "table"            // hoodie.properties
	SourceEngine   Source = "engine default"   // engine-effective default (assets.EngineDefaults)
	SourceDeclared Source = "declared default" // ConfigProperty.defaultValue()
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
	if in.Table != nil {
		e.Layers = append(e.Layers, Layer{Source: SourceTable, Origin: "hoodie.properties", Values: in.Table})
	}
	return e
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

// Supplied returns the value the operator supplied for key (props, --hoodie-conf or cluster
// defaults), honouring alternative keys. This is what "present" means for the health checker's
// SKIPPED rule.
func (e *Effective) Supplied(key string) (Value, bool) {
	return e.find(key, SourceProps, SourceCluster)
}

// SuppliedExact is Supplied without alternative keys (Java's props.containsKey).
func (e *Effective) SuppliedExact(key string) (Value, bool) {
	for _, l := range e.Layers {
		if l.Source != SourceProps && l.Source != SourceCluster {
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
