// Command synthtable writes a synthetic table for benchmarks (see synth.WriteDisk):
//
//	go run ./hudi/internal/synth/cmd/synthtable -commits 50000 -files 10000 /tmp/hs-50k-10k
//	go run ./hudi/internal/synth/cmd/synthtable -mdt -commits 1000 -files 1000000 -parts 1000 /tmp/hs-1k-1m-mdt
//	go run ./hudi/internal/synth/cmd/synthtable -mdt-only -commits 1000 -files 1000000 -parts 1000 /tmp/hs-1k-1m-mdt
//
// -mdt-only rewrites just the metadata table of a table -mdt wrote with the same counts.
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
	mdt := flag.Bool("mdt", false, "also write a metadata table listing the base files (synth.WriteDiskMDT)")
	mdtOnly := flag.Bool("mdt-only", false, "write only the metadata table of a table -mdt wrote with the same counts (synth.WriteMDT)")
	fixture := flag.String("fixture", "testdata/fixtures/incr-1.2.0/table.zip", "fixture zip")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: synthtable [flags] DIR")
		os.Exit(2)
	}
	fx, err := synth.ReadFixture(*fixture)
	if err == nil {
		write := synth.WriteDisk
		switch {
		case *mdtOnly:
			write = synth.WriteMDT
		case *mdt:
			write = synth.WriteDiskMDT
		}
		err = write(flag.Arg(0), fx, *commits, *files, *parts)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
