// Package hdfs is the read-only HDFS backend of hudi/storage for `hdfs://` locations
// (colinmarc/hdfs/v2, native RPC). Namenodes, HA nameservices and Kerberos come from the
// Hadoop configuration in HADOOP_CONF_DIR (EMR: /etc/hadoop/conf): `hdfs:///path` uses the
// default filesystem's namenodes, `hdfs://nameservice/path` an HA nameservice, and
// `hdfs://host:port/path` one namenode.
package hdfs

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/user"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/colinmarc/hdfs/v2"
	"github.com/colinmarc/hdfs/v2/hadoopconf"
	krb "github.com/jcmturner/gokrb5/v8/client"
	krbconfig "github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/credentials"

	"github.com/hudiscope/hudiscope/hudi/storage"
)

func init() {
	storage.Register("hdfs", func(location string, o storage.Options) (storage.Storage, error) {
		return Open(location, Options{ConfDir: o.HadoopConfDir, User: o.HadoopUser, Timeout: o.Timeout, MaxReadBytes: o.MaxReadBytes})
	})
}

// Options configure the backend for one Open.
type Options struct {
	// ConfDir holds core-site.xml and hdfs-site.xml (default: $HADOOP_CONF_DIR, then
	// $HADOOP_HOME/etc/hadoop, then /etc/hadoop/conf).
	ConfDir string
	// User is the HDFS user for simple authentication (default: $HADOOP_USER_NAME, then the
	// OS user).
	User string
	// Timeout is the no-progress deadline of every namenode and datanode connection:
	// connecting, and each read or write on it (default storage.DefaultTimeout).
	Timeout time.Duration
	// MaxReadBytes caps ReadFile (default storage.DefaultMaxReadBytes).
	MaxReadBytes int64
}

// Clients are cached by namenode addresses and user, so opening many tables on one cluster
// reuses one RPC connection.
var (
	mu      sync.Mutex
	clients = map[string]*hdfs.Client{}
)

// LoadConf reads the Hadoop configuration named by the options or the environment. A
// missing directory gives an empty configuration (then locations must name host:port).
func LoadConf(o Options) (hadoopconf.HadoopConf, error) {
	dirs := []string{o.ConfDir}
	if o.ConfDir == "" {
		dirs = []string{os.Getenv("HADOOP_CONF_DIR")}
		if h := os.Getenv("HADOOP_HOME"); h != "" {
			dirs = append(dirs, path.Join(h, "etc/hadoop"))
		}
		dirs = append(dirs, "/etc/hadoop/conf")
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if _, err := os.Stat(d); err != nil {
			continue
		}
		conf, err := hadoopconf.Load(d)
		if err != nil {
			return nil, fmt.Errorf("hadoop configuration %s: %w", d, err)
		}
		return conf, nil
	}
	return hadoopconf.HadoopConf{}, nil
}

// Namenodes resolves a location's authority to namenode RPC addresses.
func Namenodes(conf hadoopconf.HadoopConf, host string) ([]string, error) {
	if host == "" {
		if fs := conf["fs.defaultFS"]; strings.HasPrefix(fs, "hdfs://") {
			if u, err := url.Parse(fs); err == nil && u.Host != "" {
				return Namenodes(conf, u.Host)
			}
		}
		if nn := conf.Namenodes(); len(nn) > 0 {
			return nn, nil
		}
		return nil, errors.New("hdfs:/// needs a default filesystem: set HADOOP_CONF_DIR (EMR: /etc/hadoop/conf) or name the namenode as hdfs://host:8020/")
	}
	if strings.Contains(host, ":") {
		return []string{host}, nil
	}
	if ids := conf["dfs.ha.namenodes."+host]; ids != "" {
		var out []string
		for _, id := range strings.Split(ids, ",") {
			if a := conf["dfs.namenode.rpc-address."+host+"."+strings.TrimSpace(id)]; a != "" {
				out = append(out, a)
			}
		}
		if len(out) > 0 {
			return out, nil
		}
	}
	if a := conf["dfs.namenode.rpc-address."+host]; a != "" {
		return []string{a}, nil
	}
	return []string{host + ":8020"}, nil
}

