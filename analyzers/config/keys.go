package config

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/hudiscope/hudiscope/assets"
)

// Release keys: which writer config keys each Hudi release line defines, under which name and
// with which default. A key is only worth reading or recommending if the release that writes
// the table knows it: keys were renamed (hoodie.clean.max.commits became
// hoodie.clean.trigger.max.commits in 1.0), added and dropped, and defaults changed.

// ReleaseInfo is one release line the key table covers.
type ReleaseInfo struct {
	Line         string `json:"line"`         // "0.12", "1.2"
	Version      string `json:"version"`      // the release read, "0.12.2"
	Bundle       string `json:"bundle"`       // the Spark bundle artifact read
	TableVersion int    `json:"tableVersion"` // the table version the release writes by default
	Keys         int    `json:"keys"`
}

// KeyInfo is one key as one release line defines it.
type KeyInfo struct {
	// Name is the release's canonical name; it differs from the name asked for when that was
	// an alternative (legacy) spelling.
	Name string
	// Release is the line whose data answered (an uncovered line is answered by a covered one,
	// see ReleaseLines).
	Release string
	// Default is the declared default; HasDefault is false when the key has none (Default "").
	Default    string
	HasDefault bool
	// Inferred: the writer may compute the value from other keys when it is not set, so
	// Default is not necessarily what applies.
	Inferred bool
	// DefaultNote documents a computed default (newer releases only).
	DefaultNote  string
	Alternatives []string
	Since        string // sinceVersion, when the release records it
	// Deprecated is the deprecatedAfter version, or "field" when the declaring field is only
	// annotated @Deprecated.
	Deprecated string
	// OtherDefaults are different defaults another declaration of the same key carries (a
	// datasource option re-exporting a writer config with its own default).
	OtherDefaults []string
	Classes       []string
}

type keyVariant struct {
	R     uint     `json:"r"`
	D     *string  `json:"d"`
	Alt   []string `json:"alt"`
	Since string   `json:"since"`
	Dep   string   `json:"dep"`
	Inf   bool     `json:"inf"`
	DN    string   `json:"dn"`
	OD    []string `json:"od"`
	Cls   []string `json:"cls"`
}

type keyTable struct {
	releases []ReleaseInfo
	index    map[string]int        // line → position in releases
	keys     []map[string]*KeyInfo // per release: canonical name → info
	alts     []map[string][]string // per release: alternative spelling → canonical names
}

var (
	keysOnce sync.Once
	keysData *keyTable
	keysErr  error
)

func table() *keyTable {
	keysOnce.Do(func() { keysData, keysErr = parseKeys(assets.HudiConfigKeys) })
	if keysErr != nil {
		panic("assets/hudi_config_keys.json: " + keysErr.Error())
	}
	return keysData
}

