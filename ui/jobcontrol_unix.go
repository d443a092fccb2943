//go:build unix

package ui

import (
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// jobControl reports whether ctrl+z can suspend: SIGTSTP is not ignored, there is a
// controlling terminal whose foreground group is ours, and a process outside our group in
// our session (the job-control shell) can resume us. Otherwise it says why not.
func jobControl() (bool, string) {
	if signal.Ignored(syscall.SIGTSTP) {
		return false, "SIGTSTP is ignored"
	}
	tty, err := os.Open("/dev/tty")
	if err != nil {
		return false, "no controlling terminal"
	}
	defer tty.Close()
	var fg int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, tty.Fd(), uintptr(syscall.TIOCGPGRP), uintptr(unsafe.Pointer(&fg))); e != 0 {
		return false, "no controlling terminal"
	}
	pg := syscall.Getpgrp()
	if int(fg) != pg {
		return false, "not in the terminal's foreground"
	}
	sid := getsid(0)
	// Walk up while the ancestors share our group (go run, a wrapper script).
	p := os.Getppid()
	for i := 0; i < 32 && p > 1; i++ {
		ppg, err := syscall.Getpgid(p)
		if err != nil {
			break
		}
		if ppg != pg {
			if getsid(p) == sid && sid > 0 {
				return true, ""
			}
			break
		}
		if p = parentOf(p); p < 0 {
			break
		}
	}
	return false, "the shell has no job control"
}

func getsid(pid int) int {
	r, _, e := syscall.RawSyscall(syscall.SYS_GETSID, uintptr(pid), 0, 0)
	if e != 0 {
		return -1
	}
	return int(r)
}

// parentOf is pid's parent from /proc (Linux); -1 where unknown.
func parentOf(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return -1
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return -1
	}
	pp, err := strconv.Atoi(f[1])
	if err != nil {
		return -1
	}
	return pp
}
