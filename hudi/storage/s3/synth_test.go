package s3_test

import "github.com/hudiscope/hudiscope/hudi/internal/synth"

func synthTable(parts, files int) map[string][]byte { return synth.Table("synth", parts, files) }
