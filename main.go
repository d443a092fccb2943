// Command hudiscope explores and analyzes Apache Hudi tables from a terminal. Everything but
// the process exit lives in package cli.
package main

import (
	"os"

	"github.com/hudiscope/hudiscope/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:])) }
