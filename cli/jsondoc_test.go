package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/health"
)

// jsonDocFile is the field reference every JSON field must appear in.
var jsonDocFile = filepath.Join("..", "docs", "json.md")

// jsonDocDynamicMaps are the objects whose keys are data (config keys, event names, section
// titles, …): the map itself must be documented, its keys are not descended into.
var jsonDocDynamicMaps = map[string][]string{
	"report":   {"sections", "findings.inputs.sources", "findings.findings[].estimate.inputs"},
	"layout":   {"tableCharacteristics.detectors[].effectiveConfigs"},
	"health":   {"checks[].effectiveConfigs"},
	"key":      {"current", "versions[].row", "changes[].before", "changes[].after"},
	"eventlog": {"application.executorRemovalReasons", "stages[].taskFailureReasons", "hudiscope.application.eventCounts", "hudiscope.hudi.writeOperations", "hudiscope.hudi.configs"},
}

// jsonDocKeyPatterns rename keys whose name carries a number: layout's skew block writes
// "top<N>Share" with N = min(partitions, 10).
var jsonDocKeyPatterns = map[string][]struct {
	re   *regexp.Regexp
	name string
}{
	"layout": {{regexp.MustCompile(`^skew\.top\d+Share$`), "skew.top<N>Share"}},
}

// jsonDocSections reads docs/json.md: for each "## name" section, the field paths named in
// backquotes in the first cell of its table rows.
func jsonDocSections(t *testing.T) map[string]map[string]bool {
	t.Helper()
	f, err := os.Open(jsonDocFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	code := regexp.MustCompile("`([^`]+)`")
	out := map[string]map[string]bool{}
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			section = strings.TrimSpace(strings.TrimPrefix(line, "## "))
			if out[section] == nil {
				out[section] = map[string]bool{}
			}
			continue
		}
		if section == "" || !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) < 3 {
			continue
		}
		for _, m := range code.FindAllStringSubmatch(cells[1], -1) {
			out[section][m[1]] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// collectJSONPaths adds every key path of v to paths: "a.b" for object fields, "a[]" for the
// elements of an array (all elements merged), maps in dynamic not descended into.
func collectJSONPaths(v any, prefix string, dynamic map[string]bool, paths map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		if dynamic[prefix] {
			return
		}
		for k, e := range x {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			paths[p] = true
			collectJSONPaths(e, p, dynamic, paths)
		}
	case []any:
		for _, e := range x {
			collectJSONPaths(e, prefix+"[]", dynamic, paths)
		}
	}
}

// jsonDocEventLog finds a fixture's Spark event log (a local-* file or an eventlog_v2_* directory).
func jsonDocEventLog(t *testing.T, fx string) string {
	t.Helper()
	for _, pat := range []string{"local-*", "eventlog_v2_*"} {
		if m, _ := filepath.Glob(filepath.Join("..", "testdata", "fixtures", fx, pat)); len(m) > 0 {
			return m[0]
		}
	}
	t.Fatalf("no event log in fixture %s", fx)
	return ""
}

