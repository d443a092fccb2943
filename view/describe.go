package view

import (
	"slices"
	"sort"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/hudi/schema"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/redact"
	"github.com/hudiscope/hudiscope/model"
)

// Describe is what `hudiscope describe` shows of a table: hoodie.properties, the table
// configuration as the writing release names and defaults it, the latest writer schema and
// the schema history. Every value is redacted; none is escaped (the renderer does that).
type Describe struct {
	Name      string `json:"name"`
	TableType string `json:"tableType"`
	Version   int    `json:"tableVersion"`
	// WriterReleases are the Hudi release lines that write this table version
	// (config.WriterReleases); ReleaseCaveat says when the key data answers for a line from
	// another one.
	WriterReleases []string `json:"writerReleases"`
	ReleaseCaveat  string   `json:"releaseCaveat,omitempty"`
	// Properties is every hoodie.properties entry, sorted by key.
	Properties []DescribeProperty `json:"properties"`
	// Config is every table configuration key the writer releases define.
	Config []DescribeConfig `json:"config"`
	// Schema is the newest completed write's writer schema; nil when no write records one.
	Schema *DescribeSchema `json:"schema"`
	// History lists the writes that changed the writer schema (the first one recording a
	// schema first), in completion order, active and archived.
	History []SchemaVersion `json:"history"`
	// WritesRead counts the completed writes whose metadata was read; WritesWithoutSchema those
	// that record no schema (deletes, some 0.x writers) or could not be read.
	WritesRead          int `json:"writesRead"`
	WritesWithoutSchema int `json:"writesWithoutSchema"`
	// SchemaOnRead: some write recorded an internal schema (hoodie.schema.on.read.enable), so
	// column ids tell renames.
	SchemaOnRead bool `json:"schemaOnRead"`
	// SchemaFile is the schema-on-read history file read (.hoodie/.schema/…); "" when the
	// table has none. SchemaFileHistory are its versions that changed the columns, the first
	// one first (Initial), by version instant (the completion time when the timeline has it).
	SchemaFile        string          `json:"schemaFile,omitempty"`
	SchemaFileHistory []SchemaVersion `json:"schemaFileHistory,omitempty"`
	// Problems are writes whose metadata or schema text could not be read or parsed, by instant.
	Problems []string `json:"problems"`
}

// DescribeProperty is one hoodie.properties entry.
type DescribeProperty struct {
	Key string `json:"key"`
	// Value is redacted (internal/redact): a secret-looking key's value is masked.
	Value  string `json:"value"`
	Secret bool   `json:"secret,omitempty"`
	// Unknown: none of the writer releases defines this key.
	Unknown bool `json:"unknown,omitempty"`
}

// DescribeConfig is one table configuration key with the value that applies and its source.
type DescribeConfig struct {
	Key string `json:"key"`
	// Names are the key's names in the writer releases when one calls it otherwise
	// ("0.15: hoodie.table.precombine.field").
	Names []string `json:"names,omitempty"`
	// Value (redacted) and its Source: "hoodie.properties", "props", "cluster defaults",
	// "event log", "engine default" or "default" (the release's declared default, Origin
	// "Hudi 1.1/1.2"). Both "" when nothing applies: Note says why.
	Value  string `json:"value"`
	Source string `json:"source"`
	Origin string `json:"origin,omitempty"`
	// AltKey is the spelling the value was found under.
	AltKey string `json:"altKey,omitempty"`
	Note   string `json:"note,omitempty"`
}

// DescribeSchema is a writer schema with the write that recorded it.
type DescribeSchema struct {
	Instant InstantRef      `json:"instant"`
	Columns []schema.Column `json:"columns"`
}

// InstantRef names an instant.
type InstantRef struct {
	RequestedTime  string `json:"requestedTime"`
	CompletionTime string `json:"completionTime"`
	Action         string `json:"action"`
	Operation      string `json:"operation,omitempty"`
	Archived       bool   `json:"archived"`
}

// SchemaVersion is one write that changed the writer schema.
type SchemaVersion struct {
	Instant InstantRef `json:"instant"`
	// Initial marks the first write recording a schema: Changes is empty, Columns counts it.
	Initial bool `json:"initial"`
	Columns int  `json:"columns"`
	// Changes from the previous schema (schema.Diff).
	Changes []schema.Change `json:"changes"`
}

func refOf(in *timeline.Instant, ws timeline.WriterSchema) InstantRef {
	return InstantRef{RequestedTime: in.RequestedTime, CompletionTime: in.CompletionTime, Action: in.Action,
		Operation: ws.Operation, Archived: in.Archived}
}

