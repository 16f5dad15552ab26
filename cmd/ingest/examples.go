package main

import (
	"github.com/ocean-safety/ingest/cmd/ingest/internal/console"
	"github.com/urfave/cli/v3"
)

// examples are each command's EXAMPLES in its help: what a person types,
// flags as the command spells them (TestHelpExamples holds them to it).
var examples = map[string][]string{
	"index": {
		"ingest index --corpus corpus/ocean --out out/knowledge",
		"ingest index --corpus docs --publish out/published --keep 7 --diff",
		"ingest index --corpus docs --publish 's3://knowledge/snapshots?region=eu-west-1' --config ingest.yaml",
		"ingest index --corpus docs --out out/knowledge --llm ollama:qwen2.5:7b --embedder ollama:bge-m3 --ollama-host http://gpu-0:11434",
		"ingest index --corpus docs --out out/knowledge --plan",
		"ingest index --corpus docs --out out/knowledge --ignore table-in-prose --strict --log-format json",
		"ingest index --corpus docs --shard 0/4 --run-id nightly-1 --publish out/parts",
	},
	"merge": {
		"ingest merge --parts out/parts --shards 4 --run-id nightly-1 --publish out/published --diff --remove-parts",
		"ingest merge out/parts/shard-0-of-2 out/parts/shard-1-of-2 --out out/knowledge",
	},
	"chunk":      {"ingest chunk corpus/ocean/rip-currents.md", "ingest chunk --stats --config ingest.yaml docs"},
	"inspect":    {"ingest inspect out/knowledge", "ingest inspect --json 's3://knowledge/snapshots/latest'"},
	"units":      {"echo 'waves above 1.5 m, wind 25 kn' | ingest units", "echo 'ondas de 2 m' | ingest units --lang pt --json"},
	"thresholds": {"ingest thresholds out/knowledge", "ingest thresholds --json out/published/latest"},
	"search": {
		`ingest search --snapshot out/knowledge "rip current near the shore"`,
		`ingest search --snapshot out/knowledge --mode bm25 --lang pt --k 3 "bandeira vermelha"`,
		`ingest search --snapshot out/knowledge --translate corpus "Quando a bandeira é vermelha posso nadar?"`,
	},
	"eval": {"ingest eval --snapshot out/knowledge --questions corpus/ocean.golden.json --min-recall 0.9"},
	"diff": {
		"ingest diff out/published/20261201T020000Z-4c19108f1cdf out/published/latest",
		"ingest diff --format json --exit-code old new",
	},
	"verify": {"ingest verify out/knowledge", "ingest verify 's3://knowledge/snapshots/latest'"},
	"sync": {
		`ingest sync --snapshot out/published/latest --to "$KB_DATABASE_URL" --tenant $TENANT --migrate`,
		`ingest sync --snapshot 's3://knowledge/snapshots/latest' --to "$KB_DATABASE_URL" --tenant $TENANT --plan`,
	},
	"push": {
		"ingest push --snapshot out/published/latest --to https://kb.internal/v1/ingest --tenant $TENANT --plan",
		"ingest push --snapshot out/published/latest --to https://kb.internal/v1/ingest --header-file /run/secrets/kb-headers",
	},
	"embed": {`ingest embed --snapshot out/knowledge "rip current near the shore"`},
	"list":  {"ingest list out/published", "ingest list --json 's3://knowledge/snapshots?region=eu-west-1'", "ingest list s3://knowledge/parts"},
	"config": {
		"ingest config",
		"ingest config --config ingest.yaml --corpus docs --workers 2",
		"INGEST_WORKERS=4 ingest config --config ingest.yaml --json",
	},
	"init": {"ingest init docs", "ingest init --output ingest.yaml ../site/content/pt", "ingest init --output - ."},
}

// withExamples adds c's EXAMPLES section to its help page.
func withExamples(c *cli.Command) {
	ex := examples[c.Name]
	if len(ex) == 0 || c.CustomHelpTemplate != "" {
		return
	}
	c.CustomHelpTemplate = console.HelpTemplate(cli.CommandHelpTemplate, ex)
}
