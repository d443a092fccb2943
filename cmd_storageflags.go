package main

import (
	"io"

	"github.com/aws/smithy-go/logging"

	"github.com/hudiscope/hudiscope/hudi/storage/s3"
)

// StorageFlags are the remote-storage options shared by the commands that open a table.
type StorageFlags struct {
	S3Endpoint string `name:"s3-endpoint" env:"HUDISCOPE_S3_ENDPOINT" help:"Endpoint URL of an S3-compatible store (MinIO, Ceph, LocalStack); implies path-style addressing."`
	S3Region   string `name:"s3-region" env:"HUDISCOPE_S3_REGION" help:"Region of the bucket (default: discovered from the bucket)."`
}

// applyStorage configures the backends before a table is opened. SDK logs go to logw (the
// TUI's --log-file) or nowhere — never to the terminal.
func (f StorageFlags) applyStorage(logw io.Writer) {
	var logger logging.Logger = logging.Nop{}
	if logw != nil && logw != io.Discard {
		logger = logging.NewStandardLogger(logw)
	}
	s3.Configure(s3.Options{Endpoint: f.S3Endpoint, Region: f.S3Region, Logger: logger})
}
