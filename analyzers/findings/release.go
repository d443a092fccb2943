package findings

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/config"
)

// Keys answers which writer config keys a Hudi release line defines, under which name and with
// which default. A row may only read or recommend a key the release that writes the table has.
type Keys interface {
	// ReleasesFor lists the release lines that write a table version, oldest first.
	ReleasesFor(tableVersion int) []string
	// Key is the key as a release line defines it (name may be an alternative spelling).
	Key(name, release string) (config.KeyInfo, bool)
	// NameIn is the release's name for a key another line calls name.
	NameIn(name, release string) (string, bool)
	// Latest is the newest release line the data covers.
	Latest() string
}

// ConfigKeys is the release key table of analyzers/config, with the Hudi streamer source keys
// (hudi-utilities, absent from the Spark bundles that table is read from) added.
type ConfigKeys struct{}

// streamerKeys are the source keys rows name, from hudi-utilities' KafkaSourceConfig and
// KinesisSourceConfig: since is the first line that has the key; alt the old spelling.
var streamerKeys = map[string]struct{ since, def, alt string }{
	"hoodie.streamer.source.kafka.minPartitions":               {"0.14", "0", "hoodie.deltastreamer.source.kafka.minPartitions"},
	"hoodie.streamer.kafka.source.maxEvents":                   {"0.14", "5000000", "hoodie.deltastreamer.kafka.source.maxEvents"},
	"hoodie.streamer.source.kafka.topic":                       {"0.14", "", "hoodie.deltastreamer.source.kafka.topic"},
	"hoodie.streamer.source.kinesis.get.records.interval.ms":   {"1.2", "200", ""},
	"hoodie.streamer.source.kinesis.max.records.per.request":   {"1.2", "10000", ""},
	"hoodie.streamer.source.kinesis.max.events":                {"1.2", "5000000", ""},
	"hoodie.streamer.source.kinesis.stream.name":               {"1.2", "", ""},
	"hoodie.streamer.source.kinesis.retry.initial.interval.ms": {"1.2", "1000", ""},
}

func streamerKey(name, release string) (config.KeyInfo, bool) {
	for k, s := range streamerKeys {
		if (k == name || (s.alt != "" && s.alt == name)) && config.CompareLines(release, s.since) >= 0 {
			ki := config.KeyInfo{Name: k, Release: release, Default: s.def, HasDefault: s.def != "", Since: s.since}
			if s.alt != "" {
				ki.Alternatives = []string{s.alt}
			}
			return ki, true
		}
	}
	return config.KeyInfo{}, false
}

func (ConfigKeys) ReleasesFor(v int) []string { return config.ReleaseForTableVersion(v) }
func (ConfigKeys) Latest() string             { return config.LatestRelease() }

func (ConfigKeys) Key(name, release string) (config.KeyInfo, bool) {
	if k, ok := config.Key(name, release); ok {
		return k, true
	}
	return streamerKey(name, release)
}

func (c ConfigKeys) NameIn(name, release string) (string, bool) {
	if n, ok := config.NameIn(name, release); ok {
		return n, true
	}
	if k, ok := streamerKey(name, release); ok {
		return k.Name, true
	}
	return "", false
}

// engineSince is the first release line whose builders override a key's declared default per
// engine; before it the declared default applies on every engine.
var engineSince = map[string]string{
	"hoodie.metadata.index.column.stats.enable": "1.0",
	"hoodie.metadata.index.secondary.enable":    "1.0",
	"hoodie.metadata.streaming.write.enabled":   "1.1",
}

// Release is the release context of an evaluation: the lines that write the table's version.
type Release struct {
	TableVersion int      `json:"tableVersion"` // 0 when unknown
	Lines        []string `json:"lines"`
	// Assumed: the table version is unknown, so the newest line is assumed.
	Assumed bool   `json:"assumed,omitempty"`
	Caveat  string `json:"caveat,omitempty"`
	// Narrowed says why only some of the lines that write the version are kept.
	Narrowed string `json:"narrowed,omitempty"`
}

// Words names the release for a sentence: "Hudi 0.12/0.13 (table version 5)".
func (r Release) Words() string {
	s := "Hudi " + strings.Join(r.Lines, "/")
	if r.TableVersion > 0 {
		s += fmt.Sprintf(" (table version %d)", r.TableVersion)
	}
	if r.Assumed {
		s += " (assumed: the table version is unknown)"
	}
	return s
}

