package hdfs

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

const coreSite = `<?xml version="1.0"?><configuration>
<property><name>fs.defaultFS</name><value>hdfs://ha-cluster</value></property>
</configuration>`

const hdfsSite = `<?xml version="1.0"?><configuration>
<property><name>dfs.nameservices</name><value>ha-cluster</value></property>
<property><name>dfs.ha.namenodes.ha-cluster</name><value>nn1,nn2</value></property>
<property><name>dfs.namenode.rpc-address.ha-cluster.nn1</name><value>master1:8020</value></property>
<property><name>dfs.namenode.rpc-address.ha-cluster.nn2</name><value>master2:8020</value></property>
<property><name>dfs.namenode.rpc-address.single</name><value>single-nn:9000</value></property>
</configuration>`

func TestNamenodes(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "core-site.xml"), []byte(coreSite), 0o644)
	os.WriteFile(filepath.Join(dir, "hdfs-site.xml"), []byte(hdfsSite), 0o644)
	conf, err := LoadConf(Options{ConfDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string][]string{
		"":           {"master1:8020", "master2:8020"}, // hdfs:/// → fs.defaultFS nameservice
		"ha-cluster": {"master1:8020", "master2:8020"},
		"single":     {"single-nn:9000"},
		"nn:9000":    {"nn:9000"},
		"plainhost":  {"plainhost:8020"},
	} {
		got, err := Namenodes(conf, host)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Namenodes(%q) = %v, %v; want %v", host, got, err, want)
		}
	}
	if _, err := Namenodes(nil, ""); err == nil {
		t.Errorf("hdfs:/// without configuration accepted")
	}
}

func TestLoadConfFromEnv(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "core-site.xml"), []byte(coreSite), 0o644)
	t.Setenv("HADOOP_CONF_DIR", dir)
	conf, err := LoadConf(Options{})
	if err != nil || conf["fs.defaultFS"] != "hdfs://ha-cluster" {
		t.Errorf("HADOOP_CONF_DIR not honoured: %v %v", conf, err)
	}
}

func TestParseLocation(t *testing.T) {
	for in, want := range map[string][2]string{
		"hdfs:///var/log/spark/apps":     {"", "/var/log/spark/apps"},
		"hdfs://nn:8020/warehouse/t/":    {"nn:8020", "/warehouse/t"},
		"hdfs://ha-cluster/warehouse//t": {"ha-cluster", "/warehouse/t"},
	} {
		h, p, err := ParseLocation(in)
		if err != nil || h != want[0] || p != want[1] {
			t.Errorf("ParseLocation(%q) = %q %q %v", in, h, p, err)
		}
	}
	if _, _, err := ParseLocation("s3://b/k"); err == nil {
		t.Errorf("s3:// accepted")
	}
}

func TestStoreRoot(t *testing.T) {
	s := &Store{uri: "hdfs://nn:8020", root: "/w/t"}
	if s.Root() != "hdfs://nn:8020/w/t" || s.abs(".hoodie/x") != "/w/t/.hoodie/x" || s.abs("") != "/w/t" {
		t.Errorf("root %q abs %q", s.Root(), s.abs(".hoodie/x"))
	}
}
