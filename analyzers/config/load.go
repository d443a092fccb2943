package config

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hudiscope/hudiscope/hudi/tableconfig"
)

// DefaultClusterConfDir is where EMR keeps cluster-wide Hudi defaults.
const DefaultClusterConfDir = "/etc/hudi/conf"

// ClusterDefaultsPath is $HUDI_CONF_DIR/hudi-defaults.conf, else /etc/hudi/conf/hudi-defaults.conf.
func ClusterDefaultsPath() string {
	dir := os.Getenv("HUDI_CONF_DIR")
	if dir == "" {
		dir = DefaultClusterConfDir
	}
	return filepath.Join(dir, "hudi-defaults.conf")
}

// Files names the files Load reads.
type Files struct {
	Engine     string
	PropsFile  string   // --props, optional
	HoodieConf []string // --hoodie-conf k=v
	// ClusterDefaults is the hudi-defaults.conf path; "" means ClusterDefaultsPath(), "-" none.
	ClusterDefaults string
	Table           map[string]string // hoodie.properties (already read by the table reader)
}

// Load reads the props file and the cluster defaults (a missing cluster file is not an error; a
// missing --props file is) and merges everything with New.
func Load(f Files) (*Effective, error) {
	in := Input{Engine: f.Engine, HoodieConf: f.HoodieConf, Table: f.Table}
	if f.PropsFile != "" {
		b, err := os.ReadFile(f.PropsFile)
		if err != nil {
			return nil, fmt.Errorf("read --props: %w", err)
		}
		in.Props, _ = tableconfig.ParseProperties(b)
		in.PropsFile = f.PropsFile
	}
	cluster := f.ClusterDefaults
	if cluster == "" {
		cluster = ClusterDefaultsPath()
	}
	if cluster != "-" {
		if b, err := os.ReadFile(cluster); err == nil {
			in.Cluster, _ = tableconfig.ParseProperties(b)
			in.ClusterSrc = cluster
		}
	}
	return New(in), nil
}
