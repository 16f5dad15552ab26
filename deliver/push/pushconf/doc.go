// Package pushconf is the push block of the config file (Settings): each
// setting's default and its reason, their checks (Validate, each bad one a
// *schema.SettingError naming its key) and what an ingest endpoint's URL
// may be (ParseTarget, Loopback). The config file and the command line
// read it without the push itself: its HTTP client, its runner and its
// state.
package pushconf
