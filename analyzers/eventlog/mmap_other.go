//go:build !unix

package eventlog

import (
	"errors"
	"os"
)

func mapFile(*os.File) ([]byte, error) { return nil, errors.New("no mmap on this system") }

func unmapFile([]byte) {}

func dropPages([]byte) {}
