package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/hudiscope/hudiscope/internal/testutil"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/ui"
)

// surfaceNow is the one clock every surface of TestVerdictsAgreeAcrossSurfaces reads (the
// children through HUDISCOPE_NOW, the explorer through its Options.Now).
const surfaceNow = "2026-11-30T20:00:00Z"

// A props variant: the inputs and toggles one verdict is asked for.
type surfaceVariant struct {
	name     string
	props    bool // the fixture's writer.properties
	applyAll bool // --apply-all-defaults (the fleet's default; the others' flag)
	eventLog bool // the fixture's Spark event log (the fleet reads none: not compared there)
}

var surfaceVariants = []surfaceVariant{
	{name: "no props"},
	{name: "props", props: true},
	{name: "props+defaults", props: true, applyAll: true},
	{name: "defaults", applyAll: true},
	{name: "props+eventlog", props: true, eventLog: true},
}

// surfacePinned are answers checked by hand against the report (the fleet and the Health pane
// agreeing is not enough: they could agree on a wrong answer).
// surfacePinnedLayout: the detectors' verdicts and the layout roll-up, checked by hand.
var surfacePinnedLayout = map[string][2]string{
	"mor-services-1.2.0/no props": {"micro-partition CLEAN, small-files too few to judge, hot-partitions CLEAN", "CLEAN · 1 of 3 not judged"},
}

var surfacePinned = map[string][]string{ // fixture/variant: health verdict, unhealthy checks, top finding[, largest phase, time no job covers]
	"mor-compaction-1.2.0/no props":     {"SKIPPED · 6 of 7 not judged", "", "none (3 hypotheses)"},
	"mor-compaction-1.2.0/defaults":     {"HEALTHY", "", "none (3 hypotheses)"},
	"cow-services-1.2.0/no props":       {"SKIPPED · 5 of 7 not judged", "", "none (5 hypotheses)"},
	"cow-services-1.2.0/props":          {"UNHEALTHY", "savepoint, archival", "OBS-020 A savepoint is quietly pinning the timeline"},
	"cow-services-1.2.0/props+defaults": {"UNHEALTHY", "savepoint, archival", "OBS-020 A savepoint is quietly pinning the timeline"},
	"mor-services-1.2.0/no props":       {"SKIPPED · 7 of 7 not judged", "", "none (6 hypotheses)"},
	"mor-services-1.2.0/props+eventlog": {"HEALTHY", "", "OBS-011 Index tagging is a large share of wall clock", "DEDUP_AND_INDEX_TAGGING 37%", "4m4s of 9m37s (42%)"},
}

// surfaceAnswers are what each surface said, keyed by surface name: the health roll-up
// ("HEALTHY · 2 of 7 not judged"), the checks it calls UNHEALTHY, and the top finding.
type surfaceAnswers struct {
	health    map[string]string
	status    map[string]string // the status word alone (Java-compatible fields)
	unhealthy map[string]string
	top       map[string]string
	// With an event log: hudiscope's largest attributed phase ("DEDUP_AND_INDEX_TAGGING 37%") and
	// the time no job covers ("4m4s of 9m37s (42%)") (issue 28 item 5).
	phase, noJob map[string]string
	// The layout detectors' verdicts ("micro-partition CLEAN, small-files too few to judge, …")
	// and their roll-up ("CLEAN · 1 of 3 not judged") (issue 28 item 7).
	detectors, layout map[string]string
}

func newSurfaceAnswers() surfaceAnswers {
	return surfaceAnswers{health: map[string]string{}, status: map[string]string{}, unhealthy: map[string]string{}, top: map[string]string{},
		phase: map[string]string{}, noJob: map[string]string{}, detectors: map[string]string{}, layout: map[string]string{}}
}

// verdictRE is the roll-up as health.Result.Verdict prints it; fleetCellRE also takes it cut.
var (
	verdictRE   = regexp.MustCompile(`\b(UNHEALTHY|HEALTHY|SKIPPED)( · \d+ of \d+ not judged)?`)
	fleetCellRE = regexp.MustCompile(`\b(UNHEALTHY|HEALTHY|SKIPPED)( · \d+ of \d+ not judged| ·[^…]*…|…)?`)
)

