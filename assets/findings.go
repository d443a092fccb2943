package assets

import _ "embed"

// FindingsCatalog is findings_catalog.json: the observation (OBS-001…030) and capability
// (CAP-001…007) rows of the Hudi optimization catalogs as data — signals as field paths,
// corroborating inputs, config key and direction, risk tier, payoff, verification and gating.
//
//go:embed findings_catalog.json
var FindingsCatalog []byte

// FindingsKnownKeys is findings_known_keys.json: the hoodie.* keys Hudi 1.2.0 defines, for the
// misspelled-key check (Hudi silently ignores unknown keys).
//
//go:embed findings_known_keys.json
var FindingsKnownKeys []byte