// BuildDescribe builds the describe view of s from instants and the writer schemas read for
// them (model.Snapshot.WriterSchemas, same order).
func BuildDescribe(s *model.Snapshot, instants []*timeline.Instant, schemas []timeline.WriterSchema) *Describe {
	d := &Describe{Properties: []DescribeProperty{}, Config: []DescribeConfig{}, History: []SchemaVersion{}, Problems: []string{}}
	tc := s.Config
	if tc == nil {
		return d
	}
	d.Name, d.TableType, d.Version = tc.Name, tc.Type, tc.Version
	eff := s.Effective
	if eff == nil {
		eff = config.New(config.Input{Table: tc.Props})
	}
	_, pinned := eff.Supplied("hoodie.write.table.version")
	d.WriterReleases = config.WriterReleases(tc.Version, pinned)
	for _, r := range d.WriterReleases {
		if c := config.ReleaseCaveat(r); c != "" {
			d.ReleaseCaveat = c
		}
	}
	for _, k := range tc.SortedKeys() {
		d.Properties = append(d.Properties, DescribeProperty{Key: k, Value: redact.Value(k, tc.Props[k]),
			Secret: redact.IsSecret(k), Unknown: len(d.WriterReleases) > 0 && !config.KnownInAny(k, d.WriterReleases)})
	}
	d.Config = describeConfig(tc.Props, eff, d.WriterReleases)
	d.describeSchemas(s, instants, schemas)
	return d
}

// describeConfig lists the table configuration keys of releases (newest line's name first).
func describeConfig(props map[string]string, eff *config.Effective, releases []string) []DescribeConfig {
	newest := slices.Clone(releases)
	slices.Reverse(newest)
	seen := map[string]bool{}
	var keys []string
	for _, r := range newest {
		for _, k := range config.TableConfigKeys(r) {
			// one row per key: a key another (newer) line calls otherwise is that line's row
			canon := k
			for _, n := range newest {
				if name, ok := config.NameIn(k, n); ok {
					canon = name
					break
				}
			}
			if !seen[canon] {
				seen[canon] = true
				keys = append(keys, canon)
			}
		}
	}
	sort.Strings(keys)
	out := make([]DescribeConfig, 0, len(keys))
	for _, k := range keys {
		row := DescribeConfig{Key: k}
		var known []string
		spellings := []string{k}
		for _, r := range releases {
			info, ok := config.KeyIn(k, []string{r})
			if !ok {
				if name, ok2 := config.NameIn(k, r); ok2 {
					info, ok = config.Key(name, r)
				}
			}
			if !ok {
				continue
			}
			known = append(known, r)
			if info.Name != k {
				row.Names = append(row.Names, r+": "+info.Name)
			}
			spellings = append(spellings, info.Name)
			spellings = append(spellings, info.Alternatives...)
		}
		if len(known) < len(releases) {
			var missing []string
			for _, r := range releases {
				if !slices.Contains(known, r) {
					missing = append(missing, r)
				}
			}
			row.Note = "not a key of Hudi " + strings.Join(missing, "/")
		}
		found := false
		for _, sp := range spellings {
			if raw, ok := props[sp]; ok {
				row.Value, row.Source, row.Origin = redact.Value(k, raw), string(config.SourceTable), "hoodie.properties"
				if sp != k {
					row.AltKey = sp
				}
				found = true
				break
			}
		}
		if !found && len(known) > 0 {
			if v, ok, why := eff.WriterValue(k, known); ok {
				row.Value, row.Source, row.Origin, row.AltKey = v.Display(), string(v.Source), v.Origin, v.AltKey
			} else {
				row.Note = joinNote(row.Note, why)
			}
		}
		out = append(out, row)
	}
	return out
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + "; " + b
}