// Issue 28 "one answer per question": for every bundled fixture and props variant, the health
// roll-up, the checks it calls UNHEALTHY and the top finding are the same words on the Overview
// (80×24), the Health pane header, `report -o md`, `report -o json`, the fleet row (text and
// JSON) over a directory holding the table, the explorer's Fleet view row over it (80×24; it
// always judges by Hudi's defaults, so only with the --apply-all-defaults variants), the E
// export and `health` (text, md, and JSON, whose Java-compatible overallStatus is the roll-up's
// status word). The Health pane's d on a variant without --apply-all-defaults must then say what
// the flag says, E included. The layout detectors' verdicts and roll-up are one answer on the
// Layout pane, the report, E and the layout command (text and JSON) (item 7). With the fixture's
// event log, hudiscope's largest attributed phase and the time no job covers are one answer too:
// the Event log pane, the report, E and `eventlog -o json` (item 5). Two copies of our own have
// their latest write's instant file damaged (a warning naming it; the rest still loads): one
// answer there too. The fleet reads no commit metadata and shows no top finding: it is compared
// on health only (and not with an event log, which it does not read).
func TestVerdictsAgreeAcrossSurfaces(t *testing.T) {
	// The children get it too (runSurfaceChild); in this process it is the explorer's model clock.
	t.Setenv("HUDISCOPE_NOW", surfaceNow)
	zips, _ := filepath.Glob(filepath.Join("..", "testdata", "fixtures", "*", "table.zip"))
	if len(zips) < 20 {
		t.Fatalf("found %d fixtures under testdata/fixtures, want at least 20", len(zips))
	}
	root := t.TempDir()
	seen := map[string]int{} // verdict words met, so a run that parsed nothing fails
	ran := 0
	type surfaceFixture struct {
		name, zip string
		damage    func(t *testing.T, table string) string // a variant of our own: the copy made unreadable in part
	}
	var fixtures []surfaceFixture
	for _, zip := range zips {
		fixtures = append(fixtures, surfaceFixture{name: filepath.Base(filepath.Dir(zip)), zip: zip})
	}
	// Copies with their latest completed write's instant file damaged: what the table says is
	// then partly unknown, and every surface must still give one answer.
	for _, fx := range []string{"cow-services-1.2.0", "mor-services-1.2.0"} {
		if zip := filepath.Join("..", "testdata", "fixtures", fx, "table.zip"); fileExists(zip) {
			fixtures = append(fixtures, surfaceFixture{name: fx + "-damaged", zip: zip, damage: damageLatestWrite})
		}
	}
	for _, f := range fixtures {
		fx, zip := f.name, f.zip
		t.Run(fx, func(t *testing.T) {
			fleetRoot := filepath.Join(root, fx)
			table := testutil.UnzipTable(t, zip, filepath.Join(fleetRoot, "w"))
			table = hoodieParent(t, table)
			damaged := ""
			if f.damage != nil {
				damaged = f.damage(t, table)
			}
			ran++
			props, _ := filepath.Abs(filepath.Join(filepath.Dir(zip), "writer.properties"))
			if _, err := os.Stat(props); err != nil {
				props = ""
			}
			logs, _ := filepath.Glob(filepath.Join(filepath.Dir(zip), "*local-*"))
			byVariant := map[string]surfaceAnswers{}
			for _, v := range surfaceVariants {
				if v.props && props == "" || v.eventLog && len(logs) == 0 {
					continue
				}
				in := surfaceInputs{table: table, fleetRoot: fleetRoot, applyAll: v.applyAll, damaged: damaged}
				if v.props {
					in.props = props
				}
				if v.eventLog {
					in.eventLog = logs[0]
				}
				a := newSurfaceAnswers()
				cliSurfaces(t, a, in)
				toggled := uiSurfaces(t, a, in, t.TempDir())
				if in.applyAll && in.eventLog == "" {
					// The explorer's Fleet view always judges by Hudi's defaults (as `fleet` does by default).
					fleetViewSurface(t, a, in)
				}
				byVariant[v.name] = a
				for _, s := range a.health {
					seen[strings.SplitN(s, " ", 2)[0]]++
				}
				t.Run(v.name, func(t *testing.T) {
					t.Logf("health %v\nstatus %v\nunhealthy %v\ntop %v\nphase %v\nno job %v\ndetectors %v\nlayout %v", a.health, a.status, a.unhealthy, a.top, a.phase, a.noJob, a.detectors, a.layout)
					a.agree(t)
					if want, ok := surfacePinnedLayout[fx+"/"+v.name]; ok {
						if a.detectors["report -o md"] != want[0] || a.layout["report -o md"] != want[1] {
							t.Errorf("report -o md: layout %q (%s), checked by hand: %q (%s)", a.layout["report -o md"], a.detectors["report -o md"], want[1], want[0])
						}
					}
					if want, ok := surfacePinned[fx+"/"+v.name]; ok {
						for i, m := range []map[string]string{a.health, a.unhealthy, a.top, a.phase, a.noJob}[:len(want)] {
							if got := m["report -o md"]; got != want[i] {
								t.Errorf("report -o md says %q, checked by hand: %q", got, want[i])
							}
						}
					}
				})
				if toggled != nil {
					// d toggles --apply-all-defaults in place: compared below with the flag's answers.
					byVariant[v.name+" then d"] = *toggled
				}
			}
			for _, pair := range [][2]string{{"no props then d", "defaults"}, {"props then d", "props+defaults"}} {
				d, ok1 := byVariant[pair[0]]
				flag, ok2 := byVariant[pair[1]]
				if !ok1 || !ok2 {
					continue
				}
				t.Run(pair[0], func(t *testing.T) { d.same(t, pair[0], flag, pair[1]) })
			}
		})
	}
	if ran == len(fixtures) && (seen["HEALTHY"] == 0 || seen["UNHEALTHY"] == 0 || seen["SKIPPED"] == 0) {
		t.Errorf("verdicts met %v: every roll-up word should occur across the fixtures", seen)
	}
}