func (e *env) release() Release {
	r := Release{}
	if e.facts != nil && e.facts.Version != nil {
		r.TableVersion = *e.facts.Version
		r.Lines = e.keysrc.ReleasesFor(r.TableVersion)
		if _, ok := e.keysrc.(ConfigKeys); ok {
			var cv []string
			for _, l := range r.Lines {
				if s := config.ReleaseCaveat(l); s != "" {
					cv = append(cv, s)
				}
			}
			r.Caveat = strings.Join(cv, "; ")
		}
	}
	if len(r.Lines) == 0 {
		r.Lines, r.Assumed = []string{e.keysrc.Latest()}, true
	}
	r.Lines, r.Narrowed = e.narrow(r.Lines)
	return r
}

// narrow keeps the lines that define every hoodie.* key the operator supplied, when some but
// not all do: a writer setting a key only Hudi 1.2 has is a 1.2 writer.
func (e *env) narrow(lines []string) ([]string, string) {
	if len(lines) < 2 || e.in.Config == nil {
		return lines, ""
	}
	for _, l := range e.in.Config.Layers {
		if l.Source != config.SourceProps && l.Source != config.SourceCluster {
			continue
		}
		keys := make([]string, 0, len(l.Values))
		for k := range l.Values {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if !strings.HasPrefix(k, "hoodie.") {
				continue
			}
			var keep []string
			for _, line := range lines {
				if _, ok := e.keysrc.Key(k, line); ok {
					keep = append(keep, line)
				}
			}
			if len(keep) > 0 && len(keep) < len(lines) {
				return keep, fmt.Sprintf("the writer sets %s, which only Hudi %s defines", k, strings.Join(keep, "/"))
			}
		}
	}
	return lines, ""
}

// keyVal is a key's value as the table's release reads it.
type keyVal struct {
	name     string // the release's name for the key ("" when it has none)
	raw      string
	found    bool // a value applies: supplied, in hoodie.properties, or a known default
	supplied bool // the operator supplied it (props, --hoodie-conf, cluster defaults)
	source   string
	why      string // why no value applies
	engine   bool   // the value is an engine-effective default
}

// releaseName is the table release's name for key: every line must have it, under one name.
func (e *env) releaseName(key string) (string, bool) {
	name := ""
	for _, l := range e.rel.Lines {
		n, ok := e.keysrc.NameIn(key, l)
		if !ok || (name != "" && n != name) {
			return "", false
		}
		name = n
	}
	return name, name != ""
}