// describeSchemas walks the completed writes in completion order: each distinct schema text
// is parsed once, and a write whose text equals the previous one's is passed over unparsed.
func (d *Describe) describeSchemas(s *model.Snapshot, instants []*timeline.Instant, schemas []timeline.WriterSchema) {
	type write struct {
		in *timeline.Instant
		ws timeline.WriterSchema
	}
	var writes []write
	for i, in := range instants {
		if i >= len(schemas) || in.State != timeline.Completed || !timeline.IsWriteAction(in.Action) {
			continue
		}
		writes = append(writes, write{in, schemas[i]})
	}
	sort.SliceStable(writes, func(a, b int) bool { return completionLess(writes[a].in, writes[b].in) })
	type parsed struct {
		cols []schema.Column
		err  error
	}
	cache := map[[2]string]parsed{}
	var prev []schema.Column
	var prevKey [2]string
	var last write
	for _, w := range writes {
		d.WritesRead++
		if w.ws.Avro == "" {
			d.WritesWithoutSchema++
			if w.ws.Err != "" {
				d.Problems = append(d.Problems, w.in.RequestedTime+" "+w.in.Action+": "+w.ws.Err)
			}
			continue
		}
		if w.ws.Internal != "" {
			d.SchemaOnRead = true
		}
		key := [2]string{w.ws.Avro, w.ws.Internal}
		if prev != nil && key == prevKey {
			last = w
			continue
		}
		p, ok := cache[key]
		if !ok {
			p.cols, p.err = schema.Parse(w.ws.Avro)
			if p.err == nil && w.ws.Internal != "" {
				if ids, err := schema.InternalIDs(w.ws.Internal); err == nil {
					p.cols = schema.WithIDs(p.cols, ids)
				} else {
					d.Problems = append(d.Problems, w.in.RequestedTime+" "+w.in.Action+": "+err.Error())
				}
			}
			cache[key] = p
		}
		if p.err != nil {
			d.Problems = append(d.Problems, w.in.RequestedTime+" "+w.in.Action+": "+p.err.Error())
			continue
		}
		prevKey, last = key, w
		if prev == nil {
			d.History = append(d.History, SchemaVersion{Instant: refOf(w.in, w.ws), Initial: true, Columns: len(schema.WithoutMeta(p.cols)), Changes: []schema.Change{}})
			prev = p.cols
			continue
		}
		// Meta columns listed or not is no change; a flat schema from before schema-on-read
		// evolution gets the ids Hudi numbered it with, so its first rename tells.
		if ch := schema.Diff(schema.WithoutMeta(schema.InferIDs(prev, p.cols)), schema.WithoutMeta(p.cols)); len(ch) > 0 {
			d.History = append(d.History, SchemaVersion{Instant: refOf(w.in, w.ws), Columns: len(schema.WithoutMeta(p.cols)), Changes: ch})
		}
		prev = p.cols
	}
	if prev == nil {
		return
	}
	cols := prev
	if s.Config.Props["hoodie.populate.meta.fields"] != "false" {
		cols = schema.WithMeta(cols)
	}
	d.Schema = &DescribeSchema{Instant: refOf(last.in, last.ws), Columns: cols}
}

// completionLess orders completed instants by completion time, then requested time.
func completionLess(a, b *timeline.Instant) bool {
	if c := timeline.CompareInstants(a.CompletionTime, b.CompletionTime); c != 0 {
		return c < 0
	}
	return timeline.CompareInstants(a.RequestedTime, b.RequestedTime) < 0
}

// AddSchemaFile adds the versions of the schema-on-read history file at path (text, as
// model.Snapshot.SchemaHistoryFile read it) that changed the columns; instants give the
// versions' completion times. readErr is the error reading it, if any.
func (d *Describe) AddSchemaFile(path, text string, readErr error, instants []*timeline.Instant) {
	if readErr != nil {
		d.Problems = append(d.Problems, readErr.Error())
		return
	}
	if text == "" {
		return
	}
	d.SchemaFile = path
	versions, err := schema.InternalVersions(text)
	if err != nil {
		d.Problems = append(d.Problems, path+": "+err.Error())
		return
	}
	byReq := map[string]*timeline.Instant{}
	for _, in := range instants {
		if in.State == timeline.Completed && timeline.IsWriteAction(in.Action) {
			byReq[in.RequestedTime] = in
		}
	}
	d.SchemaFileHistory = []SchemaVersion{}
	var prev []schema.Column
	for i, v := range versions {
		ref := InstantRef{RequestedTime: v.VersionID}
		if in := byReq[v.VersionID]; in != nil {
			ref.CompletionTime, ref.Action, ref.Archived = in.CompletionTime, in.Action, in.Archived
		}
		cols := schema.WithoutMeta(v.Columns)
		if i == 0 {
			d.SchemaFileHistory = append(d.SchemaFileHistory, SchemaVersion{Instant: ref, Initial: true, Columns: len(cols), Changes: []schema.Change{}})
		} else if ch := schema.Diff(prev, cols); len(ch) > 0 {
			d.SchemaFileHistory = append(d.SchemaFileHistory, SchemaVersion{Instant: ref, Columns: len(cols), Changes: ch})
		}
		prev = cols
	}
}
