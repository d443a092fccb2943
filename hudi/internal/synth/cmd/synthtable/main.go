// Command synthtable writes a synthetic table for benchmarks (see synth.WriteDisk):
//
//	go run ./hudi/internal/synth/cmd/synthtable -commits 50000 -files 10000 /tmp/hs-50k-10k
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/hudiscope/hudiscope/hudi/internal/synth"
)

func main() {
	commits := flag.Int("commits", 10000, "completed instants")
	files := flag.Int("files", 100000, "base files")
	parts := flag.Int("parts", 100, "partitions")
	fixture := flag.String("fixture", "testdata/fixtures/incr-1.2.0/table.zip", "fixture zip")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: synthtable [flags] DIR")
		os.Exit(2)
	}
	fx, err := synth.ReadFixture(*fixture)
	if err == nil {
		err = synth.WriteDisk(flag.Arg(0), fx, *commits, *files, *parts)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
