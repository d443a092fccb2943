// Package catalog reads table definitions from a metastore (the AWS Glue Data Catalog, a Hive
// Metastore) so the fleet can find Hudi tables by name and compare what the catalog says with
// the table. It is read-only by construction: each client is held behind an interface with
// only the read calls it needs (Glue: GetDatabases, GetTables, GetPartitions; HMS:
// get_all_databases, get_all_tables, get_table, get_partitions) and nothing else.
package catalog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/glue"
	"github.com/aws/aws-sdk-go-v2/service/glue/types"
	"github.com/aws/smithy-go/logging"
)

// Table is one catalog table.
type Table struct {
	Database string
	Name     string
	// Location is the storage descriptor's location ("" when the table has none).
	Location      string
	Parameters    map[string]string
	PartitionKeys []string
	// InputFormat is the storage descriptor's input format (HoodieParquetInputFormat for
	// Hudi tables synced by Hudi).
	InputFormat string
}

// FullName is database.table.
func (t Table) FullName() string { return t.Database + "." + t.Name }

// LooksHudi reports whether the catalog itself marks the table as Hudi (synced by Hudi's meta
// sync or created by Spark SQL with USING hudi), whatever its location holds.
func (t Table) LooksHudi() bool {
	if strings.Contains(strings.ToLower(t.InputFormat), "hoodie") || strings.EqualFold(t.Parameters["spark.sql.sources.provider"], "hudi") {
		return true
	}
	_, ok := t.Parameters["last_commit_time_sync"]
	return ok
}

// Partition is one catalog partition.
type Partition struct {
	Values   []string
	Location string
}

// reader is the whole of the Glue API this package may call: reads only.
type reader interface {
	GetDatabases(ctx context.Context, in *glue.GetDatabasesInput, optFns ...func(*glue.Options)) (*glue.GetDatabasesOutput, error)
	GetTables(ctx context.Context, in *glue.GetTablesInput, optFns ...func(*glue.Options)) (*glue.GetTablesOutput, error)
	GetPartitions(ctx context.Context, in *glue.GetPartitionsInput, optFns ...func(*glue.Options)) (*glue.GetPartitionsOutput, error)
}

// Glue reads the AWS Glue Data Catalog.
type Glue struct {
	api reader
	// CatalogID is the account whose catalog is read ("" is the caller's own).
	catalogID *string
}

// Options configure the Glue client.
type Options struct {
	// Endpoint is a Glue-compatible endpoint URL (tests, moto); "" is AWS.
	Endpoint string
	Region   string
	// CatalogID reads another account's catalog.
	CatalogID string
	// Timeout bounds each call (default 30s).
	Timeout    time.Duration
	HTTPClient aws.HTTPClient
	// Log receives SDK logs (nil: discarded; they would corrupt the TUI).
	Log io.Writer
}

