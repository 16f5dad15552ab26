// Package console is what the commands show: a run's progress (mpb bars on
// a terminal, a plain line every few seconds in a CI log, JSON records for a
// log collector), its diagnostics as they come and a count per code at the
// end (text, GitHub Actions annotations or records), the run's summary, the
// JSON-lines writer that makes every line of stderr a record, and the text
// form of each command's report (inspect, list, verify, search, eval,
// config, init, units, thresholds; a delivery's report writes its own, as
// deliver.Report) and its JSON (WriteJSON).
//
// It writes only to the writers it is given and reads no flag and no
// environment: cmd/ingest decides what is shown and where (a value such as
// $TERM comes in as an argument). What it prints of a corpus or a server
// goes through text/printable, as every output of cmd/ingest does.
package console
