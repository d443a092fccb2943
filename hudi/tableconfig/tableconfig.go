// Package tableconfig reads hoodie.properties: Java properties parsing, the typed table
// configuration, its checksum and the zone the writer wrote instant times in.
package tableconfig

import (
	"context"
	"fmt"
	"hash/crc32"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/storage"
)

// Table types as hoodie.properties spells them.
const (
	CopyOnWrite = "COPY_ON_WRITE"
	MergeOnRead = "MERGE_ON_READ"
)

// Config is hoodie.properties, typed where the reader needs it; Props keeps every key.
type Config struct {
	Props                 map[string]string
	Source                string // the file it came from (hoodie.properties or its .backup)
	Name                  string
	Database              string
	Type                  string
	Version               int
	LayoutVersion         int
	TimelineDir           string // relative to the table root
	HistoryDir            string // 1.x LSM archived timeline, relative to the table root
	ArchiveDir            string // 0.x archived timeline, relative to the table root
	RecordKeys            []string
	PartitionKeys         []string
	KeyGenerator          string
	OrderingFields        []string
	BaseFormat            string
	CDCEnabled            bool
	CDCMode               string
	MetadataParts         []string
	MetadataPartsInflight []string
	// Zone renders instant times and derived completion times. UTC when the table says so;
	// for LOCAL (Java's default) the writer's zone as read from the file's two header comments,
	// else the local zone of this machine.
	Zone       *time.Location
	ZoneSource string
	// ChecksumOK is false when hoodie.table.checksum is missing or does not match.
	ChecksumOK bool
	// Warnings are problems with Source that did not stop the parse (a refused path).
	Warnings []string
}

// Supported table versions: 4 (0.11) through 9 (1.1).
const (
	MinTableVersion = 4
	MaxTableVersion = 9
)

// Parse interprets hoodie.properties bytes; source names the file in errors.
func Parse(data []byte, source string) (*Config, error) {
	props, err := ParseProperties(data)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", source, err)
	}
	c := &Config{Props: props, Source: source, ChecksumOK: true}
	c.Name = props["hoodie.table.name"]
	if c.Name == "" {
		return nil, fmt.Errorf("parse %s: no hoodie.table.name (not a hoodie.properties file, or truncated)", source)
	}
	c.Database = props["hoodie.database.name"]
	c.Type = strings.ToUpper(strings.TrimSpace(props["hoodie.table.type"]))
	if c.Type == "" {
		c.Type = CopyOnWrite // Java's default
	}
	if c.Type != CopyOnWrite && c.Type != MergeOnRead {
		return nil, fmt.Errorf("parse %s: unknown hoodie.table.type %q", source, c.Type)
	}
	v := strings.TrimSpace(props["hoodie.table.version"])
	if v == "" {
		return nil, fmt.Errorf("parse %s: no hoodie.table.version", source)
	}
	if c.Version, err = strconv.Atoi(v); err != nil {
		return nil, fmt.Errorf("parse %s: hoodie.table.version %q is not a number", source, v)
	}
	if c.Version < MinTableVersion || c.Version > MaxTableVersion {
		return nil, fmt.Errorf("%s: unsupported table version %d (hudiscope reads versions %d–%d, Hudi 0.11 to 1.1)",
			source, c.Version, MinTableVersion, MaxTableVersion)
	}
	c.LayoutVersion = 1
	if c.Version >= 8 {
		c.LayoutVersion = 2
	}
	if lv := strings.TrimSpace(props["hoodie.timeline.layout.version"]); lv != "" {
		if n, err := strconv.Atoi(lv); err == nil && n >= 1 {
			c.LayoutVersion = n
		}
	}
	if c.LayoutVersion >= 2 {
		c.TimelineDir = ".hoodie/" + c.confined("hoodie.timeline.path", "timeline")
		c.HistoryDir = c.TimelineDir + "/" + c.confined("hoodie.timeline.history.path", "history")
	} else {
		c.TimelineDir = ".hoodie"
	}
	// The 0.x archive lives in .hoodie/<hoodie.archivelog.folder>. Layout-2 tables reuse that key
	// for their LSM history, so for them only a pre-upgrade .hoodie/archived is read.
	c.ArchiveDir = ".hoodie/archived"
	if c.LayoutVersion < 2 {
		c.ArchiveDir = ".hoodie/" + c.confined("hoodie.archivelog.folder", "archived")
	}
	c.RecordKeys = splitList(props["hoodie.table.recordkey.fields"])
	c.PartitionKeys = splitList(props["hoodie.table.partition.fields"])
	c.KeyGenerator = orDefault(props["hoodie.table.keygenerator.type"], props["hoodie.table.keygenerator.class"])
	c.OrderingFields = splitList(orDefault(props["hoodie.table.ordering.fields"], props["hoodie.table.precombine.field"]))
	c.BaseFormat = strings.ToUpper(orDefault(props["hoodie.table.base.file.format"], "PARQUET"))
	c.CDCEnabled = strings.EqualFold(props["hoodie.table.cdc.enabled"], "true")
	if c.CDCEnabled {
		c.CDCMode = strings.ToUpper(orDefault(props["hoodie.table.cdc.supplemental.logging.mode"], "DATA_BEFORE_AFTER"))
	}
	c.MetadataParts = splitList(props["hoodie.table.metadata.partitions"])
	c.MetadataPartsInflight = splitList(props["hoodie.table.metadata.partitions.inflight"])
	// Hudi writes the checksum since table version 3; a file without it was cut short.
	sum, ok := props["hoodie.table.checksum"]
	c.ChecksumOK = ok && sum == strconv.FormatUint(uint64(checksum(c.Database, c.Name)), 10)
	c.Zone, c.ZoneSource = tableZone(props, data)
	return c, nil
}

