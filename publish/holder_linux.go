package publish

import (
	"bytes"
	"os"
	"strconv"
)

// processStart returns a process's start (the boot id and its start tick,
// from /proc) and whether it runs: a zombie has ended, whoever reaps it.
func processStart(pid int) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", !os.IsNotExist(err)
	}
	// pid (comm) state ppid …: comm may hold spaces and parentheses, so
	// the fields are counted from the last ')'. starttime is field 22.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return "", true
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 {
		return "", true
	}
	if s := string(f[0]); s == "Z" || s == "X" {
		return "", false
	}
	boot, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	return string(bytes.TrimSpace(boot)) + ":" + string(f[19]), true
}