// ParseLocation splits an hdfs:// location into authority and absolute path.
func ParseLocation(location string) (host, dir string, err error) {
	u, err := url.Parse(location)
	if err != nil {
		return "", "", fmt.Errorf("open %s: %w", location, err)
	}
	if !strings.EqualFold(u.Scheme, "hdfs") {
		return "", "", fmt.Errorf("open %s: not an hdfs:// location", location)
	}
	return u.Host, path.Clean("/" + u.Path), nil
}

func clientOptions(o Options, conf hadoopconf.HadoopConf, addrs []string) (hdfs.ClientOptions, error) {
	co := hdfs.ClientOptionsFromConf(conf)
	co.Addresses = addrs
	dial := deadlineDialer(storage.Options{Timeout: o.Timeout}.NoProgressTimeout())
	co.NamenodeDialFunc, co.DatanodeDialFunc = dial, dial
	if co.KerberosClient == nil && co.KerberosServicePrincipleName != "" {
		kc, err := kerberosClient()
		if err != nil {
			return co, fmt.Errorf("kerberos: %w", err)
		}
		co.KerberosClient = kc
		return co, nil
	}
	co.User = o.User
	if co.User == "" {
		co.User = os.Getenv("HADOOP_USER_NAME")
	}
	if co.User == "" {
		if u, err := user.Current(); err == nil {
			co.User = u.Username
		}
	}
	return co, nil
}

// kerberosClient uses the ticket cache (kinit) as the Hadoop CLI does.
func kerberosClient() (*krb.Client, error) {
	cfgPath := os.Getenv("KRB5_CONFIG")
	if cfgPath == "" {
		cfgPath = "/etc/krb5.conf"
	}
	cfg, err := krbconfig.Load(cfgPath)
	if err != nil {
		return nil, err
	}
	cc := strings.TrimPrefix(os.Getenv("KRB5CCNAME"), "FILE:")
	if cc == "" {
		cc = fmt.Sprintf("/tmp/krb5cc_%d", os.Getuid())
	}
	ccache, err := credentials.LoadCCache(cc)
	if err != nil {
		return nil, fmt.Errorf("ticket cache %s (run kinit): %w", cc, err)
	}
	return krb.NewFromCCache(ccache, cfg)
}

// Store reads one table root on HDFS.
type Store struct {
	client  *hdfs.Client
	uri     string // hdfs://authority
	root    string // absolute path
	maxRead int64
}

// Open connects to the namenode(s) for location.
func Open(location string, o Options) (*Store, error) {
	host, dir, err := ParseLocation(location)
	if err != nil {
		return nil, err
	}
	conf, err := LoadConf(o)
	if err != nil {
		return nil, err
	}
	addrs, err := Namenodes(conf, host)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", location, err)
	}
	key := strings.Join(addrs, ",") + "|" + o.User + "|" + storage.Options{Timeout: o.Timeout}.NoProgressTimeout().String()
	mu.Lock()
	c := clients[key]
	mu.Unlock()
	if c == nil {
		co, err := clientOptions(o, conf, addrs)
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", location, err)
		}
		if c, err = hdfs.NewClient(co); err != nil {
			return nil, fmt.Errorf("open %s: namenode %s: %w", location, strings.Join(addrs, ","), err)
		}
		mu.Lock()
		clients[key] = c
		mu.Unlock()
	}
	return &Store{client: c, uri: "hdfs://" + host, root: dir, maxRead: storage.Options{MaxReadBytes: o.MaxReadBytes}.ReadLimit()}, nil
}

func (s *Store) abs(p string) string { return path.Join(s.root, p) }

// Root is the table's hdfs:// URI.
func (s *Store) Root() string { return s.uri + s.root }

