package main

// EventlogCmd is defined in cmd_eventlog.go.
