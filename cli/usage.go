package cli

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

// shortUsage is what a bare `hudiscope` prints: enough to take the next step.
const shortUsage = `Usage: hudiscope [flags] TABLE          open the interactive explorer
       hudiscope COMMAND [flags] ARGS     run one analysis without the explorer

Commands:
  timeline    every instant with requested and completion time
  show        one instant: write stats per partition and file, write amplification, plans
  trends      per-commit series over the active and archived timelines, with change points
  files       the latest file slice of every file group
  describe    hoodie.properties, table configuration with sources, schema and schema history
  checkpoint  what an incremental read from a begin value re-reads
  layout      file sizes, skew, small files (HoodieTableLayoutAnalyzer)
  health      table-service health (HoodieTableHealthChecker)
  metadata    the metadata table: validate-files (vs storage), stats, timeline
  eventlog    a Spark event log by Hudi operation and phase (--compare B: two side by side)
  verify      whether a catalog row's change worked, from the event logs before and after
  report      the full report as Markdown or JSON
  incremental the rows an incremental read from a begin value returns (--count)
  snapshot    the rows a snapshot read returns, or as of a time (--as-of, --count)
  changes     the CDC rows (op, ts_ms, before, after) between two times
  duplicates  record keys held more than once in the latest snapshot (exit 3 when any)
  key         one record key: where it lives, its value, every version on storage
  fleet       every table under a location or in a catalog (--glue, --hms), one row each
  version, completion, man, config

TABLE is a directory, a .zip, or an s3://, s3a:// or hdfs:// URI; a location that is not a
table opens the Fleet view of every table below it.

Example:
  hudiscope s3://bucket/warehouse/orders --props writer.properties

Run 'hudiscope COMMAND --help' for a command's flags and examples.
`

func printShortUsage(w io.Writer) { io.WriteString(w, shortUsage) }

// commandNames are the words that select a command (open is the default and never typed).
var commandNames = []string{"open", "report", "timeline", "show", "trends", "files", "describe", "checkpoint", "eventlog", "verify", "layout",
	"health", "metadata", "fleet", "incremental", "snapshot", "changes", "duplicates", "key", "version", "completion", "man", "config"}

// helpWords turns `hudiscope help [COMMAND]` into the --help kong understands.
func helpWords(args []string) []string {
	if len(args) == 0 || args[0] != "help" {
		return args
	}
	if len(args) > 1 {
		return []string{args[1], "--help"}
	}
	return []string{"--help"}
}

// wantsVersion: --version anywhere before a "--" prints the build, whatever else is given.
func wantsVersion(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--version" {
			return true
		}
	}
	return false
}

// unknownCommand returns a message when the first word is neither a command nor a table: it
// is no existing path and has nothing of a path or URI ('/', '.', '\\', "://"). A word within
// two edits of a command is named with it ("did you mean").
func unknownCommand(args []string) string {
	w := args[0]
	if w == "" || strings.HasPrefix(w, "-") || strings.Contains(w, "://") || strings.ContainsAny(w, "/.\\") {
		return ""
	}
	for _, c := range commandNames {
		if w == c {
			return ""
		}
	}
	if _, err := os.Stat(w); err == nil {
		return ""
	}
	best, bestD := "", 3
	for _, c := range commandNames {
		if d := editDistance(strings.ToLower(w), c); d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" {
		return fmt.Sprintf("unknown command %q, and no file or directory of that name (run 'hudiscope' for the commands; write ./%s for a path)", w, w)
	}
	return fmt.Sprintf("unknown command %q; did you mean %q? (run 'hudiscope' for the list)", w, best)
}

// editDistance is the Levenshtein distance of two short words.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// kongEnumError is kong's message for a value outside a flag's enum.
var kongEnumError = regexp.MustCompile(`must be one of (.*) but got "([^"]*)"$`)

// enumSuggestion adds the nearest allowed value to kong's enum error when it is within two
// edits: --action must be one of … but got "comit"; did you mean "commit"?
func enumSuggestion(msg string) string {
	m := kongEnumError.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	best, bestD := "", 3
	for _, v := range strings.Split(m[1], ",") {
		v = strings.Trim(v, `"`)
		if d := editDistance(strings.ToLower(m[2]), v); d < bestD {
			best, bestD = v, d
		}
	}
	if best == "" {
		return msg
	}
	return fmt.Sprintf("%s; did you mean %q?", msg, best)
}
