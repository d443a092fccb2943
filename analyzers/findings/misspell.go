package findings

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/config"
)

// Kinds of KeyProblem.
const (
	// KeyMisspelled: no release defines the key, and a key of the table's release is within
	// edit distance 2.
	KeyMisspelled = "misspelled"
	// KeyNewer: the key exists, but only in a release newer than the one that wrote the table.
	KeyNewer = "newer"
	// KeyRemoved: the key exists only in releases older than the one that wrote the table.
	KeyRemoved = "removed"
)

// KeyProblem is a hoodie.* key the operator supplied that the release writing the table does
// not know: Hudi ignores unknown keys silently, so the default applies and nobody is told.
type KeyProblem struct {
	Key    string `json:"key"`
	Origin string `json:"origin"`
	Kind   string `json:"kind"`
	// Suggest is the key meant: the nearest key for a misspelling, the writing release's name
	// for a renamed key (empty when it has none).
	Suggest string `json:"suggest,omitempty"`
	// Near is the other release's key a typo is closest to, when Suggest is the writing
	// release's name for it; Distance is the edit distance to Near, else to Suggest.
	Near     string `json:"near,omitempty"`
	Distance int    `json:"distance,omitempty"`
	// Releases are the lines that write the table ("0.14/0.15"), empty when the table version
	// is unknown; In the covered lines that do define the key (newer, removed).
	Releases string   `json:"releases,omitempty"`
	In       []string `json:"in,omitempty"`
	// Caveat is set when a writing line has no bundle in the key data (0.11, 0.13).
	Caveat string `json:"caveat,omitempty"`
	// Text is one sentence for the report.
	Text string `json:"text"`
}

// misspellings are the KeyMisspelled problems; keys that exist in another release are not
// typos (see CheckKeys for those).
func misspellings(eff *config.Effective, cat *Catalog) []Misspelling {
	out := []Misspelling{}
	for _, p := range cat.CheckKeys(eff) {
		if p.Kind == KeyMisspelled {
			out = append(out, Misspelling{Key: p.Key, Origin: p.Origin, Suggest: p.Suggest, Distance: p.Distance})
		}
	}
	return out
}

// tableRelease is the release lines that may have written the table, read from the table's
// hoodie.properties layer (nil when absent) and whether the writer pinned an older table
// version (a 1.x writer keeping a v6 or v8 table).
func tableRelease(eff *config.Effective) []string {
	v, pinned := -1, false
	for _, l := range eff.Layers {
		switch l.Source {
		case config.SourceTable:
			if n, err := strconv.Atoi(strings.TrimSpace(l.Values["hoodie.table.version"])); err == nil {
				v = n
			}
		case config.SourceProps, config.SourceCluster:
			if _, ok := l.Values["hoodie.write.table.version"]; ok {
				pinned = true
			}
		}
	}
	if v < 0 {
		return nil
	}
	return config.WriterReleases(v, pinned)
}

