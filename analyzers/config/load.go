package config

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"

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
		props, err := ReadProps(f.PropsFile)
		if err != nil {
			return nil, err
		}
		in.Props = props
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

// ErrNotProperties is wrapped by ReadProps for a file that is not Java properties text.
var ErrNotProperties = errors.New("not a properties file")

// maxPropsBytes bounds what ReadProps reads: no writer properties file is this large, and an
// event log passed by mistake must not be read whole before it is refused.
const maxPropsBytes = 16 << 20

// ReadProps reads and parses a --props file. Every command and the explorer read it here, so a
// missing, unreadable or non-properties file (an event log passed by mistake) is refused the
// same way everywhere instead of being parsed into nonsense keys that judge nothing.
func ReadProps(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read --props: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxPropsBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read --props: %w", err)
	}
	if len(b) > maxPropsBytes {
		return nil, fmt.Errorf("read --props: %s: %w: larger than %d MiB", path, ErrNotProperties, maxPropsBytes>>20)
	}
	if err := CheckProperties(b); err != nil {
		return nil, fmt.Errorf("read --props: %s: %w", path, err)
	}
	props, err := tableconfig.ParseProperties(b)
	if err != nil {
		return nil, fmt.Errorf("read --props: %s: %w", path, err)
	}
	return props, nil
}

// CheckProperties decides whether b is Java properties text. It is not when it is binary (a NUL
// or other C0 control byte besides tab, newline, carriage return and form feed, which no
// properties file holds; Latin-1 and UTF-8 text pass), or when it has lines (not only blanks
// and comments: an empty file is valid and sets nothing) and none is a key, a separator
// (=, : or, after a dotted key, whitespace) and something after it, with a key of letters,
// digits and . _ - / \ (JSON, such as an uncompressed event log, has none; nor has prose). The
// error wraps ErrNotProperties.
func CheckProperties(b []byte) error {
	for i, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' {
			return fmt.Errorf("%w: binary content (byte 0x%02x at offset %d)", ErrNotProperties, c, i)
		}
	}
	text := false
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimLeft(line, " \t\f\r")
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		text = true
		i := strings.IndexAny(line, "=: \t\f")
		if i <= 0 || !keyLike(line[:i]) {
			continue
		}
		// "key value" only with a dotted key (spark.x, hoodie.x): prose has spaces too.
		rest := strings.TrimLeft(line[i:], " \t\f")
		if rest != "" && (rest[0] == '=' || rest[0] == ':' || strings.Contains(line[:i], ".")) {
			return nil
		}
	}
	if !text {
		return nil // empty or comments only: valid properties that set nothing (findings: no evidence)
	}
	return fmt.Errorf("%w: no key=value line", ErrNotProperties)
}

func keyLike(k string) bool {
	for _, r := range k {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("._-/\\", r) {
			return false
		}
	}
	return true
}