// checksum is hoodie.table.checksum: CRC32 of "<db>.<table>".
func checksum(db, name string) uint32 {
	return crc32.ChecksumIEEE([]byte(db + "." + name))
}

// PartitionFieldNames strips CustomKeyGenerator's ":SIMPLE"/":TIMESTAMP" suffixes.
func (c *Config) PartitionFieldNames() []string {
	out := make([]string, len(c.PartitionKeys))
	for i, f := range c.PartitionKeys {
		out[i], _, _ = strings.Cut(f, ":")
	}
	return out
}

// SortedKeys returns the property names in order, for stable output.
func (c *Config) SortedKeys() []string {
	keys := make([]string, 0, len(c.Props))
	for k := range c.Props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// confined returns the relative path the property key names, or def when it is unset or
// could lead outside the table root (absolute, or with ".." once cleaned); a refusal is a
// warning.
func (c *Config) confined(key, def string) string {
	v := strings.TrimSpace(c.Props[key])
	if v == "" {
		return def
	}
	if why := storage.Escapes(v); why != "" {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s=%q refused: %s; using the default %q", key, v, why, def))
		return def
	}
	return path.Clean(v)
}

func orDefault(v, def string) string {
	if v = strings.TrimSpace(v); v == "" {
		return def
	}
	return v
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

var (
	isoCommentRe  = regexp.MustCompile(`(?m)^#\s*(?:Properties saved on|Updated at)\s+(\S+)`)
	dateCommentRe = regexp.MustCompile(`(?m)^#\s*[A-Z][a-z]{2} ([A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d) (\S+) (\d{4})\s*$`)
)

// tableZone decides the zone instant strings were written in. Java's default (LOCAL) is the
// writer's clock; the first two comment lines of hoodie.properties (an ISO UTC stamp and a
// Date.toString() in the writer's zone) give its offset.
func tableZone(props map[string]string, data []byte) (*time.Location, string) {
	if strings.EqualFold(strings.TrimSpace(props["hoodie.table.timeline.timezone"]), "UTC") {
		return time.UTC, "hoodie.table.timeline.timezone=UTC"
	}
	iso := isoCommentRe.FindSubmatch(data)
	local := dateCommentRe.FindSubmatch(data)
	if iso != nil && local != nil {
		utc, err1 := time.Parse(time.RFC3339Nano, string(iso[1]))
		wall, err2 := time.Parse("Jan _2 15:04:05 2006", string(local[1])+" "+string(local[3]))
		if err1 == nil && err2 == nil {
			// Round to the quarter hour: the two stamps are taken a few ms apart.
			off := wall.Sub(utc.Truncate(time.Second))
			q := 15 * time.Minute
			off = off.Round(q)
			if off > -15*time.Hour && off < 15*time.Hour {
				name := string(local[2])
				if off == 0 {
					return time.UTC, "writer clock (UTC, from hoodie.properties header)"
				}
				return time.FixedZone(name, int(off/time.Second)), fmt.Sprintf("writer clock (%s, UTC%s, from hoodie.properties header)", name, fmtOffset(off))
			}
		}
	}
	return time.Local, "LOCAL (this machine's zone; the writer's zone is unknown)"
}

func fmtOffset(d time.Duration) string {
	sign := "+"
	if d < 0 {
		sign, d = "-", -d
	}
	h := int(d / time.Hour)
	m := int((d % time.Hour) / time.Minute)
	if m == 0 {
		return fmt.Sprintf("%s%d", sign, h)
	}
	return fmt.Sprintf("%s%d:%02d", sign, h, m)
}

// MaxPropertiesBytes is the largest hoodie.properties read. Real ones are a few KB (tens with
// a wide table's create schema); a bigger file is not one, and holding it parsed would cost
// memory for nothing.
var MaxPropertiesBytes = 16 << 20

// Read reads and parses the properties file at p (relative to the storage root). A file the
// storage refuses as too large (or over MaxPropertiesBytes) is an error naming it: without
// its properties the table cannot be read.
func Read(ctx context.Context, st storage.Storage, p string) (*Config, error) {
	b, err := st.ReadFile(ctx, p)
	if err != nil {
		return nil, err // names the file: every backend's errors do
	}
	source := st.Root() + "/" + p
	if len(b) == 0 {
		return nil, fmt.Errorf("%s: empty file", source)
	}
	if len(b) > MaxPropertiesBytes {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d MiB a properties file may be (not a hoodie.properties)",
			source, len(b), MaxPropertiesBytes>>20)
	}
	return Parse(b, source)
}