// CheckKeys lists the operator's hoodie.* keys (props file, --hoodie-conf, cluster defaults)
// that do nothing in the release that wrote the table: misspelled, only in a newer release, or
// dropped before it. Without a table version every covered release counts, so a real key of
// any release is never called a typo.
func (c *Catalog) CheckKeys(eff *config.Effective) []KeyProblem {
	out := []KeyProblem{}
	if eff == nil {
		return out
	}
	lines := tableRelease(eff)
	covered := []string{}
	for _, r := range config.Releases() {
		covered = append(covered, r.Line)
	}
	check := lines
	if len(check) == 0 {
		check = covered
	}
	var caveats []string
	for _, r := range lines {
		if cv := config.ReleaseCaveat(r); cv != "" {
			caveats = append(caveats, cv)
		}
	}
	var cands, allCands []string // built on the first unknown key
	seen := map[string]bool{}
	for _, l := range eff.Layers {
		if l.Source != config.SourceProps && l.Source != config.SourceCluster {
			continue
		}
		for k := range l.Values {
			if !strings.HasPrefix(k, "hoodie.") || seen[k] {
				continue
			}
			seen[k] = true
			if config.KnownInAny(k, check) {
				continue
			}
			origin := l.Origin
			if origin == "" {
				origin = string(l.Source)
			}
			p := KeyProblem{Key: k, Origin: origin, Releases: strings.Join(lines, "/"), Caveat: strings.Join(caveats, "; ")}
			if in := config.KeyLines(k); len(in) > 0 {
				// A real key of another release: the writer's release ignores it.
				p.In, p.Kind = in, KeyRemoved
				if config.CompareLines(in[len(in)-1], check[len(check)-1]) > 0 {
					p.Kind = KeyNewer
				}
				for _, r := range check {
					if n, ok := config.NameIn(k, r); ok {
						p.Suggest = n
						break
					}
				}
				p.Text = keyText(p)
				out = append(out, p)
				continue
			}
			if c.Known[k] {
				continue // a key the release table does not carry (Streamer sources, prefixes)
			}
			if cands == nil {
				cands = candidates(c, check)
			}
			best, d := nearest(k, cands)
			if best == "" {
				// A typo of another release's name: suggest what the writing release calls it.
				if allCands == nil {
					allCands = candidates(c, covered)
				}
				if other, od := nearest(k, allCands); other != "" {
					best, d = other, od
					for _, r := range check {
						if n, ok := config.NameIn(other, r); ok && n != other {
							best, p.Near = n, other
							break
						}
					}
				}
			}
			if best != "" {
				p.Kind, p.Suggest, p.Distance = KeyMisspelled, best, d
				p.Text = keyText(p)
				out = append(out, p)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// candidates are the keys a misspelling is matched against: every spelling the writing
// releases accept, and the catalog's known keys the release table does not carry at all.
func candidates(c *Catalog, lines []string) []string {
	set := map[string]bool{}
	for _, r := range lines {
		for _, k := range config.KeysOf(r) {
			if strings.HasPrefix(k, "hoodie.") {
				set[k] = true
			}
		}
	}
	for k := range c.Known {
		if config.KeyLines(k) == nil {
			set[k] = true
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// nearest is the candidate within edit distance 2 of k (ties: the smallest name), or "".
func nearest(k string, cands []string) (string, int) {
	best, bestD := "", 3
	for _, c := range cands {
		if abs(len(c)-len(k)) >= bestD {
			continue
		}
		if d := editDistance(k, c, bestD); d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	if best == "" || bestD > 2 {
		return "", 0
	}
	return best, bestD
}

func keyText(p KeyProblem) string {
	rel := "Hudi " + p.Releases
	if p.Releases == "" {
		rel = "any Hudi release"
	}
	switch p.Kind {
	case KeyMisspelled:
		if p.Near != "" {
			return fmt.Sprintf("%s does nothing in %s; did you mean %s (%s in later releases)?", p.Key, rel, p.Suggest, p.Near)
		}
		return fmt.Sprintf("%s does nothing in %s; did you mean %s?", p.Key, rel, p.Suggest)
	case KeyNewer, KeyRemoved:
		when := "last in Hudi " + p.In[len(p.In)-1]
		if p.Kind == KeyNewer {
			for _, l := range p.In {
				if config.CompareLines(l, lastLine(p.Releases)) > 0 {
					when = "from Hudi " + l
					break
				}
			}
		}
		s := fmt.Sprintf("%s is not in %s (%s), which wrote this table: it does nothing", p.Key, rel, when)
		if p.Suggest != "" && p.Suggest != p.Key {
			s += fmt.Sprintf("; there it is %s", p.Suggest)
		}
		return s
	}
	return ""
}

func lastLine(releases string) string {
	ls := strings.Split(releases, "/")
	return ls[len(ls)-1]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// editDistance is the Levenshtein distance of a and b, or limit when it is at least limit.
func editDistance(a, b string, limit int) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}