// spellings are the names a release line accepts for its key name.
func (e *env) spellings(name string) []string {
	out := []string{name}
	for _, l := range e.rel.Lines {
		if k, ok := e.keysrc.Key(name, l); ok {
			for _, a := range append([]string{k.Name}, k.Alternatives...) {
				if !contains(out, a) {
					out = append(out, a)
				}
			}
		}
	}
	return out
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// val reads key through the table's release: a supplied value under any spelling the release
// accepts, then hoodie.properties, then the release's (engine-effective) default.
func (e *env) val(key string) keyVal {
	if !strings.HasPrefix(key, "hoodie.") {
		return e.otherVal(key)
	}
	name, ok := e.releaseName(key)
	if !ok {
		return keyVal{why: "not a key in " + e.rel.Words()}
	}
	kv := keyVal{name: name}
	if e.in.Config != nil {
		sp := e.spellings(name)
		for _, l := range e.in.Config.Layers {
			for _, k := range sp {
				if v, ok := l.Values[k]; ok {
					kv.raw, kv.found = v, true
					kv.supplied = l.Source == config.SourceProps || l.Source == config.SourceCluster
					kv.source = "set in " + config.Value{Source: l.Source, Origin: l.Origin}.SourceLabel()
					if k != key {
						kv.source += " as " + k
					}
					return kv
				}
			}
		}
	}
	def, known := "", true
	for i, l := range e.rel.Lines {
		k, ok := e.keysrc.Key(name, l)
		d := ""
		if ok && k.HasDefault {
			d = k.Default
		} else {
			known = false
		}
		if i > 0 && d != def {
			known = false
		}
		def = d
	}
	if ev, ok := e.engineDefault(name); ok {
		def, known, kv.engine = ev, true, true
	}
	if name == "hoodie.metadata.index.partition.stats.enable" {
		// In 1.0 the builder defaults partition stats to whatever column stats resolved to.
		if c := e.val("hoodie.metadata.index.column.stats.enable"); c.found {
			def, known, kv.engine = c.raw, true, c.engine
		}
	}
	if !known {
		kv.why = "no default common to " + e.rel.Words()
		return kv
	}
	kv.raw, kv.found = def, true
	kv.source = "you are on the default (" + e.rel.Words() + ")"
	if kv.engine {
		kv.source = "you are on the default: the " + e.engineName() + " engine-effective default (" + e.rel.Words() + ")"
	}
	return kv
}

func (e *env) engineName() string {
	if e.in.Config != nil && e.in.Config.Engine != "" {
		return e.in.Config.Engine
	}
	return "spark"
}

// engineDefault is the engine-effective default of key where every line of the release has
// the engine override.
func (e *env) engineDefault(key string) (string, bool) {
	if since, ok := engineSince[key]; ok {
		for _, l := range e.rel.Lines {
			if config.CompareLines(l, since) < 0 {
				return "", false
			}
		}
	}
	if e.in.Config == nil {
		return "", false
	}
	v, ok := e.in.Config.Default(key)
	if !ok || v.Source != config.SourceEngine {
		return "", false
	}
	return v.Raw, true
}

// otherVal is a non-hoodie key (spark.*): a supplied value, else the catalog's declared default.
func (e *env) otherVal(key string) keyVal {
	kv := keyVal{name: key}
	if e.in.Config != nil {
		if v, ok := e.in.Config.Supplied(key); ok {
			kv.raw, kv.found, kv.supplied, kv.source = v.Raw, true, true, "set in "+v.SourceLabel()
			return kv
		}
	}
	if d, ok := e.cat.Defaults[key]; ok {
		kv.raw, kv.found, kv.source = d, true, "you are on the default"
		return kv
	}
	kv.why = "not set, no known default"
	return kv
}

// substantive: the writer properties supply at least one hoodie.* key. An empty or
// Spark-only props file says nothing about the writer, so its defaults are not evidence.
func (e *env) substantive() bool {
	if !e.in.PropsPresent || e.in.Config == nil {
		return false
	}
	for _, l := range e.in.Config.Layers {
		if l.Source != config.SourceProps && l.Source != config.SourceCluster {
			continue
		}
		for k := range l.Values {
			if strings.HasPrefix(k, "hoodie.") {
				return true
			}
		}
	}
	return false
}

// ReleaseKey is a key the operator set that the release writing the table does not have:
// Hudi ignores it silently.
type ReleaseKey struct {
	Key    string `json:"key"`
	Origin string `json:"origin"`
	// Instead is the release's own name for the same setting, when it has one.
	Instead string `json:"instead,omitempty"`
	Lines   string `json:"lines"` // the release lines that do define it
	Says    string `json:"says"`
}

// releaseKeys lists supplied hoodie.* keys some release defines but the table's does not.
func (e *env) releaseKeys() []ReleaseKey {
	out := []ReleaseKey{}
	if e.in.Config == nil || e.rel.Assumed {
		return out
	}
	seen := map[string]bool{}
	for _, l := range e.in.Config.Layers {
		if l.Source != config.SourceProps && l.Source != config.SourceCluster {
			continue
		}
		for k := range l.Values {
			if !strings.HasPrefix(k, "hoodie.") || seen[k] {
				continue
			}
			seen[k] = true
			known := true
			for _, line := range e.rel.Lines {
				if _, ok := e.keysrc.Key(k, line); !ok {
					known = false
				}
			}
			if known {
				continue
			}
			var lines []string
			for _, r := range config.Releases() {
				if _, ok := e.keysrc.Key(k, r.Line); ok {
					lines = append(lines, r.Line)
				}
			}
			if len(lines) == 0 {
				continue // not a release key at all: the misspelling check's business
			}
			rk := ReleaseKey{Key: k, Origin: l.Origin, Lines: strings.Join(lines, ", ")}
			if rk.Origin == "" {
				rk.Origin = string(l.Source)
			}
			rk.Says = fmt.Sprintf("%s is a key of Hudi %s, not of %s, so this writer ignores it and the default applies", k, rk.Lines, e.rel.Words())
			if n, ok := e.releaseName(k); ok && n != k {
				rk.Instead = n
				rk.Says += "; this release calls it " + n
			}
			out = append(out, rk)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}
