package catalog

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/glue"
	"github.com/aws/aws-sdk-go-v2/service/glue/types"
	"github.com/aws/smithy-go"

	"github.com/hudiscope/hudiscope/internal/testutil/gluefake"
)

func open(t *testing.T, dbs map[string][]gluefake.Table) (*Glue, *gluefake.Fake) {
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "SECRETTEST")
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
	f := gluefake.New(t, dbs)
	g, err := OpenGlue(context.Background(), Options{Endpoint: f.URL, Region: "eu-west-1"})
	if err != nil {
		t.Fatal(err)
	}
	return g, f
}

func TestGlueReadsPagedCatalog(t *testing.T) {
	var parts []gluefake.Partition
	for _, d := range []string{"2024-01-01", "2024-01-02", "2024-01-03"} {
		parts = append(parts, gluefake.Partition{Values: []string{d}, Location: "s3a://lake/w/orders/dt=" + d + "/"})
	}
	g, f := open(t, map[string][]gluefake.Table{
		"sales": {
			{Name: "orders", Location: "s3://lake/w/orders", InputFormat: "org.apache.hudi.hadoop.HoodieParquetInputFormat",
				Parameters: map[string]string{"last_commit_time_sync": "20240103000000000"}, PartitionKeys: []string{"dt"}, Partitions: parts},
			{Name: "csv_dump", Location: "s3://lake/w/csv", InputFormat: "org.apache.hadoop.mapred.TextInputFormat"},
			{Name: "spark_sql", Location: "s3://lake/w/s", Parameters: map[string]string{"spark.sql.sources.provider": "hudi"}},
		},
		"empty": nil, "ops": nil,
	})
	ctx := context.Background()
	dbs, err := g.Databases(ctx)
	if err != nil || !reflect.DeepEqual(dbs, []string{"empty", "ops", "sales"}) {
		t.Fatalf("databases %q %v", dbs, err)
	}
	tabs, err := g.Tables(ctx, "sales")
	if err != nil || len(tabs) != 3 {
		t.Fatalf("tables %+v %v", tabs, err)
	}
	if o := tabs[1]; o.FullName() != "sales.orders" || o.Location != "s3://lake/w/orders" || !o.LooksHudi() ||
		!reflect.DeepEqual(o.PartitionKeys, []string{"dt"}) || o.Parameters["last_commit_time_sync"] != "20240103000000000" {
		t.Errorf("orders %+v", o)
	}
	if tabs[0].LooksHudi() || !tabs[2].LooksHudi() {
		t.Errorf("hudi marks: csv %v spark_sql %v", tabs[0].LooksHudi(), tabs[2].LooksHudi())
	}
	ps, err := g.Partitions(ctx, "sales", "orders")
	if err != nil || len(ps) != 3 {
		t.Fatalf("partitions %+v %v", ps, err)
	}
	var rels []string
	for _, p := range ps {
		rels = append(rels, RelativePath("s3://lake/w/orders/", p))
	}
	if !reflect.DeepEqual(rels, []string{"dt=2024-01-01", "dt=2024-01-02", "dt=2024-01-03"}) {
		t.Errorf("relative paths %q", rels)
	}
	// Two pages each for databases and partitions, two for the three tables.
	if ops := f.Ops(); !reflect.DeepEqual(ops, map[string]int{"GetDatabases": 2, "GetTables": 2, "GetPartitions": 2}) {
		t.Errorf("operations %v", ops)
	}
	_, err = g.Tables(ctx, "nope")
	var ae smithy.APIError
	if !errors.As(err, &ae) || ae.ErrorCode() != "EntityNotFoundException" || !strings.Contains(err.Error(), "glue GetTables nope") {
		t.Errorf("missing database: %v", err)
	}
}

func TestRelativePath(t *testing.T) {
	for _, c := range []struct{ table, loc, want string }{
		{"s3://b/t", "s3://b/t/a=1/b=2", "a=1/b=2"},
		{"s3a://b/t/", "s3://b/t/2024/01/", "2024/01"},
		{"s3://b/t", "s3://elsewhere/x", "s3://elsewhere/x"},
		{"s3://b/t", "", "v1/v2"},
	} {
		if got := RelativePath(c.table, Partition{Values: []string{"v1", "v2"}, Location: c.loc}); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.table, c.loc, got, c.want)
		}
	}
}

// TestReadOnlyInterface: the client is held as `reader`, whose methods are the three reads.
func TestReadOnlyInterface(t *testing.T) {
	rt := reflect.TypeOf((*reader)(nil)).Elem()
	var names []string
	for i := 0; i < rt.NumMethod(); i++ {
		names = append(names, rt.Method(i).Name)
	}
	if !reflect.DeepEqual(names, []string{"GetDatabases", "GetPartitions", "GetTables"}) {
		t.Errorf("reader methods %q", names)
	}
	if reflect.TypeOf(Glue{}).Field(0).Type != rt {
		t.Error("Glue holds more than the read-only interface")
	}
}

// cyclingGlue hands out page tokens A, B, A, … forever: a hostile or broken endpoint.
type cyclingGlue struct{ calls int }

func (c *cyclingGlue) next() *string {
	c.calls++
	return aws.String([]string{"A", "B"}[c.calls%2])
}

func (c *cyclingGlue) GetDatabases(context.Context, *glue.GetDatabasesInput, ...func(*glue.Options)) (*glue.GetDatabasesOutput, error) {
	return &glue.GetDatabasesOutput{DatabaseList: []types.Database{{Name: aws.String("db")}}, NextToken: c.next()}, nil
}

func (c *cyclingGlue) GetTables(context.Context, *glue.GetTablesInput, ...func(*glue.Options)) (*glue.GetTablesOutput, error) {
	return &glue.GetTablesOutput{TableList: []types.Table{{Name: aws.String("t")}}, NextToken: c.next()}, nil
}

func (c *cyclingGlue) GetPartitions(context.Context, *glue.GetPartitionsInput, ...func(*glue.Options)) (*glue.GetPartitionsOutput, error) {
	return &glue.GetPartitionsOutput{Partitions: []types.Partition{{Values: []string{"x"}}}, NextToken: c.next()}, nil
}

// A catalog whose page tokens cycle (A, B, A, …) ends each listing after three pages with a
// named error instead of listing forever; a token repeated at once likewise.
func TestGluePaginationStopsOnRepeatedTokens(t *testing.T) {
	ctx := context.Background()
	for name, list := range map[string]func(g *Glue) error{
		"databases":  func(g *Glue) error { _, err := g.Databases(ctx); return err },
		"tables":     func(g *Glue) error { _, err := g.Tables(ctx, "db"); return err },
		"partitions": func(g *Glue) error { _, err := g.Partitions(ctx, "db", "t"); return err },
	} {
		c := &cyclingGlue{}
		err := list(&Glue{api: c})
		if !errors.Is(err, errRepeatedToken) || c.calls != 3 {
			t.Errorf("%s: %v after %d calls, want errRepeatedToken after 3", name, err, c.calls)
		}
	}
}
