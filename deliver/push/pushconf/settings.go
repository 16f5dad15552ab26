package pushconf

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"time"

	"github.com/google/uuid"

	"github.com/ocean-safety/ingest/internal/redact"
	"github.com/ocean-safety/ingest/schema"
)

// Settings are the push block of the config file.
type Settings struct {
	To           string        `yaml:"to"`            // the ingest endpoint, https://HOST/PATH (--to)
	Tenant       string        `yaml:"tenant"`        // a UUID; "" takes the snapshot's tenant_id (--tenant)
	BatchChunks  int           `yaml:"batch_chunks"`  // chunks per request
	MaxBytes     int           `yaml:"max_bytes"`     // a request body's size before gzip, at most
	DeleteBatch  int           `yaml:"delete_batch"`  // document versions per delete request
	InFlight     int           `yaml:"in_flight"`     // HTTP requests in flight, polls included
	Tasks        int           `yaml:"tasks"`         // batches sent and not yet done (in flight or polled), at most
	Timeout      time.Duration `yaml:"timeout"`       // one HTTP request, at most
	Retries      int           `yaml:"retries"`       // tries after the first, for 429, 5xx, timeouts
	PollInterval time.Duration `yaml:"poll_interval"` // the first wait before polling a task; it doubles to 16 times this
	TaskTimeout  time.Duration `yaml:"task_timeout"`  // a task not done by then fails the push
	HeaderFile   string        `yaml:"header_file"`   // "Name: value" lines sent on every request, secret (--header-file)
	State        string        `yaml:"state"`         // the push's state folder (--state); "" beside the snapshot's publish target
	AllowHTTP    bool          `yaml:"allow_http"`    // send credentials over plain http to a host that is not this machine
}

// Defaults, each with its reason.
const (
	DefaultBatchChunks  = 10               // KB-005 §11.5: the consumers' ingest takes 10 chunks a call
	DefaultMaxBytes     = 1 << 20          // ten chunks with 1,024 floats are about 150 KB; servers commonly cap bodies at 1–10 MiB
	DefaultDeleteBatch  = 100              // a delete names versions, not chunks: small, so more per call
	DefaultInFlight     = 2                // what a shared ingest service takes from one client without queueing it
	DefaultTasks        = 4                // tasks a service runs per client at once, commonly; more only queue there
	DefaultTimeout      = 60 * time.Second // a batch of ten embedded chunks is written in well under that
	DefaultRetries      = 8                // with backoff to 30 s, about four minutes of a server being away
	DefaultPollInterval = time.Second      // a bulk task takes seconds; polling faster only costs the server
	DefaultTaskTimeout  = 30 * time.Minute
)

// DefaultSettings are the settings with no config file.
func DefaultSettings() Settings {
	return Settings{BatchChunks: DefaultBatchChunks, MaxBytes: DefaultMaxBytes, DeleteBatch: DefaultDeleteBatch,
		InFlight: DefaultInFlight, Tasks: DefaultTasks, Timeout: DefaultTimeout, Retries: DefaultRetries,
		PollInterval: DefaultPollInterval, TaskTimeout: DefaultTaskTimeout}
}

// Ranges of the numeric settings: wide enough for any ingest service,
// narrow enough that a typo (extra zeros, hours for seconds) fails at start
// instead of holding a push, a server's memory or a CI job for days.
const (
	maxBatchChunks = 10_000             // chunks a request; a service takes tens
	maxBodyBytes   = 1 << 30            // a request body; services cap them at 1–10 MiB
	maxDeleteBatch = 100_000            // versions a delete request names
	maxInFlight    = 256                // requests at once from one client
	maxTasks       = 1_024              // tasks open at once
	maxRetries     = 100                // with backoff to 30 s, most of an hour
	maxWait        = 24 * time.Hour     // one request, one poll's wait
	maxTaskTimeout = 7 * 24 * time.Hour // a task that runs a week is lost
)

// Validate reports every bad setting at once, each a *schema.SettingError
// naming its key. To is checked only when set (the command line may give
// it); push.New checks it for a push.
func (s Settings) Validate() error {
	var errs []error
	bad := func(key, format string, a ...any) { errs = append(errs, schema.Setting("push."+key, format, a...)) }
	if s.To != "" {
		if _, err := ParseTarget(s.To); err != nil {
			bad("to", "%v", err)
		}
	}
	if _, err := uuid.Parse(s.Tenant); s.Tenant != "" && err != nil {
		bad("tenant", "%q is not a UUID", s.Tenant)
	}
	between := func(key string, v, lo, hi int, why string) {
		if v < lo || v > hi {
			bad(key, "%d: want %d to %d%s", v, lo, hi, why)
		}
	}
	within := func(key string, d, hi time.Duration) {
		if d <= 0 || d > hi {
			bad(key, "%s: want a positive duration up to %s", d, hi)
		}
	}
	between("batch_chunks", s.BatchChunks, 1, maxBatchChunks, "")
	between("max_bytes", s.MaxBytes, 64<<10, maxBodyBytes, " (one chunk with 1,024 floats is about 13 KB)")
	between("delete_batch", s.DeleteBatch, 1, maxDeleteBatch, "")
	between("in_flight", s.InFlight, 1, maxInFlight, "")
	between("tasks", s.Tasks, 1, maxTasks, "")
	between("retries", s.Retries, 0, maxRetries, "")
	within("timeout", s.Timeout, maxWait)
	within("poll_interval", s.PollInterval, maxWait)
	within("task_timeout", s.TaskTimeout, maxTaskTimeout)
	return errors.Join(errs...)
}

// ParseTarget checks the destination is an http(s) URL with a host.
func ParseTarget(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("not a URL: %s", redact.URL(raw))
	}
	if u.Scheme != "https" && u.Scheme != "http" || u.Host == "" {
		return nil, fmt.Errorf("%s: want https://HOST/PATH", redact.URL(raw))
	}
	return u, nil
}

// Loopback reports whether a URL's host is this machine.
func Loopback(u *url.URL) bool {
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