// Every key path any JSON command writes on the richest fixtures (writer properties, event log,
// every optional layout block, all health checks) is documented in that command's section of
// docs/json.md.
func TestJSONFieldsDocumented(t *testing.T) {
	t.Setenv("HUDISCOPE_NOW", "2026-12-01T00:00:00Z")
	t.Setenv("TZ", "UTC")
	sections := jsonDocSections(t)
	commands := []string{"timeline", "show", "trends", "files", "describe", "checkpoint", "report", "layout", "health", "eventlog",
		"metadata validate-files", "metadata stats", "metadata timeline", "duplicates", "version", "key"}
	for _, cmd := range commands {
		if len(sections[cmd]) == 0 {
			t.Fatalf("%s has no section \"## %s\" with documented fields", jsonDocFile, cmd)
		}
	}
	// exit codes that still come with a full document
	okCode := map[string]int{"health": health.ExitUnhealthy, "checkpoint": exitCheckpointReRead, "duplicates": exitDuplicatesFound}
	seen := map[string]map[string]bool{}
	for _, fx := range []string{"cow-services-1.2.0", "mor-services-1.2.0"} {
		dir := filepath.Join("..", "testdata", "fixtures", fx)
		table, props, log := fixture(fx), filepath.Join(dir, "writer.properties"), jsonDocEventLog(t, fx)
		run := func(cmd string, args ...string) map[string]any {
			t.Helper()
			stdout, stderr, code := runCLI(t, args...)
			if code != 0 && code != okCode[cmd] && !(cmd == "checkpoint" && code == exitCheckpointNotSafe) {
				t.Fatalf("%s %v: exit %d: %s", fx, args, code, stderr)
			}
			var doc map[string]any
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatalf("%s %v: %v\n%.400s", fx, args, err, stdout)
			}
			dynamic := map[string]bool{}
			for _, p := range jsonDocDynamicMaps[cmd] {
				dynamic[p] = true
			}
			paths := map[string]bool{}
			collectJSONPaths(doc, "", dynamic, paths)
			if seen[cmd] == nil {
				seen[cmd] = map[string]bool{}
			}
			for p := range paths {
				for _, kp := range jsonDocKeyPatterns[cmd] {
					if kp.re.MatchString(p) {
						p = kp.name
					}
				}
				seen[cmd][p] = true
			}
			return doc
		}
		cd := []string{"--cluster-defaults", "-"}
		tl := run("timeline", append([]string{"timeline", table, "--archived", "-o", "json"}, cd...)...)
		run("trends", append([]string{"trends", table, "-o", "json"}, cd...)...)
		run("files", append([]string{"files", table, "-o", "json"}, cd...)...)
		// The filter members (with every filter flag, bounds given and resolved).
		run("timeline", append([]string{"timeline", table, "-o", "json", "--since", "7d", "--until", "20991231", "--action", "commit,deltacommit",
			"--state", "completed", "--sort", "requested", "--reverse", "--limit", "2"}, cd...)...)
		run("files", append([]string{"files", table, "-o", "json", "--partition", "2024-*", "--limit", "1"}, cd...)...)
		run("describe", append([]string{"describe", table, "--props", props, "-o", "json"}, cd...)...)
		// a table version 4 table: the release caveat (0.11 answered by 0.12's key data)
		run("describe", append([]string{"describe", fixture("cow-v4-0.11.1"), "-o", "json"}, cd...)...)
		// A value before the timeline (no instant) and the first completed write (an instant
		// and a re-read).
		run("checkpoint", append([]string{"checkpoint", table, "20000101000000000", "-o", "json"}, cd...)...)
		first := ""
		instants, _ := tl["instants"].([]any)
		for _, x := range instants {
			in, _ := x.(map[string]any)
			if in["state"] == "COMPLETED" && in["archived"] == false && (in["action"] == "commit" || in["action"] == "deltacommit") {
				first, _ = in["requestedTime"].(string)
				break
			}
		}
		if first == "" {
			t.Fatalf("%s: no completed commit on the active timeline", fx)
		}
		run("checkpoint", append([]string{"checkpoint", table, first, "-o", "json"}, cd...)...)
		// One instant of every kind the fixtures hold (each action and state, active and
		// archived: writes, clean, rollback, savepoint, plans), and a comparison.
		kinds := map[string]bool{}
		for _, x := range instants {
			in, _ := x.(map[string]any)
			arg, _ := in["requestedTime"].(string)
			action, _ := in["action"].(string)
			kind := fmt.Sprint(action, in["state"], in["archived"], in["planAction"], in["operation"])
			if kinds[kind] {
				continue
			}
			kinds[kind] = true
			run("show", append([]string{"show", table, arg + "." + action, "-o", "json"}, cd...)...)
		}
		run("show", append([]string{"show", table, "latest", "--compare", "latest", "-o", "json"}, cd...)...)
		run("report", append([]string{"report", table, "--archived", "--props", props, "--event-log", log, "-o", "json"}, cd...)...)
		run("layout", append([]string{"layout", table, "-o", "json", "--analyze-table-characteristics", "--enable-partition-stats",
			"--include-row-counts", "--print-top-k", "5"}, cd...)...)
		run("health", append([]string{"health", table, "-o", "json", "--apply-all-defaults", "--props", props}, cd...)...)
		run("eventlog", "eventlog", log, "-o", "json", "--include-tasks")
		run("metadata validate-files", "metadata", "validate-files", table, "--all", "-o", "json")
		run("metadata stats", "metadata", "stats", table, "-o", "json")
		run("metadata timeline", append([]string{"metadata", "timeline", table, "--props", props, "-o", "json"}, cd...)...)
		// the fixture that holds duplicates (a spilled search: every field is written)
		run("duplicates", "duplicates", fixture("dups-1.1.1"), "-o", "json", "--mem-budget", "1KiB", "--limit", "3")
		run("version", "version", "-o", "json")
		run("key", "key", table, "1", "-o", "json")
	}
	// The bucket index's fields and a deleted key's versions.
	run := func(args ...string) {
		t.Helper()
		stdout, stderr, code := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatal(err)
		}
		paths := map[string]bool{}
		collectJSONPaths(doc, "", map[string]bool{"current": true, "versions[].row": true, "changes[].before": true, "changes[].after": true}, paths)
		for p := range paths {
			seen["key"][p] = true
		}
	}
	run("key", fixture("index-bucket-1.2.0"), "10", "-o", "json")
	run("key", fixture("cdc-1.2.0"), "2", "-o", "json") // CDC images
	for _, cmd := range commands {
		var missing []string
		for p := range seen[cmd] {
			if !sections[cmd][p] {
				missing = append(missing, p)
			}
		}
		sort.Strings(missing)
		for _, p := range missing {
			t.Errorf("`%s -o json` writes %q, which %s does not document in section \"## %s\"", cmd, p, jsonDocFile, cmd)
		}
		if len(seen[cmd]) < 3 {
			t.Errorf("`%s -o json` wrote only %d fields; the test no longer sees the document", cmd, len(seen[cmd]))
		}
	}
}
