// Package settings is what shapes a run's snapshot and how hard the run
// works (Config): the defaults, each with its reason (DefaultConfig), the
// one validation (Validate: every bad setting a schema.SettingError naming
// its key), the hash of the settings in normal form (Hash), the calls in
// flight scaled to the servers a setting left to its default (PerServer),
// and which diagnostics a run accepts (DiagnosticsConfig). The config file
// (package config) and the flags fill it at the edge; stages runs by it.
package settings