// agree fails naming every surface whose answer differs from the first surface's.
func (a surfaceAnswers) agree(t *testing.T) {
	t.Helper()
	// Every roll-up's status word stands beside the Java-compatible status fields.
	status := map[string]string{}
	for n, v := range a.status {
		status[n] = v
	}
	for n, v := range a.health {
		status[n] = strings.SplitN(v, " ", 2)[0]
	}
	for _, q := range []struct {
		question string
		m        map[string]string
		optional bool // asked only with an event log
	}{{"health verdict", a.health, false}, {"health status word", status, false}, {"unhealthy checks", a.unhealthy, false},
		{"top finding", a.top, false}, {"largest event-log phase", a.phase, true}, {"time no job covers", a.noJob, true},
		{"layout detector verdicts", a.detectors, false}, {"layout roll-up", a.layout, false}} {
		names := make([]string, 0, len(q.m))
		for n := range q.m {
			names = append(names, n)
		}
		sort.Strings(names)
		if len(names) == 0 && q.optional {
			continue
		}
		if len(names) < 2 {
			t.Errorf("%s: only %d surface(s) answered (%v)", q.question, len(names), q.m)
			continue
		}
		// The majority answer is the reference, so the message names the odd one out. A line
		// the 80-column Overview cut ("…") agrees when it is a prefix that keeps the finding's
		// id whole.
		full := map[string]string{}
		for _, n := range names {
			full[n] = q.m[n]
		}
		for _, n := range names {
			cut, ok := strings.CutSuffix(q.m[n], "…")
			if !ok {
				continue
			}
			for _, o := range names {
				if v := q.m[o]; !strings.HasSuffix(v, "…") && strings.HasPrefix(v, cut) && strings.Contains(cut, " ") {
					full[n] = v
					break
				}
			}
		}
		count := map[string]int{}
		for _, n := range names {
			count[full[n]]++
		}
		ref := full[names[0]]
		for ans, c := range count {
			if c > count[ref] || (c == count[ref] && ans < ref) {
				ref = ans
			}
		}
		var diff []string
		for _, n := range names {
			if full[n] != ref {
				diff = append(diff, fmt.Sprintf("  %-22s %q", n, q.m[n]))
			}
		}
		if len(diff) > 0 {
			t.Errorf("%s: %d surface(s) say %q, but:\n%s", q.question, count[ref], ref, strings.Join(diff, "\n"))
		}
	}
}

// same fails unless every surface of a (the d toggle) says what the same surface of b (the
// flag) says.
func (a surfaceAnswers) same(t *testing.T, an string, b surfaceAnswers, bn string) {
	t.Helper()
	for _, q := range []struct {
		question string
		x, y     map[string]string
	}{{"health verdict", a.health, b.health}, {"unhealthy checks", a.unhealthy, b.unhealthy}, {"top finding", a.top, b.top}} {
		for surface, got := range q.x {
			if want, ok := q.y[surface]; ok && got != want {
				t.Errorf("%s: %s says %q after %q, %q with %q", q.question, surface, got, an, want, bn)
			}
		}
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// damageLatestWrite overwrites the newest completed commit or deltacommit instant file of the
// table under dir (timeline layout 2: .hoodie/timeline) with bytes that are not JSON or Avro.
func damageLatestWrite(t *testing.T, dir string) string {
	t.Helper()
	var files []string
	for _, pat := range []string{"*_*.commit", "*_*.deltacommit"} {
		m, _ := filepath.Glob(filepath.Join(dir, ".hoodie", "timeline", pat))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatalf("no completed write under %s/.hoodie/timeline", dir)
	}
	sort.Strings(files)
	if err := os.WriteFile(files[len(files)-1], []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	return files[len(files)-1]
}

// hoodieParent is the table directory below dir (the one holding .hoodie).
func hoodieParent(t *testing.T, dir string) string {
	t.Helper()
	var found string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == ".hoodie" && found == "" {
			found = filepath.Dir(p)
			return filepath.SkipAll
		}
		return nil
	})
	if found == "" {
		t.Fatalf("no .hoodie under %s", dir)
	}
	return found
}

// surfaceInputs are one variant's inputs.
type surfaceInputs struct {
	table, fleetRoot, props, eventLog string
	applyAll                          bool
	damaged                           string // the instant file damageLatestWrite overwrote
}

type childRun struct {
	name           string
	args           []string
	stdout, stderr string
	code           int
	err            error
}

// cliSurfaces runs the commands' surfaces side by side (two at a time: the machine's cores)
// and records their answers in a.
func cliSurfaces(t *testing.T, a surfaceAnswers, in surfaceInputs) {
	t.Helper()
	table, fleetRoot := in.table, in.fleetRoot
	common := []string{"--cluster-defaults", "-"}
	if in.props != "" {
		common = append(common, "--props", in.props)
	}
	flag := []string{}
	if in.applyAll {
		flag = []string{"--apply-all-defaults"}
	}
	fleetFlag := []string{"--no-apply-all-defaults"}
	if in.applyAll {
		fleetFlag = []string{"--apply-all-defaults"}
	}
	reportLog := []string{}
	if in.eventLog != "" {
		reportLog = []string{"--event-log", in.eventLog}
	}
	cat := func(parts ...[]string) []string {
		var out []string
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	runs := []*childRun{
		{name: "report -o md", args: cat([]string{"report", "-o", "md", "--full", table}, common, flag, reportLog)},
		{name: "report -o json", args: cat([]string{"report", "-o", "json", table}, common, flag, reportLog)},
		{name: "health -o json", args: cat([]string{"health", "-o", "json", table}, common, flag)},
		{name: "health text", args: cat([]string{"health", table}, common, flag)},
		{name: "health -o md", args: cat([]string{"health", "-o", "md", table}, common, flag)},
	}
	if !in.applyAll && in.eventLog == "" {
		// (the layout command reads neither: once per props file)
		runs = append(runs,
			&childRun{name: "layout text", args: cat([]string{"layout", "--analyze-table-characteristics", table}, common)},
			&childRun{name: "layout -o json", args: cat([]string{"layout", "--analyze-table-characteristics", "-o", "json", table}, common)})
	}
	if in.eventLog != "" {
		runs = append(runs, &childRun{name: "eventlog -o json", args: []string{"eventlog", in.eventLog, "-o", "json"}})
	} else {
		runs = append(runs,
			&childRun{name: "fleet text", args: cat([]string{"fleet", fleetRoot}, common, fleetFlag)},
			&childRun{name: "fleet -o json", args: cat([]string{"fleet", "-o", "json", fleetRoot}, common, fleetFlag)})
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for _, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			r.stdout, r.stderr, r.code, r.err = runSurfaceChild(r.args)
		}()
	}
	wg.Wait()
	for _, r := range runs {
		if r.err != nil {
			t.Fatalf("%s: %v", r.name, r.err)
		}
		// health exits 3 on UNHEALTHY (and 2 when a check failed to run); the others 0.
		if r.code != 0 && !(strings.HasPrefix(r.name, "health ") && (r.code == 3 || r.code == 2)) {
			t.Fatalf("%s: exit %d\n%s", strings.Join(r.args, " "), r.code, r.stderr)
		}
		if in.damaged != "" && r.name == "report -o md" && !strings.Contains(r.stderr, "warning: "+in.damaged) {
			t.Errorf("report on the damaged copy does not warn about %s:\n%s", in.damaged, r.stderr)
		}
		if err := a.parseCLI(r.name, r.stdout); err != nil {
			t.Fatalf("%s: %v\n%.1500s", strings.Join(r.args, " "), err, r.stdout)
		}
	}
}

// runSurfaceChild is runChild without the testing.T (it runs on a goroutine).
func runSurfaceChild(args []string) (string, string, int, error) {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "HUDISCOPE_RUN_MAIN=1", "NO_COLOR=1", "HUDISCOPE_NOW="+surfaceNow)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out.String(), errb.String(), ee.ExitCode(), nil
	}
	return out.String(), errb.String(), 0, err
}

