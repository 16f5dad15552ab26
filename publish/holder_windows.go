package publish

import (
	"errors"
	"strconv"

	"golang.org/x/sys/windows"
)

// processStart returns a process's creation time and whether it runs.
func processStart(pid int) (string, bool) {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if errors.Is(err, windows.ERROR_INVALID_PARAMETER) {
		return "", false // no such process
	}
	if err != nil {
		return "", true // there, but not ours to ask
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err == nil && code != 259 { // STILL_ACTIVE
		return "", false
	}
	var created, exited, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(h, &created, &exited, &kernel, &user); err != nil {
		return "", true
	}
	return strconv.FormatInt(created.Nanoseconds(), 10), true
}