func (s *Store) wrap(op, p string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s %s%s: %w", op, s.uri, s.abs(p), err)
}

func (s *Store) List(_ context.Context, dir string) ([]storage.Entry, error) {
	infos, err := s.client.ReadDir(s.abs(dir))
	if err != nil {
		return nil, s.wrap("list", dir, err)
	}
	out := make([]storage.Entry, 0, len(infos))
	for _, fi := range infos {
		out = append(out, storage.Entry{Name: fi.Name(), Path: storage.Join(dir, fi.Name()), Size: fi.Size(),
			ModTime: fi.ModTime(), ModTimePrecision: storage.PrecisionHDFS, IsDir: fi.IsDir()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func (s *Store) Stat(_ context.Context, p string) (storage.Entry, error) {
	fi, err := s.client.Stat(s.abs(p))
	if err != nil {
		return storage.Entry{}, s.wrap("stat", p, err)
	}
	return storage.Entry{Name: fi.Name(), Path: p, Size: fi.Size(), ModTime: fi.ModTime(), ModTimePrecision: storage.PrecisionHDFS, IsDir: fi.IsDir()}, nil
}

type file struct {
	*hdfs.FileReader
	size int64
}

func (f file) Size() int64 { return f.size }

func (s *Store) Open(_ context.Context, p string) (storage.File, error) {
	r, err := s.client.Open(s.abs(p))
	if err != nil {
		return nil, s.wrap("open", p, err)
	}
	if r.Stat().IsDir() {
		r.Close()
		return nil, fmt.Errorf("open %s%s: is a directory", s.uri, s.abs(p))
	}
	return file{r, r.Stat().Size()}, nil
}

// ReadFile reads a whole file, refused from its size when over the read ceiling and read
// with a limit in case it grows meanwhile.
func (s *Store) ReadFile(_ context.Context, p string) ([]byte, error) {
	r, err := s.client.Open(s.abs(p))
	if err != nil {
		return nil, s.wrap("read", p, err)
	}
	defer r.Close()
	name := s.uri + s.abs(p)
	st := r.Stat()
	if st.IsDir() {
		return nil, fmt.Errorf("read %s: is a directory, not a regular file: %w", name, storage.ErrNotRegular)
	}
	if st.Size() > s.maxRead {
		return nil, storage.TooLarge(name, st.Size(), s.maxRead)
	}
	b, err := storage.ReadLimited(r, name, st.Size(), s.maxRead)
	if err != nil && !errors.Is(err, storage.ErrTooLarge) {
		return nil, s.wrap("read", p, err)
	}
	return b, err
}

// deadlineDialer dials with a timeout and returns connections on which every read and
// write must make progress within d. The client has no deadlines of its own (a silent
// namenode would hold a call forever), and its namenode calls are synchronous, so a read
// deadline armed per Read bounds exactly the wait for an answer.
func deadlineDialer(d time.Duration) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{Timeout: d}).DialContext(ctx, network, addr)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return nil, fmt.Errorf("connect %s: %w", addr, noProgress(d))
			}
			return nil, err
		}
		return &deadlineConn{Conn: c, d: d}, nil
	}
}

func noProgress(d time.Duration) error { return &storage.NoProgressError{Timeout: d} }

type deadlineConn struct {
	net.Conn
	d time.Duration
}

func (c *deadlineConn) Read(b []byte) (int, error) {
	c.Conn.SetReadDeadline(time.Now().Add(c.d))
	n, err := c.Conn.Read(b)
	return n, c.check(err)
}

func (c *deadlineConn) Write(b []byte) (int, error) {
	c.Conn.SetWriteDeadline(time.Now().Add(c.d))
	n, err := c.Conn.Write(b)
	return n, c.check(err)
}

// check closes the connection after a timeout: a late answer must not be taken for the
// next call's (the client reuses the connection and retries only on a standby namenode).
func (c *deadlineConn) check(err error) error {
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		c.Conn.Close()
		return noProgress(c.d)
	}
	return err
}
