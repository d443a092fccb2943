package checkpoint

import (
	"archive/zip"
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Reader is a line of Hudi releases whose incremental queries compare
// hoodie.datasource.read.begin.instanttime the same way. The rule belongs to the engine that
// reads, not to the table: a table-version-8 table is read by 1.0.x and by 1.1+ alike, and
// the two disagree on a begin value equal to a completion time. Every rule here was measured
// with real Spark incremental queries (docs/incremental-semantics.md names the probes).
type Reader struct {
	// Line names the releases: "0.x", "1.0.x", "1.1+".
	Line string `json:"line"`
	// Compares is the instant time the begin value is compared with: "requested" (the
	// instant time, as in _hoodie_commit_time) or "completion".
	Compares string `json:"compares"`
	// Inclusive: a write whose compared time equals the begin value is returned.
	Inclusive bool `json:"inclusive"`
	// Release is the exact release the reader was named by (--hudi-version or the installed
	// bundle), "" when the line is assumed.
	Release string `json:"release,omitempty"`
	// Note says when the rule is assumed rather than measured for this table version.
	Note string `json:"note,omitempty"`
	// tableVersions are the table versions the line reads.
	tableVersions []int
}

// readers are the measured lines, oldest first.
var readers = []Reader{
	{Line: "0.x", Compares: "requested", Inclusive: false, tableVersions: []int{4, 5, 6}},
	{Line: "1.0.x", Compares: "completion", Inclusive: true, tableVersions: []int{8}},
	{Line: "1.1+", Compares: "completion", Inclusive: false, tableVersions: []int{8, 9}},
}

func (r Reader) reads(tableVersion int) bool {
	for _, v := range r.tableVersions {
		if v == tableVersion {
			return true
		}
	}
	return false
}

// BeforeActive says what the line's incremental read does with a begin value older than the
// active timeline (the writes in between are archived), as measured with real Spark: no line
// fails; they differ in what they return.
func (r Reader) BeforeActive() string {
	switch r.Line {
	case "0.x":
		return "Hudi 0.x does not fail: with hoodie.datasource.read.incr.fallback.fulltablescan.enable unset or false (the default) it silently reads only the files of the writes still on the active timeline, skipping the archived ones in between (on merge-on-read, records of archived delta commits that an active compaction rewrote come back); with true it scans the whole table."
	case "1.0.x":
		return "Hudi 1.0.x does not fail: a copy-on-write table is read in full (archived writes included) whatever the fallback setting; on a merge-on-read table the result depends on hoodie.datasource.read.incr.fallback.fulltablescan.enable (unset behaves as true) and may miss the active writes: do not rely on it."
	}
	return "Hudi 1.1+ does not fail, whatever the fallback setting: it applies its rule to the archived writes too (their records that are still the latest come back), on copy-on-write and merge-on-read tables alike."
}

// Rule says the comparison in words: "completion time > begin".
func (r Reader) Rule() string {
	op := ">"
	if r.Inclusive {
		op = ">="
	}
	return r.Compares + " time " + op + " begin"
}

// CompletionOrdered reports whether the line compares completion times.
func (r Reader) CompletionOrdered() bool { return r.Compares == "completion" }

var releaseRE = regexp.MustCompile(`^(\d+)\.(\d+)(?:\.(\d+))?`)

// ReaderFor returns the line of a Hudi release such as "1.0.2", "0.14.1-amzn-0" or "1.1".
func ReaderFor(release string) (Reader, error) {
	m := releaseRE.FindStringSubmatch(strings.TrimSpace(release))
	if m == nil {
		return Reader{}, fmt.Errorf("hudi version %q: want MAJOR.MINOR[.PATCH], e.g. 1.0.2", release)
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	var r Reader
	switch {
	case major == 0:
		r = readers[0]
	case major == 1 && minor == 0:
		r = readers[1]
	default:
		r = readers[2]
	}
	r.Release = strings.TrimSpace(release)
	return r, nil
}

// ReadersOf returns the lines that can read a table version: the verdicts to give when the
// reading release is not known.
func ReadersOf(tableVersion int) []Reader {
	var out []Reader
	for _, r := range readers {
		if r.reads(tableVersion) {
			out = append(out, r)
		}
	}
	if len(out) == 0 && tableVersion > 9 {
		out = append(out, readers[len(readers)-1]) // a newer table: the newest rule known
	}
	return out
}

// ReadersFor resolves the readers to judge a begin value for: the named release's line, or
// every line that reads the table version when release is "". A release whose line cannot
// read the table version is an error (its query would fail before reading anything).
func ReadersFor(release string, tableVersion int) ([]Reader, error) {
	if release == "" {
		return ReadersOf(tableVersion), nil
	}
	r, err := ReaderFor(release)
	if err != nil {
		return nil, err
	}
	switch {
	case r.reads(tableVersion):
	case r.Line != "0.x" && tableVersion < 8:
		// 1.x reads older tables, whose timeline stores no completion time; how its
		// incremental query compares a begin value there was not measured, so the rule of the
		// releases that wrote the table is used, and said.
		old := ReadersOf(tableVersion)[0]
		old.Release = r.Release
		old.Note = fmt.Sprintf("Hudi %s reading a table-version-%d table was not measured; the %s rule (%s) is assumed", r.Release, tableVersion, old.Line, old.Rule())
		r = old
	default:
		return nil, fmt.Errorf("hudi version %s (%s) does not read table version %d", release, r.Line, tableVersion)
	}
	return []Reader{r}, nil
}

// DefaultHudiLibDir is where Amazon EMR installs Hudi's jars.
const DefaultHudiLibDir = "/usr/lib/hudi"

var bundleRE = regexp.MustCompile(`^hudi-spark[0-9.]*-bundle(?:_[0-9.]+)?-(\d+\.\d+\.\d+[^/]*)\.jar$`)

// InstalledRelease finds the Hudi release installed on this node (an EMR primary node has
// the Spark bundle under /usr/lib/hudi): from the bundle's pom.properties, else from its file
// name. "" when there is none; source says which file told.
func InstalledRelease(dir string) (release, source string) {
	// Jars are opened to read their pom.properties: once per directory and process, since
	// every verdict asks.
	installedMu.Lock()
	defer installedMu.Unlock()
	if r, ok := installed[dir]; ok {
		return r[0], r[1]
	}
	release, source = findInstalled(dir)
	installed[dir] = [2]string{release, source}
	return release, source
}

var (
	installedMu sync.Mutex
	installed   = map[string][2]string{}
)

func findInstalled(dir string) (release, source string) {
	jars, _ := filepath.Glob(filepath.Join(dir, "hudi-spark*-bundle*.jar"))
	sort.Strings(jars)
	for _, j := range jars {
		fi, err := os.Lstat(j)
		if err != nil || !fi.Mode().IsRegular() && fi.Mode()&os.ModeSymlink == 0 {
			continue
		}
		if v := pomVersion(j); v != "" {
			return v, j
		}
		if m := bundleRE.FindStringSubmatch(filepath.Base(j)); m != nil {
			return strings.TrimSuffix(m[1], ".jar"), j
		}
	}
	return "", ""
}

// pomVersion reads version= from the bundle's Maven pom.properties.
func pomVersion(jar string) string {
	zr, err := zip.OpenReader(jar)
	if err != nil {
		return ""
	}
	defer zr.Close()
	for _, f := range zr.File {
		if !strings.HasPrefix(f.Name, "META-INF/maven/org.apache.hudi/hudi-spark") || !strings.HasSuffix(f.Name, "/pom.properties") {
			continue
		}
		if f.UncompressedSize64 > 1<<16 {
			return ""
		}
		rc, err := f.Open()
		if err != nil {
			return ""
		}
		defer rc.Close()
		sc := bufio.NewScanner(rc)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "version="); ok {
				return v
			}
		}
	}
	return ""
}
