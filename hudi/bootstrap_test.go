package hudi

import "testing"

// Source paths are rewritten by the first matching prefix; Hadoop's file:/x matches a prefix
// given as /x (and file:/x), and other schemes only literally.
func TestBootstrapRemap(t *testing.T) {
	tb := &Table{}
	tb.SetBootstrapPrefixes([]PrefixMap{{"/old/src", "/new/src"}, {"s3://bucket/raw", "s3://other/raw"}})
	for in, want := range map[string]string{
		"file:/old/src/dt=1/a.parquet":     "/new/src/dt=1/a.parquet",
		"/old/src/dt=1/a.parquet":          "/new/src/dt=1/a.parquet",
		"s3://bucket/raw/dt=1/a.parquet":   "s3://other/raw/dt=1/a.parquet",
		"s3a://bucket/raw/dt=1/a.parquet":  "s3a://bucket/raw/dt=1/a.parquet",
		"file:/elsewhere/dt=1/a.parquet":   "file:/elsewhere/dt=1/a.parquet",
		"hdfs://nn/old/src/dt=1/a.parquet": "hdfs://nn/old/src/dt=1/a.parquet",
	} {
		if got := tb.remap(in); got != want {
			t.Errorf("remap(%q) = %q, want %q", in, got, want)
		}
	}
	if _, err := ParsePrefixMap("a"); err == nil {
		t.Error("ParsePrefixMap(a): no error")
	}
	if m, err := ParsePrefixMap("s3://b/x=/y=z"); err != nil || m.Old != "s3://b/x" || m.New != "/y=z" {
		t.Errorf("ParsePrefixMap = %+v %v", m, err)
	}
}
