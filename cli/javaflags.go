package cli

import "regexp"

// javaToolCommands take the flags of Hudi's Java tools, whose short names are single-dash
// words (JCommander: -bp, -irc, -atc). Kong would read "-irc" as -i -r -c, so those are
// rewritten to the double-dash aliases the commands declare; a user can paste the arguments
// of their spark-submit line as they are.
var javaToolCommands = map[string]bool{"layout": true, "health": true, "eventlog": true}

var javaShortFlag = regexp.MustCompile(`^-[a-z][a-z0-9]+(=.*)?$`)

func javaStyleFlags(args []string) []string {
	if len(args) == 0 || !javaToolCommands[args[0]] {
		return args
	}
	out := make([]string, len(args))
	for i, a := range args {
		switch {
		case args[0] == "eventlog" && a == "-f":
			// HoodieSparkEventLogAnalyzer's -f is --output-file, a flag every command shares.
			a = "--output-file"
		case javaShortFlag.MatchString(a):
			a = "-" + a
		}
		out[i] = a
	}
	return out
}
