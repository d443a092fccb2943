//go:build linux

package hudi_test

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// BenchmarkStatFloor is the floor under any storage listing of a local table that reports
// file sizes: read every partition's names and fstatat each one, on every core, doing nothing
// else. `files --json` and `layout` without a metadata table cannot list faster than this;
// compare their BenchmarkFilesJSON/BenchmarkLayout figures with its ns/op on the same table.
//
//	go test -run XXX -bench StatFloor -benchtime 1x ./hudi/
func BenchmarkStatFloor(b *testing.B) {
	for _, sz := range []synthSize{small, {commits: 1000, files: 1000000}} {
		b.Run(sz.String(), func(b *testing.B) {
			dir := synthTable(b, sz)
			parts, err := filepath.Glob(filepath.Join(dir, "dt=*"))
			must(b, err)
			b.ResetTimer()
			var files atomic.Int64
			for range b.N {
				files.Store(0)
				var next atomic.Int64
				var wg sync.WaitGroup
				for range runtime.GOMAXPROCS(0) {
					wg.Go(func() {
						var st unix.Stat_t
						for i := int(next.Add(1)) - 1; i < len(parts); i = int(next.Add(1)) - 1 {
							f, err := os.Open(parts[i])
							if err != nil {
								b.Error(err)
								return
							}
							names, err := f.Readdirnames(-1)
							if err == nil {
								for _, n := range names {
									if err := unix.Fstatat(int(f.Fd()), n, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
										b.Error(err)
									}
								}
								files.Add(int64(len(names)))
							}
							f.Close()
						}
					})
				}
				wg.Wait()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(files.Load()), "ns/file")
		})
	}
}
