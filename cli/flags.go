package cli

import (
	"io"
	"os"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/internal/clock"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/view"
)

// StorageFlags configure the remote-storage backends (tables and event logs alike).
type StorageFlags struct {
	S3Endpoint    string           `name:"s3-endpoint" env:"HUDISCOPE_S3_ENDPOINT" help:"Endpoint URL of an S3-compatible store (MinIO, Ceph, LocalStack); implies path-style addressing."`
	S3Region      string           `name:"s3-region" env:"HUDISCOPE_S3_REGION" help:"Region of the bucket (default: discovered from the bucket)."`
	HadoopConfDir string           `name:"hadoop-conf-dir" help:"Directory with core-site.xml and hdfs-site.xml for hdfs:// (default: $HADOOP_CONF_DIR, then /etc/hadoop/conf)."`
	HadoopUser    string           `name:"hadoop-user" help:"HDFS user for simple authentication (default: $HADOOP_USER_NAME, then the OS user)."`
	MaxReadSize   storage.ByteSize `name:"max-read-size" default:"256MiB" placeholder:"SIZE" help:"Largest metadata file (instant, hoodie.properties, plan) read whole, and largest compressed zip member opened; larger ones are reported and skipped (bytes, or with a unit: 512MiB, 1GiB)."`
	Timeout       time.Duration    `name:"timeout" default:"30s" help:"Give up on a remote call (S3, HDFS) that makes no progress for this long: connecting, waiting for an answer, or between bytes of a body."`
}

// storage returns the backend options; SDK logs go to logw (the TUI's --log-file) or nowhere,
// never to the terminal.
func (f StorageFlags) storage(logw io.Writer) storage.Options {
	return storage.Options{S3Endpoint: f.S3Endpoint, S3Region: f.S3Region,
		HadoopConfDir: f.HadoopConfDir, HadoopUser: f.HadoopUser, Log: logw,
		MaxReadBytes: int64(f.MaxReadSize), Timeout: f.Timeout}
}

// TableFlags are accepted by every command that reads a table, the explorer included, and
// mean the same everywhere.
type TableFlags struct {
	StorageFlags
	NoMDT           bool     `name:"no-mdt" help:"List partitions from storage even when the metadata table can list them."`
	Props           string   `name:"props" help:"Writer properties file (Java properties syntax: the options the job writes with)."`
	HoodieConf      []string `name:"hoodie-conf" sep:"none" help:"Writer property k=v (repeatable)."`
	Engine          string   `name:"engine" default:"spark" enum:"spark,flink,java" help:"Engine whose effective defaults apply (spark, flink, java)."`
	ClusterDefaults string   `name:"cluster-defaults" help:"Cluster-wide hudi-defaults.conf to apply (default: $HUDI_CONF_DIR/hudi-defaults.conf, then /etc/hudi/conf/hudi-defaults.conf; - for none)."`
	Archived        bool     `name:"archived" help:"Also read the archived timeline."`
	HudiVersion     string   `name:"hudi-version" placeholder:"X.Y.Z" help:"Hudi release of the engine that reads the table (incremental-read verdicts follow its rules). Default: the bundle installed under /usr/lib/hudi (EMR), else every release line that can read the table."`
}

// options are the model options for table location; steps nil loads everything.
func (f TableFlags) options(location string, steps []model.Step, logw io.Writer) model.Options {
	return model.Options{Location: location, Steps: steps, Storage: f.storage(logw), Archived: f.Archived,
		Props: f.Props, HoodieConf: f.HoodieConf, Engine: f.Engine, NoMDT: f.NoMDT,
		ClusterDefaults: f.ClusterDefaults, Now: clock.Now, HudiVersion: f.HudiVersion, HudiLibDir: hudiLibDir()}
}

// hudiLibDir is where the installed Hudi bundle is looked for when --hudi-version is not
// given: EMR's /usr/lib/hudi, or HUDISCOPE_HUDI_LIB.
func hudiLibDir() string {
	if dir := os.Getenv("HUDISCOPE_HUDI_LIB"); dir != "" {
		return dir
	}
	return checkpoint.DefaultHudiLibDir
}

// checkProps reads --props the way the commands' config step does, so a missing, unreadable or
// non-properties file stops the explorer and the fleet with the same message and exit code 1
// before any table is read or the terminal is taken. (One the load later fails to read is a
// problem in the explorer.)
func (f TableFlags) checkProps() error {
	if f.Props == "" {
		return nil
	}
	_, err := config.ReadProps(f.Props)
	return err
}

// InstantFilterFlags select and order the instants of a listing (timeline; any command that
// lists instants embeds them). The words and their meaning are view.ParseInstantFilter's.
type InstantFilterFlags struct {
	Limit   int      `name:"limit" placeholder:"N" help:"List only the newest N instants of the order (after the other filters)."`
	Since   string   `name:"since" placeholder:"WHEN" help:"Only instants requested at or after WHEN: an instant time or its prefix (20261201093000, 20261201), an RFC 3339 time, or a duration before now (7d, 36h, 90m)."`
	Until   string   `name:"until" placeholder:"WHEN" help:"Only instants requested at or before WHEN (as --since; a prefix includes all it covers: 20261201 is the whole day)."`
	Action  []string `name:"action" placeholder:"ACTION,..." enum:"commit,deltacommit,clean,compaction,replacecommit,clustering,rollback,restore,savepoint,indexing,logcompaction" help:"Only these actions (comma list or repeated). compaction, logcompaction and clustering also match the commit, deltacommit or replacecommit they completed as."`
	State   []string `name:"state" placeholder:"STATE,..." enum:"requested,inflight,completed" help:"Only instants in these states (comma list)."`
	Sort    string   `name:"sort" default:"table" enum:"table,completion,requested" help:"Order: the table's own (completion order for table version 8 and later, requested order before), completion or requested."`
	Reverse bool     `name:"reverse" help:"List newest first."`
}

// filter checks the flags' words; a bad one is a usage error.
func (f InstantFilterFlags) filter() (view.InstantFilter, error) {
	flt, err := view.ParseInstantFilter(f.Limit, f.Since, f.Until, f.Action, f.State, f.Sort, f.Reverse)
	if err != nil {
		return flt, codeError{exitUsage, err.Error()}
	}
	return flt, nil
}
