// Command tinymodels writes two tiny random-weight models for the real-Ollama
// test tier, as GGUF files with Modelfiles beside them, ready for `ollama
// create`:
//
//   - tiny-chat: a llama-architecture chat model whose answers close under a
//     JSON-schema grammar (see chat.go);
//   - tiny-embed: a BERT embedding model (mean pooling, L2-normalised).
//
// No weights can be downloaded where CI runs, and the tests assert plumbing
// and shape, not content, so random weights serve. The weights come from a
// fixed seed: the same program writes the same bytes, so a model's digest
// changes only when this program does.
//
// Usage:
//
//	go run . -out DIR
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	out := flag.String("out", ".", "folder to write the models and Modelfiles to")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "tinymodels:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	models := []struct {
		name      string
		write     func(*os.File) error
		modelfile string
	}{
		{"tiny-chat", writeChat, chatModelfile},
		{"tiny-embed", writeEmbed, embedModelfile},
	}
	for _, m := range models {
		if err := writeAtomic(filepath.Join(out, m.name+".gguf"), m.write); err != nil {
			return fmt.Errorf("%s: %w", m.name, err)
		}
		mf := func(f *os.File) error {
			_, err := fmt.Fprintf(f, m.modelfile, "./"+m.name+".gguf")
			return err
		}
		if err := writeAtomic(filepath.Join(out, m.name+".Modelfile"), mf); err != nil {
			return fmt.Errorf("%s: %w", m.name, err)
		}
	}
	return nil
}

// writeAtomic writes path through a temporary file in the same folder, so a
// reader (or a cache check) never sees half a model.
func writeAtomic(path string, write func(*os.File) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	if err := write(f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