func parseKeys(b []byte) (*keyTable, error) {
	var raw struct {
		Releases []ReleaseInfo           `json:"releases"`
		Keys     map[string][]keyVariant `json:"keys"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	t := &keyTable{releases: raw.Releases, index: map[string]int{}}
	for i, r := range raw.Releases {
		t.index[r.Line] = i
		t.keys = append(t.keys, map[string]*KeyInfo{})
		t.alts = append(t.alts, map[string][]string{})
	}
	for name, vs := range raw.Keys {
		for _, v := range vs {
			for i := range raw.Releases {
				if v.R&(1<<i) == 0 {
					continue
				}
				if t.keys[i][name] != nil {
					return nil, fmt.Errorf("key %s: two variants for release %s", name, raw.Releases[i].Line)
				}
				k := &KeyInfo{Name: name, Release: raw.Releases[i].Line, Alternatives: v.Alt, Since: v.Since,
					Deprecated: v.Dep, Inferred: v.Inf, DefaultNote: v.DN, OtherDefaults: v.OD, Classes: v.Cls}
				if v.D != nil {
					k.Default, k.HasDefault = *v.D, true
				}
				t.keys[i][name] = k
				for _, a := range v.Alt {
					t.alts[i][a] = append(t.alts[i][a], name)
				}
			}
		}
	}
	for _, m := range t.alts {
		for _, names := range m {
			sort.Strings(names)
		}
	}
	return t, nil
}

// uncovered are release lines that wrote tables but have no bundle in the data; their keys
// are answered by the nearest covered line (0.11 by 0.12 is a guess: 0.12 added keys).
var uncovered = map[string]struct {
	tableVersion int
	answeredBy   string
}{
	"0.11": {4, "0.12"},
	"0.13": {5, "0.12"},
}

// Releases lists the covered release lines, oldest first.
func Releases() []ReleaseInfo {
	return append([]ReleaseInfo(nil), table().releases...)
}

// LatestRelease is the newest covered release line.
func LatestRelease() string {
	rs := table().releases
	return rs[len(rs)-1].Line
}

// ReleaseForTableVersion lists the release lines that write table version v by default,
// oldest first, covered or not ("0.11" for v4, "0.12"/"0.13" for v5); nil for a version no
// released line writes. A 1.x writer can also keep writing an older table version
// (hoodie.write.table.version): see WriterReleases.
func ReleaseForTableVersion(v int) []string {
	var out []string
	for _, r := range table().releases {
		if r.TableVersion == v {
			out = append(out, r.Line)
		}
	}
	for line, u := range uncovered {
		if u.tableVersion == v {
			out = append(out, line)
		}
	}
	sortLines(out)
	return out
}

// WriterReleases are the release lines that may have written a table of version v: those
// that write it by default, and, when the writer set hoodie.write.table.version, the newer
// lines that accept that key and can still write v.
func WriterReleases(v int, writeVersionSet bool) []string {
	out := ReleaseForTableVersion(v)
	if !writeVersionSet {
		return out
	}
	have := map[string]bool{}
	for _, l := range out {
		have[l] = true
	}
	for _, r := range table().releases {
		if !have[r.Line] && r.TableVersion > v && KnownIn("hoodie.write.table.version", r.Line) {
			out = append(out, r.Line)
		}
	}
	sortLines(out)
	return out
}

// ReleaseCaveat says how far the key data for a release line can be trusted: "" for a covered
// line, otherwise which line answers for it.
func ReleaseCaveat(line string) string {
	t := table()
	if _, ok := t.index[line]; ok {
		return ""
	}
	if u, ok := uncovered[line]; ok {
		return fmt.Sprintf("no Hudi %s bundle in the key data; its keys are taken as %s's", line, u.answeredBy)
	}
	return fmt.Sprintf("Hudi %s is not in the key data", line)
}

// dataIndex is the position in the data of the line answering for line, or -1.
func (t *keyTable) dataIndex(line string) int {
	if i, ok := t.index[line]; ok {
		return i
	}
	if u, ok := uncovered[line]; ok {
		return t.index[u.answeredBy]
	}
	return -1
}

// Key looks a key up in a release line: by its canonical name there, or by an alternative
// spelling that line still accepts (then Name is the canonical one). An uncovered line is
// answered by the line ReleaseCaveat names.
func Key(name, release string) (KeyInfo, bool) {
	t := table()
	i := t.dataIndex(release)
	if i < 0 {
		return KeyInfo{}, false
	}
	if k := t.keys[i][name]; k != nil {
		return *k, true
	}
	if names := t.alts[i][name]; len(names) > 0 {
		return *t.keys[i][names[0]], true
	}
	return KeyInfo{}, false
}

// KnownIn says whether release line accepts name, as a key or an alternative spelling.
func KnownIn(name, release string) bool {
	_, ok := Key(name, release)
	return ok
}

// KnownInAny says whether any of the release lines accepts name.
func KnownInAny(name string, releases []string) bool {
	for _, r := range releases {
		if KnownIn(name, r) {
			return true
		}
	}
	return false
}

// KeyIn looks name up in the first of releases that accepts it (pass the newest first to get
// the newest name and default).
func KeyIn(name string, releases []string) (KeyInfo, bool) {
	for _, r := range releases {
		if k, ok := Key(name, r); ok {
			return k, true
		}
	}
	return KeyInfo{}, false
}

// KeyLines lists the covered release lines that accept name, oldest first; nil for a key no
// covered release defines.
func KeyLines(name string) []string {
	var out []string
	for _, r := range table().releases {
		if KnownIn(name, r.Line) {
			out = append(out, r.Line)
		}
	}
	return out
}

// KeysOf lists every spelling release line accepts (canonical names and alternatives), sorted.
func KeysOf(release string) []string {
	t := table()
	i := t.dataIndex(release)
	if i < 0 {
		return nil
	}
	out := make([]string, 0, len(t.keys[i])+len(t.alts[i]))
	for k := range t.keys[i] {
		out = append(out, k)
	}
	for a := range t.alts[i] {
		if t.keys[i][a] == nil {
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out
}

// NameIn is what release line calls the key another line calls name: the same key under its
// canonical name there, or the key there that lists name as an alternative, or the key of a
// line that lists an alternative the release defines (a rename seen from the newer side).
func NameIn(name, release string) (string, bool) {
	if k, ok := Key(name, release); ok {
		return k.Name, true
	}
	t := table()
	i := t.dataIndex(release)
	if i < 0 {
		return "", false
	}
	for j := range t.releases {
		k := t.keys[j][name]
		if k == nil {
			if names := t.alts[j][name]; len(names) > 0 {
				k = t.keys[j][names[0]]
			}
		}
		if k == nil {
			continue
		}
		for _, a := range append([]string{k.Name}, k.Alternatives...) {
			if x := t.keys[i][a]; x != nil {
				return x.Name, true
			}
		}
	}
	return "", false
}

// CompareLines orders release lines ("0.12" < "0.15" < "1.0"); unparsable lines sort last.
func CompareLines(a, b string) int {
	pa, pb := parseLine(a), parseLine(b)
	for i := range pa {
		if pa[i] != pb[i] {
			if pa[i] < pb[i] {
				return -1
			}
			return 1
		}
	}
	return strings.Compare(a, b)
}

func parseLine(l string) [2]int {
	maj, mi, _ := strings.Cut(l, ".")
	x, err1 := strconv.Atoi(maj)
	y, err2 := strconv.Atoi(mi)
	if err1 != nil || err2 != nil {
		return [2]int{1 << 30, 0}
	}
	return [2]int{x, y}
}

func sortLines(ls []string) {
	sort.Slice(ls, func(i, j int) bool { return CompareLines(ls[i], ls[j]) < 0 })
}

// tableConfigClass declares the keys hoodie.properties holds.
const tableConfigClass = "org.apache.hudi.common.table.HoodieTableConfig"

// TableConfigKeys lists the canonical names of the table configuration keys (those
// HoodieTableConfig declares, the keys of hoodie.properties) release line defines, sorted; nil
// for a line not in the key data.
func TableConfigKeys(release string) []string {
	t := table()
	i := t.dataIndex(release)
	if i < 0 {
		return nil
	}
	var out []string
	for name, k := range t.keys[i] {
		for _, c := range k.Classes {
			if c == tableConfigClass {
				out = append(out, name)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}
