package findings

import (
	"fmt"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/internal/redact"
)

// Exclusion is an input left out because it describes another table.
type Exclusion struct {
	Input  string `json:"input"`
	Origin string `json:"origin,omitempty"`
	Says   string `json:"says"`
}

// excludeForeign drops the inputs that name another table than the one read: an event log
// whose Hudi jobs wrote only other tables, and writer properties whose hoodie.table.name is
// another table's. Counting them would corroborate a row with evidence about a different table
// (issue 30). Without a table name (no hoodie.properties) nothing can be compared and nothing
// is dropped. Base paths are not compared: the table's location as given (a zip, a local copy)
// need not be the path the writer used.
func excludeForeign(in Input) (Input, []Exclusion) {
	if in.TableConfig == nil || in.TableConfig.Name == "" {
		return in, nil
	}
	name := in.TableConfig.Name
	var out []Exclusion
	if r := in.EventLog; r != nil {
		tables := r.Hudiscope.Hudi.Tables
		own := false
		for _, t := range tables {
			// The metadata table's jobs name it <table>_metadata.
			if strings.EqualFold(t, name) || strings.EqualFold(t, name+"_metadata") {
				own = true
			}
		}
		if len(tables) > 0 && !own {
			out = append(out, Exclusion{Input: InputEventLog, Origin: redact.Value("", r.EventLogPath),
				Says: fmt.Sprintf("the Spark event log describes table(s) %s, not %s", strings.Join(tables, ", "), name)})
			in.EventLog = nil
			in.Config = withoutSources(in.Config, config.SourceEventLog)
		}
	}
	if in.PropsPresent && in.Config != nil {
		for _, l := range in.Config.Layers {
			if l.Source != config.SourceProps {
				continue
			}
			if v, ok := l.Values["hoodie.table.name"]; ok && strings.TrimSpace(v) != "" && !strings.EqualFold(strings.TrimSpace(v), name) {
				out = append(out, Exclusion{Input: InputProps, Origin: in.PropsOrigin,
					Says: fmt.Sprintf("the writer properties set hoodie.table.name=%s, not %s", strings.TrimSpace(v), name)})
				in.PropsPresent = false
				in.Config = withoutSources(in.Config, config.SourceProps)
				break
			}
		}
	}
	return in, out
}

// withoutSources is the configuration without the layers of the given source.
func withoutSources(e *config.Effective, src config.Source) *config.Effective {
	if e == nil {
		return nil
	}
	c := *e
	c.Layers = nil
	for _, l := range e.Layers {
		if l.Source != src {
			c.Layers = append(c.Layers, l)
		}
	}
	return &c
}
