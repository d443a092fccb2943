package report

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
)

// FleetDocument is `hudiscope fleet -o json`.
type FleetDocument struct {
	SchemaVersion string `json:"schemaVersion"`
	// Source is the location walked or "glue:DB[,DB…]".
	Source        string           `json:"source"`
	Tables        int              `json:"tables"`
	EntriesListed int64            `json:"entriesListed"`
	Stopped       string           `json:"stopped,omitempty"`
	Errors        []string         `json:"errors"`
	Skipped       []string         `json:"skipped"`
	Rows          []model.FleetRow `json:"rows"`
}

// NewFleetDocument sorts rows for triage (FleetLess) and fills the document.
func NewFleetDocument(d *model.Discovery, rows []model.FleetRow) *FleetDocument {
	rows = append([]model.FleetRow(nil), rows...)
	sort.SliceStable(rows, func(i, j int) bool { return FleetLess(rows[i], rows[j]) })
	doc := &FleetDocument{SchemaVersion: SchemaVersion, Source: d.Root, Tables: len(rows), EntriesListed: d.Entries,
		Stopped: d.Stopped, Errors: d.Errors, Skipped: d.Skipped, Rows: rows}
	if doc.Errors == nil {
		doc.Errors = []string{}
	}
	if doc.Skipped == nil {
		doc.Skipped = []string{}
	}
	if doc.Rows == nil {
		doc.Rows = []model.FleetRow{}
	}
	return doc
}

// FleetSeverity ranks a row for triage: 3 unreadable, 2 unhealthy (or the catalog behind),
// 1 healthy, 0 nothing judged.
func FleetSeverity(r model.FleetRow) int {
	switch {
	case r.Error != "":
		return 3
	case r.Health == health.Unhealthy || r.MetaSync == health.Unhealthy || len(r.StepErrors) > 0:
		return 2
	case r.Health == health.Healthy:
		return 1
	}
	return 0
}

// FleetLess orders rows worst first, then by name.
func FleetLess(a, b model.FleetRow) bool {
	if sa, sb := FleetSeverity(a), FleetSeverity(b); sa != sb {
		return sa > sb
	}
	return a.Name < b.Name
}

// FleetVerdict is the row's health roll-up (health.Result.Verdict, "HEALTHY · 2 of 7 not
// judged"); the bare status for a row made before the roll-up existed.
func FleetVerdict(r model.FleetRow) string {
	if r.Verdict != "" {
		return r.Verdict
	}
	return r.Health
}

// FleetAge renders seconds as the largest whole unit ("3d", "5h", "12m", "40s"); "-" for nil.
func FleetAge(sec *int64) string {
	if sec == nil {
		return "-"
	}
	if *sec < 0 {
		return "future"
	}
	return units.AgeDays(*sec)
}

// FleetPendingCell is "compaction×2 3d, clean 5h" (the oldest instant's age), "-" for none.
func FleetPendingCell(r model.FleetRow) string {
	if len(r.Pending) == 0 {
		return "-"
	}
	var parts []string
	for _, p := range r.Pending {
		c := p.Action
		if p.Count > 1 {
			c += fmt.Sprintf("×%d", p.Count)
		}
		parts = append(parts, c+" "+FleetAge(p.AgeSeconds))
	}
	return strings.Join(parts, ", ")
}

