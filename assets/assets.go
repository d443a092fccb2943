// Package assets holds the data tables hudiscope's analyzers read (engine-effective defaults,
// declared defaults of known writer configs, secret-key markers), embedded at build time so
// they stay data rather than hand-typed Go.
package assets

import _ "embed"

// EngineDefaults is engine_defaults.json: the engine-effective defaults — the value a key
// takes when a Spark, Flink or Java writer runs with nothing supplied, which can differ from
// the key's declared default because each engine's writer sets its own.
//
//go:embed engine_defaults.json
var EngineDefaults []byte

// KnownConfigs is known_configs.json: declared defaults and alternative keys of the writer
// configs the analyzers read, and the markers that make a key secret.
//
//go:embed known_configs.json
var KnownConfigs []byte