// OpenGlue builds a Glue client with the SDK's default credential chain (environment,
// profile, web identity, ECS, EC2 instance profile).
func OpenGlue(ctx context.Context, o Options) (*Glue, error) {
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	var logger logging.Logger = logging.Nop{}
	if o.Log != nil && o.Log != io.Discard {
		logger = logging.NewStandardLogger(o.Log)
	}
	opts := []func(*config.LoadOptions) error{
		config.WithLogger(logger), config.WithClientLogMode(0),
		config.WithRetryer(func() aws.Retryer {
			return retry.NewStandard(func(so *retry.StandardOptions) { so.MaxAttempts = 8; so.MaxBackoff = 5 * time.Second })
		}),
		config.WithHTTPClient(awshttp.NewBuildableClient().WithTimeout(o.Timeout).
			WithDialerOptions(func(d *net.Dialer) { d.Timeout = o.Timeout }).
			WithTransportOptions(func(t *http.Transport) { t.ResponseHeaderTimeout = o.Timeout })),
	}
	if o.Region != "" {
		opts = append(opts, config.WithRegion(o.Region))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("glue: AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1"
	}
	c := glue.NewFromConfig(cfg, func(g *glue.Options) {
		if o.Endpoint != "" {
			g.BaseEndpoint = aws.String(o.Endpoint)
		}
		if o.HTTPClient != nil {
			g.HTTPClient = o.HTTPClient
		}
	})
	g := &Glue{api: c}
	if o.CatalogID != "" {
		g.catalogID = aws.String(o.CatalogID)
	}
	return g, nil
}

// Databases lists every database name, sorted.
func (g *Glue) Databases(ctx context.Context) ([]string, error) {
	var out []string
	err := paginate(func(token *string) (*string, error) {
		r, err := g.api.GetDatabases(ctx, &glue.GetDatabasesInput{CatalogId: g.catalogID, NextToken: token})
		if err != nil {
			return nil, err
		}
		for _, d := range r.DatabaseList {
			out = append(out, aws.ToString(d.Name))
		}
		return r.NextToken, nil
	})
	if err != nil {
		return nil, fmt.Errorf("glue GetDatabases: %w", err)
	}
	sort.Strings(out)
	return out, nil
}

// errRepeatedToken stops a paginator whose endpoint hands back a page token it gave before
// (the same page again, or a cycle of pages); errTooManyPages one that never stops.
var (
	errRepeatedToken = errors.New("the endpoint returned a page token it had already given")
	errTooManyPages  = fmt.Errorf("the endpoint returned more than %d pages", maxPages)
)

// maxPages bounds one listing: Glue pages hold up to 100 tables or 1,000 partitions.
const maxPages = 100_000

// paginate calls page with each page token (nil first) until the endpoint hands none back.
// A catalog must not keep hudiscope listing forever: a token seen before or more than
// maxPages pages end the walk with an error.
func paginate(page func(token *string) (next *string, err error)) error {
	seen := map[string]bool{}
	var token *string
	for n := 0; ; n++ {
		if n == maxPages {
			return errTooManyPages
		}
		next, err := page(token)
		if err != nil {
			return err
		}
		if next == nil || *next == "" {
			return nil
		}
		if seen[*next] {
			return errRepeatedToken
		}
		seen[*next] = true
		token = next
	}
}

// Tables lists the tables of one database, sorted by name.
func (g *Glue) Tables(ctx context.Context, db string) ([]Table, error) {
	var out []Table
	err := paginate(func(token *string) (*string, error) {
		r, err := g.api.GetTables(ctx, &glue.GetTablesInput{CatalogId: g.catalogID, DatabaseName: aws.String(db), NextToken: token})
		if err != nil {
			return nil, err
		}
		for _, t := range r.TableList {
			out = append(out, fromGlue(db, t))
		}
		return r.NextToken, nil
	})
	if err != nil {
		return out, fmt.Errorf("glue GetTables %s: %w", db, err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func fromGlue(db string, t types.Table) Table {
	out := Table{Database: db, Name: aws.ToString(t.Name), Parameters: t.Parameters}
	if t.DatabaseName != nil {
		out.Database = *t.DatabaseName
	}
	if out.Parameters == nil {
		out.Parameters = map[string]string{}
	}
	if sd := t.StorageDescriptor; sd != nil {
		out.Location, out.InputFormat = aws.ToString(sd.Location), aws.ToString(sd.InputFormat)
	}
	for _, k := range t.PartitionKeys {
		out.PartitionKeys = append(out.PartitionKeys, aws.ToString(k.Name))
	}
	return out
}

// Partitions lists a table's partitions.
func (g *Glue) Partitions(ctx context.Context, db, table string) ([]Partition, error) {
	var out []Partition
	err := paginate(func(token *string) (*string, error) {
		r, err := g.api.GetPartitions(ctx, &glue.GetPartitionsInput{CatalogId: g.catalogID, DatabaseName: aws.String(db),
			TableName: aws.String(table), NextToken: token})
		if err != nil {
			return nil, err
		}
		for _, p := range r.Partitions {
			q := Partition{Values: p.Values}
			if p.StorageDescriptor != nil {
				q.Location = aws.ToString(p.StorageDescriptor.Location)
			}
			out = append(out, q)
		}
		return r.NextToken, nil
	})
	if err != nil {
		return out, fmt.Errorf("glue GetPartitions %s.%s: %w", db, table, err)
	}
	return out, nil
}

// RelativePath names a catalog partition as a path under the table location: its location
// with the table's location cut off (s3a:// and s3n:// spell s3://), else, for a partition
// stored elsewhere, its location as given.
func RelativePath(tableLocation string, p Partition) string {
	base := normalize(tableLocation)
	loc := normalize(p.Location)
	if loc == "" {
		return strings.Join(p.Values, "/")
	}
	if rel, ok := strings.CutPrefix(loc, base+"/"); ok {
		return rel
	}
	return loc
}

func normalize(loc string) string {
	for _, s := range []string{"s3a://", "s3n://"} {
		if strings.HasPrefix(loc, s) {
			loc = "s3://" + loc[len(s):]
		}
	}
	return strings.TrimRight(loc, "/")
}