// FleetCounts renders a status → count map as "UNHEALTHY 1, HEALTHY 3" (worst first for
// health statuses, then by name); "-" when empty.
func FleetCounts(m map[string]int) string {
	if len(m) == 0 {
		return "-"
	}
	order := map[string]int{"ERROR": 0, health.Unhealthy: 1, health.Healthy: 2, health.Skipped: 3}
	keys := SortedKeys(m)
	sort.SliceStable(keys, func(i, j int) bool {
		oi, iok := order[keys[i]]
		oj, jok := order[keys[j]]
		switch {
		case iok && jok:
			return oi < oj
		case iok != jok:
			return iok
		}
		return keys[i] < keys[j]
	})
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

// FleetCells are one row's cells in FleetHeaders order.
func FleetCells(r model.FleetRow) []string {
	if r.Error != "" {
		return []string{r.Name, "-", "-", "-", "-", "-", "-", "ERROR", "-", "-", r.Error}
	}
	note := ""
	if len(r.UnhealthyChecks) > 0 {
		note = "unhealthy: " + strings.Join(r.UnhealthyChecks, ", ")
	}
	if r.MetaSync == health.Unhealthy {
		note = strings.TrimPrefix(note+"; ", "; ") + r.MetaSyncSummary
	}
	for _, st := range model.FleetSteps {
		if e, ok := r.StepErrors[string(st)]; ok {
			note = strings.TrimPrefix(note+"; ", "; ") + string(st) + ": " + e
		}
	}
	return []string{r.Name, shortType(r.TableType), fmt.Sprint(r.TableVersion), units.Bytes(r.SizeBytes), fmt.Sprint(r.Partitions),
		FleetAge(r.LastCommitAgeSeconds), FleetPendingCell(r), orDash(FleetVerdict(r)), orDash(r.MetaSync), FleetCounts(r.Findings), note}
}

// FleetHeaders name the fleet table's columns.
var FleetHeaders = []string{"TABLE", "TYPE", "V", "SIZE", "PARTS", "LAST COMMIT", "PENDING", "HEALTH", "META-SYNC", "FINDINGS", "NOTE"}

func shortType(t string) string {
	switch t {
	case "COPY_ON_WRITE":
		return "COW"
	case "MERGE_ON_READ":
		return "MOR"
	}
	return orDash(t)
}

// WriteFleetText writes the fleet as an aligned terminal table, worst first.
func WriteFleetText(w io.Writer, doc *FleetDocument) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(FleetHeaders, "\t"))
	for _, r := range doc.Rows {
		cells := FleetCells(r)
		for i := range cells {
			cells[i] = safetext.Terminal(cells[i])
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := io.WriteString(w, fleetFooter(doc, "\n"))
	return err
}

func fleetFooter(doc *FleetDocument, nl string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%d table(s) under %s", nl, doc.Tables, doc.Source)
	if doc.EntriesListed > 0 {
		fmt.Fprintf(&b, "; %d entries listed", doc.EntriesListed)
	}
	b.WriteString("\n")
	if doc.Stopped != "" {
		fmt.Fprintf(&b, "%sDiscovery %s\n", nl, doc.Stopped)
	}
	for _, e := range doc.Errors {
		fmt.Fprintf(&b, "%sNot listed: %s\n", nl, e)
	}
	if len(doc.Skipped) > 0 {
		fmt.Fprintf(&b, "%sNot Hudi, skipped: %s\n", nl, strings.Join(doc.Skipped, "; "))
	}
	return b.String()
}

// fleetTicketRows caps the rows of the Markdown triage table; the rest are counted.
const fleetTicketRows = 25

// FleetMarkdown is the ticket-sized triage table: counts by verdict, then the tables that need
// attention (unreadable, unhealthy, catalog behind), worst first, at most 25, and one line
// naming how many are fine.
func FleetMarkdown(doc *FleetDocument) string {
	var b strings.Builder
	count := map[int]int{}
	for _, r := range doc.Rows {
		count[FleetSeverity(r)]++
	}
	fmt.Fprintf(&b, "## Hudi fleet: %s\n\n", Escape(doc.Source))
	fmt.Fprintf(&b, "%d table(s): %d unreadable, %d unhealthy, %d healthy, %d not judged (writer properties not supplied).\n\n",
		doc.Tables, count[3], count[2], count[1], count[0])
	var rows [][]string
	more := 0
	for _, r := range doc.Rows {
		if FleetSeverity(r) < 2 {
			continue
		}
		if len(rows) == fleetTicketRows {
			more++
			continue
		}
		rows = append(rows, FleetCells(r))
	}
	if len(rows) > 0 {
		b.WriteString(Table(FleetHeaders, "lllrrllllll", rows))
		if more > 0 {
			fmt.Fprintf(&b, "\n…and %d more needing attention (`hudiscope fleet -o json` lists every row).\n", more)
		}
	} else {
		b.WriteString("No table needs attention.\n")
	}
	b.WriteString(fleetFooter(doc, "\n"))
	return b.String()
}