var (
	mdTopRE         = regexp.MustCompile(`\*\*Top finding:\*\* (.*?)(?: — the highest-ranked|: no observation is corroborated)`)
	mdEscapeRE      = regexp.MustCompile(`\\(.)`)
	layoutTextRE    = regexp.MustCompile(`(?m)^Table characteristics \(age [^)]*\): (.*)$`)
	layoutTextDetRE = regexp.MustCompile(`^  (micro-partition|small-files|hot-partitions) +(CLEAN|MODERATE|SEVERE|FLAGGED|too few to judge|[A-Z]+) `)
	mdDetectorRE    = regexp.MustCompile(`(?m)^\| (micro-partition|small-files|hot-partitions) \| ([^|]+?) \|`)
	paneDetectorRE  = regexp.MustCompile(`^ (micro-partition|small-files|hot-partitions) +(too few to judge|[A-Z]+) `)
	mdPhaseRE       = regexp.MustCompile(`The largest (?:attributed )?phase is ([A-Z_]+) at ([0-9.]+)%`)
	mdNoJobRE       = regexp.MustCompile(`No Spark job ran for (\S+) of the application's (\S+) \(([0-9.]+)%\)`)
	paneNoJobRE     = regexp.MustCompile(`no Spark job ran for (\S+) of the app's (\S+) \((\d+)%\)`)
	panePhaseRE     = regexp.MustCompile(`^ +([A-Z_]+) .* (\d+)% `)
	mdOverallRE     = regexp.MustCompile(`(?m)^Overall: \*\*(.*?)\*\*`)
	healthTextRE    = regexp.MustCompile(`\A[^\n]*  overall: (.*)\n`)
	mdCheckRE       = regexp.MustCompile(`(?m)^\| ([a-z-]+) \| (UNHEALTHY|HEALTHY|SKIPPED) \|`)
)

