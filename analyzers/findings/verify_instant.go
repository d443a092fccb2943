package findings

// InstantMeasures are the measures of a table at one instant a verification reads
// (Verification.Instant), and what each is. view.InstantFactsOf computes them.
var InstantMeasures = map[string]string{
	"instant.durationMillis":               "milliseconds from the instant's request to its completion",
	"instant.filesWritten":                 "distinct files the write at the instant wrote (its write stats)",
	"instant.fileSizeP50":                  "median size in bytes of the files the write at the instant wrote",
	"instant.recordsWritten":               "records the write at the instant wrote (numWrites)",
	"instant.writeAmplification":           "the write's write amplification (numWrites / numUpdateWrites, as stats wa)",
	"instant.fileGroups":                   "file groups live as of the instant: created by the completed writes through it, minus those the replacecommits through it replaced",
	"instant.deltaCommitsSinceCompaction":  "completed delta commits after the last completed compaction through the instant (since the timeline's start when none completed)",
	"instant.cleanRetainedFromEpochMillis": "the earliest commit to retain of the last completed clean through the instant, as Unix epoch milliseconds (UTC)",
}

// InstantMeasure holds the measures of one instant of a table (InstantMeasures).
type InstantMeasure struct {
	// Instant names the instant read (TIME.ACTION), or the argument as given when none was.
	Instant string
	// Unknown says why the instant gives no measure (absent, not completed, its metadata
	// unreadable); "" when it was read.
	Unknown string
	// Values holds the measures read; Why says why a measure is unknown at this instant.
	Values map[string]float64
	Why    map[string]string
}

func (f *InstantMeasure) value(path string) (float64, string) {
	switch {
	case f == nil:
		return 0, "the instant is missing"
	case f.Unknown != "":
		return 0, f.Unknown
	}
	if v, ok := f.Values[path]; ok {
		return v, ""
	}
	if w := f.Why[path]; w != "" {
		return 0, w
	}
	return 0, path + " has no value at " + f.Instant
}

// InstantVerifiable says whether a row's verification step has checks two instants evaluate.
func (r *Row) InstantVerifiable() bool { return len(r.Verification.Instant) > 0 }

// instantUnverifiable is why the table's instants cannot verify a row.
func (r *Row) instantUnverifiable() string {
	if w := r.Verification.InstantUnverifiable; w != "" {
		return w
	}
	if r.Verifiable() {
		return "its step reads the run (an event log's stages and phases), not the table's commits"
	}
	return r.Verification.Unverifiable
}

// VerifyInstants evaluates row id's verification step on two instants of a table: the
// measures at the instant before the change and at the one after it. A nil or unknown side
// makes every check unknown (never "no change"). The error is for a row the catalog does not
// have.
func VerifyInstants(cat *Catalog, id string, before, after *InstantMeasure) (*VerifyResult, error) {
	_, row, err := verifyRow(cat, id)
	if err != nil {
		return nil, err
	}
	res := &VerifyResult{Row: row.ID, Title: row.Title, Step: row.Verify, Checks: []CheckResult{},
		Partly: row.Verification.InstantPartly}
	if !row.InstantVerifiable() {
		res.Unverifiable = row.instantUnverifiable()
		res.Verdict = VerdictUnknown
		res.Why = "not verifiable from the table's instants: " + res.Unverifiable
		if row.Verifiable() {
			res.Why += " (verify it from the two runs' event logs)"
		}
		return res, nil
	}
	for _, ck := range row.Verification.Instant {
		b, whyB := before.value(ck.Path)
		a, whyA := after.value(ck.Path)
		res.Checks = append(res.Checks, judge(ck, b, whyB, a, whyA))
	}
	res.Verdict, res.Why = combine(res.Checks)
	return res, nil
}
