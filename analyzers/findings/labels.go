package findings

// Label is one status, risk or key word a findings report shows, and what it means.
type Label struct {
	Word  string `json:"word"`
	Short string `json:"short"` // for a terminal legend
	Long  string `json:"long"`  // for the Markdown export
}

// Labels lists every status and risk word the reports show, in reading order.
func Labels() []Label {
	return []Label{
		{StatusObservation, "2+ inputs agree: recommended", "At least two of the three inputs (writer properties, event log, table) agreed on signals that could have been false: a recommendation."},
		{StatusHypothesis, "unconfirmed", "Only one input agreed, a signal, gate or counter-signal the row rests on is unknown (a skipped health check, a fact the inputs cannot give), or the row's decisive evidence (query evidence) is one no input carries: described, not recommended; it names what would settle it."},
		{StatusDoNothing, "benign: change nothing", "The benign reading was confirmed: the answer is to change nothing, and no other row may move the same lever."},
		{StatusCandidate, "capability that would suit", "A capability whose signals for it agree and whose counter-signals were all judged and do not fire."},
		{StatusDont, "counter-signal says don't", "A capability whose counter-signal fires: the answer is \"don't\", not a failure to answer."},
		{StatusRefused, "durable: handed off", "The measurements point at a durable change (index type, table type, partitioning): reported with the evidence and handed to a design review, never advised as tuning."},
		{StatusGated, "precondition fails or inert", "A precondition fails on this table or release, or the row's lever would do nothing here, so it is not raised."},
		{StatusStopped, "a counter-signal stopped it", "A signal fired but a counter-signal stopped the row."},
		{StatusWithheld, "broke an invariant: no advice", "The finding broke a report invariant (two directions for one key, a change beside \"change nothing\", a key the release lacks, or too little corroboration) and was dropped."},
		{StatusNotObserved, "no signal for it", "No signal for the observation in the inputs present."},
		{StatusNotApplicable, "no signal for it", "No signal for the capability in the inputs present."},
		{RiskSafe, "reversible, storage untouched", "Risk tier: a reversible config change with no effect on what is on storage."},
		{RiskOperational, "changes a table service", "Risk tier: changes what a table service does; reversible, but it takes a service cycle to observe and the intermediate state is on storage."},
		{RiskDurable, "changes storage: refused", "Risk tier: changes what is on storage in a way that is hard or impossible to undo; always refused."},
		{"inert", "key would do nothing here", "A key of the row's change that would do nothing on this table or release: listed, never recommended."},
		{"default", "release default, not set", "A value the writer did not set: the release's (engine-effective) default. From an empty props file it is not evidence."},
	}
}
