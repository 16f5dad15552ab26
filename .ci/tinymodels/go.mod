module ingest-ci/tinymodels

go 1.26.0

require github.com/ollama/ollama v0.17.4

require golang.org/x/sync v0.17.0 // indirect
