package findings

import (
	"sort"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/config"
)

// misspellings lists hoodie.* keys the operator supplied (props file, --hoodie-conf, cluster
// defaults) that no known key matches but one is within edit distance 2 of. Hudi ignores
// unknown keys silently: the default applies and nobody is told.
func misspellings(eff *config.Effective, cat *Catalog) []Misspelling {
	out := []Misspelling{}
	if eff == nil {
		return out
	}
	seen := map[string]bool{}
	known := cat.KnownKeys()
	for _, l := range eff.Layers {
		if l.Source != config.SourceProps && l.Source != config.SourceCluster {
			continue
		}
		for k := range l.Values {
			if !strings.HasPrefix(k, "hoodie.") || cat.Known[k] || seen[k] {
				continue
			}
			seen[k] = true
			best, bestD := "", 3
			for _, c := range known {
				if d := abs(len(c) - len(k)); d >= bestD {
					continue
				}
				if d := editDistance(k, c, bestD); d < bestD || (d == bestD && d <= 2 && c < best) {
					best, bestD = c, d
				}
			}
			if best != "" && bestD <= 2 {
				origin := l.Origin
				if origin == "" {
					origin = string(l.Source)
				}
				out = append(out, Misspelling{Key: k, Origin: origin, Suggest: best, Distance: bestD})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
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
