package cli

// Remote storage backends register their URI schemes with hudi/storage on import.
import (
	_ "github.com/hudiscope/hudiscope/hudi/storage/hdfs" // hdfs://
	_ "github.com/hudiscope/hudiscope/hudi/storage/s3"   // s3://, s3a://, s3n://
)
