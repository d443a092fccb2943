package cli

import "errors"

// exitCoder is an error that carries its own process exit code.
type exitCoder interface {
	error
	ExitCode() int
}

type codeError struct {
	code int
	msg  string
}

func (e codeError) Error() string { return e.msg }
func (e codeError) ExitCode() int { return e.code }

func asExitCoder(err error, target *exitCoder) bool { return errors.As(err, target) }
