package findings_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/findings"
)

var updateDoc = flag.Bool("update", false, "rewrite docs/findings-fidelity.md from the catalog")

const fidelityDocPath = "../../docs/findings-fidelity.md"

// fidelityMarker separates the page's hand-written rules from the part generated from the
// catalog encoding.
const fidelityMarker = "<!-- Generated below from assets/findings_catalog.json by `go test ./analyzers/findings -run TestFidelityDoc -update`: edit the catalog (each row's encoding and its \"fidelity\"), not this page. -->"

// TestFidelityDoc: docs/findings-fidelity.md is the catalog encoding as the code evaluates it
// (signals, gates, counter-signals, keys and their conditions) with each row's deviations;
// any change to the encoding that is not regenerated fails here.
func TestFidelityDoc(t *testing.T) {
	old, err := os.ReadFile(fidelityDocPath)
	if err != nil {
		t.Fatal(err)
	}
	head, _, ok := strings.Cut(string(old), fidelityMarker)
	if !ok {
		head, _, _ = strings.Cut(string(old), "## Observation rows")
	}
	got := strings.TrimRight(head, "\n") + "\n\n" + fidelityMarker + "\n\n" + fidelityBody(findings.Default())
	if *updateDoc {
		if err := os.WriteFile(fidelityDocPath, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got != string(old) {
		t.Errorf("%s drifts from the catalog encoding: run go test ./analyzers/findings -run TestFidelityDoc -update and review the diff", fidelityDocPath)
	}
}

func fidelityBody(c *findings.Catalog) string {
	var b strings.Builder
	kinds := []struct{ kind, title string }{{findings.KindObservation, "Observation rows"}, {findings.KindCapability, "Capability rows"}}
	faithful, disclosed := 0, 0
	for _, k := range kinds {
		fmt.Fprintf(&b, "## %s\n\n", k.title)
		for _, r := range c.Rows {
			if r.Kind != k.kind {
				continue
			}
			fmt.Fprintf(&b, "### %s — %s\n", r.ID, r.Title)
			fmt.Fprintf(&b, "- Catalog: %s\n", r.Fidelity.Catalog)
			fmt.Fprintf(&b, "- Encoded (corroboration: %s; risk %s):\n", strings.Join(r.Corroborate, " + "), r.Risk)
			for _, x := range []struct {
				what string
				cs   []findings.Cond
			}{{"signal", r.Signals}, {"gate", r.Gates}, {"against", r.Against}, {"do nothing when", r.DoNothingWhen}} {
				for _, cd := range x.cs {
					fmt.Fprintf(&b, "  - %s: %s\n", x.what, condText(cd))
				}
			}
			for _, kc := range r.Change.Keys {
				s := fmt.Sprintf("  - key: `%s` %s", kc.Key, kc.Direction)
				if kc.To != "" {
					s += " to " + kc.To
				}
				var when []string
				for _, cd := range kc.When {
					when = append(when, condText(cd))
				}
				if len(when) > 0 {
					s += ", only when " + strings.Join(when, " and ")
				}
				fmt.Fprintln(&b, s)
			}
			if r.MaxStatus != "" {
				fmt.Fprintf(&b, "  - capped at %s: %s\n", r.MaxStatus, r.CapSays)
			}
			if len(r.Fidelity.Deviations) == 0 {
				faithful++
				b.WriteString("- Deviation: none.\n\n")
				continue
			}
			disclosed++
			for _, d := range r.Fidelity.Deviations {
				fmt.Fprintf(&b, "- Deviation (printed with the finding; pinned by `%s`): %s\n", d.Pin, d.Says)
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("## Fidelity by row\n\n")
	fmt.Fprintf(&b, "%d rows faithful, %d deviating and disclosed (every deviation is printed with its finding as a note), 0 deviating silently.\n\n", faithful, disclosed)
	b.WriteString("| Row | Title | Fidelity | Pinned by |\n|---|---|---|---|\n")
	for _, r := range c.Rows {
		word, pins := "faithful", "TestRows/"+r.ID
		if len(r.Fidelity.Deviations) > 0 {
			word = "deviates, disclosed"
			var ps []string
			for _, d := range r.Fidelity.Deviations {
				if !contains(ps, "`"+d.Pin+"`") {
					ps = append(ps, "`"+d.Pin+"`")
				}
			}
			pins = strings.Join(ps, ", ")
		} else {
			pins = "`" + pins + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.ID, strings.ReplaceAll(r.Title, "|", "\\|"), word, pins)
	}
	return b.String()
}

// condText is a condition as the doc shows it: its words, then the encoding.
func condText(c findings.Cond) string {
	if len(c.AnyOf) > 0 {
		var gs []string
		for _, g := range c.AnyOf {
			var p []string
			for _, x := range g {
				p = append(p, encoding(x))
			}
			gs = append(gs, "("+strings.Join(p, " and ")+")")
		}
		return c.Says + " — any of " + strings.Join(gs, " or ") + flags(c)
	}
	return c.Says + " — " + encoding(c) + flags(c)
}

func encoding(c findings.Cond) string {
	s := "`" + c.Path
	if c.Agg != "" {
		s += " " + c.Agg
	}
	s += " " + c.Op
	switch {
	case c.Ref != "":
		s += " " + c.Ref
		if c.Factor != 0 && c.Factor != 1 {
			s += fmt.Sprintf(" × %v", c.Factor)
		}
	case c.Value != nil:
		s += fmt.Sprintf(" %v", c.Value)
	}
	s += "`"
	for _, o := range c.Only {
		s += " (applies only where " + encoding(o) + ")"
	}
	for _, j := range c.Judged {
		s += " (a measurement only where " + encoding(j) + ")"
	}
	return s
}

func flags(c findings.Cond) string {
	var f []string
	if c.Optional {
		f = append(f, "optional")
	}
	if c.Contradicts {
		f = append(f, "contradicts when it fails")
	}
	if len(c.Credits) > 0 {
		f = append(f, "credits "+strings.Join(c.Credits, ", "))
	}
	if len(f) == 0 {
		return ""
	}
	return " [" + strings.Join(f, "; ") + "]"
}

// TestDeviationsArePinnedAndShown: every deviation names a test that exists (a TestRows case
// for TestRows/<row>), and is printed with its finding.
func TestDeviationsArePinnedAndShown(t *testing.T) {
	files, _ := filepath.Glob("*_test.go")
	var src strings.Builder
	for _, f := range files {
		b, _ := os.ReadFile(f)
		src.Write(b)
	}
	all := src.String()
	r := findings.Evaluate(base(t), nil)
	n := 0
	for _, row := range findings.Default().Rows {
		for _, d := range row.Fidelity.Deviations {
			n++
			name, sub, _ := strings.Cut(d.Pin, "/")
			if !regexp.MustCompile(`(?m)^func ` + regexp.QuoteMeta(name) + `\(t \*testing\.T\)`).MatchString(all) {
				t.Errorf("%s: pin %s names no test", row.ID, d.Pin)
			}
			if name == "TestRows" && !strings.Contains(all, `{id: "`+sub+`"`) {
				t.Errorf("%s: pin %s: TestRows has no case %s", row.ID, d.Pin, sub)
			}
			if f := r.Find(row.ID); f == nil || !contains(f.Notes, findings.DeviationNote+d.Says) {
				t.Errorf("%s: deviation not printed with the finding: %q", row.ID, d.Says)
			}
		}
		if row.Fidelity.Catalog == "" {
			t.Errorf("%s: no catalog text", row.ID)
		}
	}
	if n < 20 {
		t.Errorf("%d deviations encoded, want the page's 20+", n)
	}
}
