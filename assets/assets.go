// Package assets holds the data tables hudiscope's analyzers read (engine-effective defaults,
// declared defaults of known writer configs, secret-key markers), embedded at build time so
// they stay data rather than hand-typed Go.
package assets

import _ "embed"

// EngineDefaults is engine_defaults.json: the engine-effective defaults of
// shared/docs/catalog/SKILL.md step 6.
//
//go:embed engine_defaults.json
var EngineDefaults []byte

// KnownConfigs is known_configs.json: declared defaults and alternative keys of the writer
// configs the analyzers read, and the markers that make a key secret.
//
//go:embed known_configs.json
var KnownConfigs []byte