// parseCLI records what one command's output answers.
func (a surfaceAnswers) parseCLI(surface, out string) error {
	switch surface {
	case "report -o md":
		return a.parseMarkdown(surface, out)
	case "report -o json":
		var doc struct {
			Sections map[string]string `json:"sections"`
			Findings struct {
				Top struct {
					Says string `json:"says"`
				} `json:"top"`
			} `json:"findings"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			return err
		}
		a.top[surface] = doc.Findings.Top.Says
		h, ok := doc.Sections["Health"]
		if !ok {
			return fmt.Errorf("no Health section")
		}
		m := mdOverallRE.FindStringSubmatch(h)
		if m == nil {
			return fmt.Errorf("no 'Overall:' line in the Health section")
		}
		a.health[surface] = m[1]
		a.unhealthy[surface] = mdUnhealthy(h)
	case "health -o json":
		var doc struct {
			OverallStatus string `json:"overallStatus"`
			Checks        []struct {
				Name   string `json:"name"`
				Status string `json:"status"`
			} `json:"checks"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			return err
		}
		// The Java-compatible document carries the status word alone: it must be the roll-up's.
		a.status[surface] = doc.OverallStatus
		var bad []string
		for _, c := range doc.Checks {
			if c.Status == "UNHEALTHY" {
				bad = append(bad, c.Name)
			}
		}
		a.unhealthy[surface] = strings.Join(bad, ", ")
	case "eventlog -o json":
		var doc struct {
			Application struct {
				Observed struct {
					DurationMillis int64 `json:"durationMillis"`
				} `json:"observed"`
			} `json:"application"`
			Hudiscope struct {
				Application struct {
					UncoveredMillis int64   `json:"uncoveredMillis"`
					UncoveredShare  float64 `json:"uncoveredShare"`
				} `json:"application"`
				PhaseSummary []struct {
					Phase string  `json:"phase"`
					Share float64 `json:"shareOfStageWallClock"`
				} `json:"phaseSummary"`
			} `json:"hudiscope"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			return err
		}
		best, share := "", -1.0
		for _, p := range doc.Hudiscope.PhaseSummary {
			if p.Phase != "UNKNOWN" && p.Share > share {
				best, share = p.Phase, p.Share
			}
		}
		if best != "" {
			a.phase[surface] = fmt.Sprintf("%s %.0f%%", best, 100*share)
		}
		if x := doc.Hudiscope.Application; x.UncoveredMillis >= 0 && x.UncoveredShare >= 0 {
			a.noJob[surface] = fmt.Sprintf("%s of %s (%.0f%%)", units.Millis(x.UncoveredMillis), units.Millis(doc.Application.Observed.DurationMillis), 100*x.UncoveredShare)
		}
	case "layout text":
		m := layoutTextRE.FindStringSubmatch(out)
		if m == nil {
			return fmt.Errorf("no 'Table characteristics' roll-up")
		}
		a.layout[surface] = m[1]
		var ds []string
		for _, l := range strings.Split(out[strings.Index(out, m[0]):], "\n")[1:] {
			if d := layoutTextDetRE.FindStringSubmatch(l); d != nil {
				ds = append(ds, d[1]+" "+d[2])
			}
		}
		a.detectors[surface] = strings.Join(ds, ", ")
	case "layout -o json":
		var doc struct {
			Hudiscope struct {
				Detectors []struct {
					Name    string `json:"name"`
					Verdict string `json:"verdict"`
				} `json:"detectors"`
			} `json:"hudiscope"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			return err
		}
		var ds []string
		for _, d := range doc.Hudiscope.Detectors {
			ds = append(ds, d.Name+" "+d.Verdict)
		}
		a.detectors[surface] = strings.Join(ds, ", ")
	case "health text":
		m := healthTextRE.FindStringSubmatch(out)
		if m == nil {
			return fmt.Errorf("no 'overall:' on the first line")
		}
		// (a note may follow the roll-up: "(defaults assumed: …)")
		a.health[surface] = verdictRE.FindString(m[1])
		if !strings.HasPrefix(m[1], a.health[surface]) {
			return fmt.Errorf("no verdict after 'overall:': %q", m[1])
		}
		var bad []string
		for _, l := range strings.Split(out, "\n") {
			if f := strings.Fields(l); len(f) > 1 && f[1] == "UNHEALTHY" {
				bad = append(bad, f[0])
			}
		}
		a.unhealthy[surface] = strings.Join(bad, ", ")
	case "health -o md":
		m := mdOverallRE.FindStringSubmatch(out)
		if m == nil {
			return fmt.Errorf("no 'Overall:' line")
		}
		a.health[surface] = m[1]
		a.unhealthy[surface] = mdUnhealthy(out)
	case "fleet text":
		lines := strings.Split(out, "\n")
		if len(lines) < 2 || !strings.HasPrefix(lines[0], "TABLE ") {
			return fmt.Errorf("no fleet table")
		}
		col := strings.Index(lines[0], "HEALTH")
		row := lines[1]
		if col < 0 || len(row) < col {
			return fmt.Errorf("no HEALTH column")
		}
		m := verdictRE.FindString(row[col:])
		if m == "" {
			return fmt.Errorf("no verdict in the HEALTH column: %q", row)
		}
		a.health[surface] = m
		bad := ""
		if i := strings.Index(row, "unhealthy: "); i >= 0 {
			bad = strings.TrimSpace(strings.SplitN(row[i+len("unhealthy: "):], ";", 2)[0])
		}
		a.unhealthy[surface] = bad
	case "fleet -o json":
		var doc struct {
			Rows []struct {
				Health          string   `json:"health"`
				HealthVerdict   string   `json:"healthVerdict"`
				UnhealthyChecks []string `json:"unhealthyChecks"`
			} `json:"rows"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			return err
		}
		if len(doc.Rows) != 1 {
			return fmt.Errorf("%d fleet rows, want 1", len(doc.Rows))
		}
		a.health[surface] = doc.Rows[0].HealthVerdict
		a.status[surface] = doc.Rows[0].Health
		a.unhealthy[surface] = strings.Join(doc.Rows[0].UnhealthyChecks, ", ")
	}
	return nil
}

// parseMarkdown records the report's (or E export's) Health "Overall" line, its UNHEALTHY
// check rows and the Findings' top finding.
func (a surfaceAnswers) parseMarkdown(surface, md string) error {
	m := mdOverallRE.FindStringSubmatch(md[strings.Index(md, "\n## Health")+1:])
	if !strings.Contains(md, "\n## Health") || m == nil {
		return fmt.Errorf("no Health section with an 'Overall:' line")
	}
	a.health[surface] = m[1]
	a.unhealthy[surface] = mdUnhealthy(md[strings.Index(md, "\n## Health"):])
	t := mdTopRE.FindStringSubmatch(md)
	if t == nil {
		return fmt.Errorf("no **Top finding:** line")
	}
	a.top[surface] = mdEscapeRE.ReplaceAllString(t[1], "$1")
	if i := strings.Index(md, "\n## Layout"); i >= 0 {
		lay := md[i+1:]
		if j := strings.Index(lay[1:], "\n## "); j >= 0 {
			lay = lay[:j+1]
		}
		if m := mdOverallRE.FindStringSubmatch(lay); m != nil {
			a.layout[surface] = m[1]
		}
		var ds []string
		for _, d := range mdDetectorRE.FindAllStringSubmatch(lay, -1) {
			ds = append(ds, d[1]+" "+d[2])
		}
		a.detectors[surface] = strings.Join(ds, ", ")
	}
	if m := mdPhaseRE.FindStringSubmatch(md); m != nil {
		a.phase[surface] = m[1] + " " + roundPct(m[2])
	}
	if m := mdNoJobRE.FindStringSubmatch(md); m != nil {
		a.noJob[surface] = m[1] + " of " + m[2] + " (" + roundPct(m[3]) + ")"
	}
	return nil
}

// roundPct is "36.8" as the pane prints it: "37%".
func roundPct(s string) string {
	var f float64
	fmt.Sscanf(s, "%g", &f)
	return fmt.Sprintf("%.0f%%", f)
}

// parseEventLogPane records the Event log pane's time no job covers and its largest attributed
// phase (hudiscope's attribution, the first rows under its heading).
func (a surfaceAnswers) parseEventLogPane(surface, scr string) error {
	if m := paneNoJobRE.FindStringSubmatch(scr); m != nil {
		a.noJob[surface] = m[1] + " of " + m[2] + " (" + m[3] + "%)"
	}
	lines := strings.Split(scr, "\n")
	for i, l := range lines {
		if !strings.Contains(l, "phases, hudiscope's attribution") {
			continue
		}
		for _, r := range lines[i+1:] {
			m := panePhaseRE.FindStringSubmatch(r)
			if m == nil {
				break
			}
			if m[1] != "UNKNOWN" {
				a.phase[surface] = m[1] + " " + m[2] + "%"
				return nil
			}
		}
	}
	return fmt.Errorf("no phase under \"phases, hudiscope's attribution\"")
}

// mdUnhealthy lists the checks whose row in the Health table says UNHEALTHY, in order.
func mdUnhealthy(md string) string {
	if i := strings.Index(md[1:], "\n## "); i >= 0 {
		md = md[:i+1]
	}
	var bad []string
	for _, m := range mdCheckRE.FindAllStringSubmatch(md, -1) {
		if m[2] == "UNHEALTHY" {
			bad = append(bad, m[1])
		}
	}
	return strings.Join(bad, ", ")
}

// uiSurfaces loads the table as the explorer does and records the Overview's health and top
// finding lines at 80×24, the Health pane's header and the E export. On a variant without
// --apply-all-defaults it then presses d in the Health pane and returns the same surfaces
// read again.
func uiSurfaces(t *testing.T, a surfaceAnswers, in surfaceInputs, exportDir string) *surfaceAnswers {
	t.Helper()
	table, applyAll := in.table, in.applyAll
	now, _ := time.Parse(time.RFC3339, surfaceNow)
	c := &OpenCmd{Table: table, ApplyAllDefaults: applyAll, EventLog: in.eventLog}
	c.Props, c.ClusterDefaults, c.Engine = in.props, "-", "spark"
	opts := c.modelOptions(io.Discard)
	opts.Now = func() time.Time { return now }
	app := ui.New(ui.Options{Location: table, ExportDir: exportDir, Now: opts.Now, Local: time.UTC,
		JobControl: func() (bool, string) { return true, "" }, Getenv: func(string) string { return "" }})
	var m tea.Model = app
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	s, err := model.Load(context.Background(), opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	var cmd tea.Cmd
	m, cmd = m.Update(ui.ProgressMsg{Index: len(s.Done), Total: len(s.Done), Snapshot: s, Finished: true})
	drive(&m, cmd, 0)
	read := func(into surfaceAnswers, suffix string) {
		press(&m, "1")
		scr := ansi.Strip(app.Render())
		if err := into.parseOverview("Overview"+suffix, scr); err != nil {
			t.Fatalf("Overview%s: %v\n%s", suffix, err, scr)
		}
		press(&m, "4")
		scr = ansi.Strip(app.Render())
		h := ""
		for _, l := range strings.Split(scr, "\n") {
			if i := strings.Index(l, " overall "); i >= 0 {
				h = l[i+len(" overall "):]
				break
			}
		}
		v := verdictRE.FindString(h)
		if v == "" || !strings.HasPrefix(h, v) {
			t.Fatalf("Health pane%s: no verdict at the header's start: %q\n%s", suffix, h, scr)
		}
		into.health["Health pane"+suffix] = v
		press(&m, "3")
		scr = ansi.Strip(app.Render())
		var ds []string
		for _, l := range strings.Split(scr, "\n") {
			if d := paneDetectorRE.FindStringSubmatch(l); d != nil {
				ds = append(ds, d[1]+" "+d[2])
			}
		}
		into.detectors["Layout pane"+suffix] = strings.Join(ds, ", ")
		if in.eventLog != "" {
			press(&m, "5")
			scr = ansi.Strip(app.Render())
			if err := into.parseEventLogPane("Event log pane"+suffix, scr); err != nil {
				t.Fatalf("Event log pane%s: %v\n%s", suffix, err, scr)
			}
		}
		before, _ := filepath.Glob(filepath.Join(exportDir, "*.md"))
		press(&m, "E")
		after, _ := filepath.Glob(filepath.Join(exportDir, "*.md"))
		if len(after) != len(before)+1 {
			t.Fatalf("E%s wrote no new export (%s)", suffix, app.Message())
		}
		b, err := os.ReadFile(newest(before, after))
		if err != nil {
			t.Fatal(err)
		}
		if err := into.parseMarkdown("E export"+suffix, string(b)); err != nil {
			t.Fatalf("E export%s: %v", suffix, err)
		}
	}
	read(a, "")
	if applyAll || in.eventLog != "" {
		return nil
	}
	press(&m, "4", "d")
	d := newSurfaceAnswers()
	read(d, "")
	return &d
}

// fleetViewSurface records the explorer's Fleet view row (80×24) over the directory holding the
// table, read as `hudiscope DIR` reads it (cli's runFleet: model.RunFleet, defaults applied).
func fleetViewSurface(t *testing.T, a surfaceAnswers, in surfaceInputs) {
	t.Helper()
	now, _ := time.Parse(time.RFC3339, surfaceNow)
	c := &OpenCmd{Table: in.fleetRoot, FleetFlags: FleetFlags{Depth: 4, MaxEntries: 200000, Parallel: 2}}
	c.Props, c.ClusterDefaults, c.Engine = in.props, "-", "spark"
	base := c.FleetFlags.base(c.TableFlags, true, nil)
	base.Now = func() time.Time { return now }
	d, rows, err := model.RunFleet(context.Background(), c.FleetFlags.source(in.fleetRoot), base, nil)
	if err != nil || len(rows) != 1 {
		t.Fatalf("fleet view: %d rows, %v", len(rows), err)
	}
	f := ui.NewFleet(ui.FleetOptions{Source: in.fleetRoot, Now: base.Now})
	f.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	f.Update(ui.FleetRowMsg{I: 0, Row: rows[0]})
	f.Update(ui.FleetDoneMsg{Discovery: d})
	scr := ansi.Strip(f.Render())
	lines := strings.Split(scr, "\n")
	for i, l := range lines {
		// The one row is the line under the column header (its name may be cut with "…").
		if i+1 < len(lines) && strings.Contains(l, " TABLE ") && strings.Contains(l, " HEALTH ") {
			// (a HEALTH cell the 80 columns cut ends with "…": agree compares it as a prefix)
			if v := fleetCellRE.FindString(lines[i+1]); v != "" {
				a.health["Fleet view"] = v
				return
			}
		}
	}
	t.Fatalf("Fleet view: no row with a verdict\n%s", scr)
}

// newest is the one path in after that is not in before.
func newest(before, after []string) string {
	old := map[string]bool{}
	for _, p := range before {
		old[p] = true
	}
	for _, p := range after {
		if !old[p] {
			return p
		}
	}
	return ""
}

func press(m *tea.Model, keys ...string) {
	for _, k := range keys {
		var cmd tea.Cmd
		*m, cmd = (*m).Update(key(k))
		drive(m, cmd, 0)
	}
}

// parseOverview records the Overview's "health" and "top finding" lines.
func (a surfaceAnswers) parseOverview(surface, scr string) error {
	var health, top string
	for _, l := range strings.Split(scr, "\n") {
		f := strings.TrimLeft(strings.Trim(l, "│ "), "▸> ")
		if v, ok := strings.CutPrefix(f, "health"); ok && health == "" {
			health = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(f, "top finding"); ok && top == "" {
			top = strings.TrimSpace(v)
		}
	}
	if health == "" || top == "" {
		return fmt.Errorf("no health or top finding line")
	}
	v := verdictRE.FindString(health)
	if v == "" || !strings.HasPrefix(health, v) {
		return fmt.Errorf("no verdict at the health line's start: %q", health)
	}
	a.health[surface] = v
	bad := ""
	if rest := strings.TrimPrefix(health, v); strings.HasPrefix(rest, ": ") {
		bad = strings.TrimSpace(strings.SplitN(rest[2:], " · ", 2)[0])
	}
	a.unhealthy[surface] = bad
	a.top[surface] = top
	return nil
}

// Issue 28 item 6, on every surface of TestVerdictsAgreeAcrossSurfaces: a --props file that is
// missing, or not a properties file (a zstd event log, a directory), stops the explorer and
// every command with one message naming the file, before any verdict is printed: exit 1 (health:
// 2, the Java checker's bad-input code).
func TestPropsRefusedAlikeOnEverySurface(t *testing.T) {
	table := fixture("mor-services-1.2.0")
	fleetRoot := t.TempDir()
	testutil.UnzipTable(t, table, filepath.Join(fleetRoot, "w"))
	dir := t.TempDir()
	zstdLog := filepath.Join("..", "testdata", "fixtures", "cdc-0.15.0", "local-1796078932238.zstd")
	for _, c := range []struct{ name, props, says string }{
		{"missing", filepath.Join(dir, "gone.properties"), "no such file or directory"},
		{"zstd event log", zstdLog, "not a properties file"},
		{"directory", dir, "is a directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := ""
			for _, args := range [][]string{
				{table},                         // the explorer: refused before the terminal is taken
				{"report", "-o", "md", table},   //
				{"report", "-o", "json", table}, //
				{"health", "-o", "json", table}, //
				{"health", table},               //
				{"fleet", fleetRoot},            //
				{"fleet", "-o", "json", fleetRoot},
			} {
				args = append(args, "--props", c.props)
				stdout, stderr, code, err := runSurfaceChild(args)
				if err != nil {
					t.Fatal(err)
				}
				stderr = strings.TrimSpace(stderr)
				wantCode := 1
				if args[0] == "health" {
					wantCode = 2 // the Java checker's code for bad input (it has no 1; README)
				}
				if code != wantCode || stdout != "" || !strings.Contains(stderr, c.says) || !strings.Contains(stderr, c.props) {
					t.Errorf("%v: exit %d, stdout %.200q, stderr %q; want exit %d, nothing on stdout, a message naming %s (%q)",
						args, code, stdout, stderr, wantCode, c.props, c.says)
				}
				if want == "" {
					want = stderr
				} else if stderr != want {
					t.Errorf("%v says %q, the explorer %q", args, stderr, want)
				}
			}
		})
	}
}

// Issue 28 item 1 on a MOR table of our own: cdc-morlog-1.2.0 with no props (the compaction
// check SKIPPED), with its writer.properties (compaction on track) and with a derived props file
// whose compaction trigger is 2 delta commits (3 since the first: behind, not stopped). Clustering
// (CAP-003) is a candidate only when the compaction counter-signal was judged and does not
// fire; read from the skipped check it is unknown and the row stays a hypothesis.
func TestSkippedCompactionCounterSignalIsUnknown(t *testing.T) {
	fx := filepath.Join("..", "testdata", "fixtures", "cdc-morlog-1.2.0")
	table := filepath.Join(fx, "table.zip")
	props, err := os.ReadFile(filepath.Join(fx, "writer.properties"))
	if err != nil {
		t.Skipf("fixture cdc-morlog-1.2.0 not present: %v", err)
	}
	if !bytes.Contains(props, []byte("hoodie.datasource.write.table.type=MERGE_ON_READ")) {
		t.Fatal("cdc-morlog-1.2.0 is no longer a MOR table")
	}
	behind := filepath.Join(t.TempDir(), "behind.properties")
	var b strings.Builder
	for _, l := range strings.Split(string(props), "\n") {
		if !strings.HasPrefix(l, "hoodie.compact.inline.max.delta.commits=") {
			b.WriteString(l + "\n")
		}
	}
	b.WriteString("hoodie.compact.inline.max.delta.commits=2\n")
	if err := os.WriteFile(behind, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, props  string
		check, state string // the compaction check's status and the counter-signal's value
		known, holds bool
		status       string // CAP-003
	}{
		{"no props", "", "SKIPPED", "", false, false, "hypothesis"},
		{"writer.properties", filepath.Join(fx, "writer.properties"), "HEALTHY", "on track", true, false, "candidate"},
		{"trigger 2", behind, "HEALTHY", "behind, not stopped", true, true, "don't"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"--cluster-defaults", "-", table}
			if c.props != "" {
				args = append(args, "--props", c.props)
			}
			out, stderr, code, err := runSurfaceChild(append([]string{"report", "-o", "json"}, args...))
			if err != nil || code != 0 {
				t.Fatalf("report: exit %d %v %s", code, err, stderr)
			}
			var doc struct {
				Findings struct {
					Findings []struct {
						ID      string `json:"id"`
						Status  string `json:"status"`
						Against []struct {
							Path    string `json:"path"`
							Value   string `json:"value"`
							Known   bool   `json:"known"`
							Holds   bool   `json:"holds"`
							Unknown string `json:"unknown"`
						} `json:"against"`
					} `json:"findings"`
				} `json:"findings"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			found := false
			for _, f := range doc.Findings.Findings {
				if f.ID != "CAP-003" {
					continue
				}
				if f.Status != c.status {
					t.Errorf("CAP-003 is %q, want %q", f.Status, c.status)
				}
				for _, g := range f.Against {
					if g.Path != "health.hudiscope.checks[name=compaction].state" {
						continue
					}
					found = true
					if g.Known != c.known || g.Holds != c.holds || g.Value != c.state {
						t.Errorf("compaction counter-signal known %v holds %v value %q, want %v %v %q", g.Known, g.Holds, g.Value, c.known, c.holds, c.state)
					}
					if !c.known && !strings.Contains(g.Unknown, "the compaction health check was skipped") {
						t.Errorf("unknown counter-signal does not say the check was skipped: %q", g.Unknown)
					}
				}
			}
			if !found {
				t.Fatal("no CAP-003 compaction counter-signal in the report")
			}
			out, _, _, err = runSurfaceChild(append([]string{"health", "-o", "json", "--checks", "compaction"}, args...))
			if err != nil {
				t.Fatal(err)
			}
			var h struct {
				Checks []struct{ Name, Status string }
			}
			if err := json.Unmarshal([]byte(out), &h); err != nil || len(h.Checks) != 1 || h.Checks[0].Status != c.check {
				t.Errorf("health compaction = %+v (%v), want %s\n%.300s", h.Checks, err, c.check, out)
			}
		})
	}
}
