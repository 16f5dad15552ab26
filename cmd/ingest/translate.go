package main

import (
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/search"
	"github.com/ocean-safety/ingest/text/lexicon"
)

// translateFlags are search's and eval's: how a question reaches the
// chunks of the snapshot's other language.
func translateFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "translate", Value: "corpus,freedict", Usage: "how a question reaches chunks in another language: corpus (terms learned from the snapshot's " +
			"translated pages), freedict (FreeDict's English–Portuguese dictionaries, when installed), both comma-separated, or none"},
		&cli.StringFlag{Name: "dictionaries", Value: lexicon.FreeDictDir, Usage: "the folder of FreeDict's dictd databases (where Debian's dict-freedict-eng-por and dict-freedict-por-eng install them)"},
	}
}

// translation turns --translate and --dictionaries into the search's
// setting. A dictionary that is not installed, or cannot be read, is said
// once on stderr, with what to install; the search goes on without it.
func translation(cmd *cli.Command) (search.Translation, error) {
	var tr search.Translation
	for _, s := range strings.Split(cmd.String("translate"), ",") {
		switch strings.TrimSpace(s) {
		case "corpus":
			tr.Learn = true
		case "freedict":
			d, err := lexicon.OpenFreeDict(cmd.String("dictionaries"))
			if err != nil {
				tell(cmd).NoDictionary(err)
			}
			tr.Dictionary = d
		case "none":
		default:
			return tr, usage("--translate %q: want corpus, freedict, both comma-separated, or none", s)
		}
	}
	return tr, nil
}
