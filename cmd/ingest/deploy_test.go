package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/urfave/cli/v3"
)

// TestDeployExamples keeps deploy/ true to the command: every ingest
// invocation in the Kubernetes Jobs and the GitHub Actions workflow uses
// flags the command has, the shards write where the merge reads, with the
// same shard count and run id, and the Indexed Job runs one pod per shard.
func TestDeployExamples(t *testing.T) {
	commands := map[string]*cli.Command{"index": indexCommand(), "merge": mergeCommand()}
	t.Run("kubernetes", func(t *testing.T) {
		vars := strings.NewReplacer("${RUN_ID}", "20261201t020000", "${SHARDS}", "4")
		var shards, merge struct {
			Spec struct {
				CompletionMode string `yaml:"completionMode"`
				Completions    int    `yaml:"completions"`
				Parallelism    int    `yaml:"parallelism"`
				Template       struct {
					Spec struct {
						Containers []struct {
							Args []string `yaml:"args"`
						} `yaml:"containers"`
					} `yaml:"spec"`
				} `yaml:"template"`
			} `yaml:"spec"`
		}
		for name, v := range map[string]any{"shards.yaml": &shards, "merge.yaml": &merge} {
			b, err := os.ReadFile(filepath.Join("../../deploy/kubernetes", name))
			if err != nil {
				t.Fatal(err)
			}
			if err := yaml.Unmarshal([]byte(vars.Replace(string(b))), v); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if s := shards.Spec; s.CompletionMode != "Indexed" || s.Completions != 4 || s.Parallelism != 4 {
			t.Errorf("shards.yaml: got %s with %d completions, %d in parallel; want an Indexed Job of SHARDS pods", s.CompletionMode, s.Completions, s.Parallelism)
		}
		idx := checkInvocation(t, commands, shards.Spec.Template.Spec.Containers[0].Args)
		mrg := checkInvocation(t, commands, merge.Spec.Template.Spec.Containers[0].Args)
		checkShardsMeetMerge(t, idx, mrg, 4)
	})
	t.Run("github-actions", func(t *testing.T) {
		b, err := os.ReadFile("../../deploy/github-actions/knowledge-index.yml")
		if err != nil {
			t.Fatal(err)
		}
		var wf struct {
			Env  map[string]string `yaml:"env"`
			Jobs map[string]struct {
				Strategy struct {
					Matrix struct {
						Shard []int `yaml:"shard"`
					} `yaml:"matrix"`
				} `yaml:"strategy"`
				Needs string `yaml:"needs"`
				Steps []struct {
					Run string `yaml:"run"`
				} `yaml:"steps"`
			} `yaml:"jobs"`
		}
		// The workflow's own expressions, as a run would see them.
		b = regexp.MustCompile(`\$\{\{ *([a-z_.A-Z]+) *\}\}`).ReplaceAllFunc(b, func(m []byte) []byte {
			switch {
			case strings.Contains(string(m), "matrix.shard"):
				return []byte("0")
			case strings.Contains(string(m), "run_attempt"):
				return []byte("1")
			}
			return []byte("123")
		})
		if err := yaml.Unmarshal(b, &wf); err != nil {
			t.Fatal(err)
		}
		n, err := strconv.Atoi(wf.Env["SHARDS"])
		if err != nil {
			t.Fatalf("env SHARDS: %v", err)
		}
		if got := wf.Jobs["shard"].Strategy.Matrix.Shard; len(got) != n || !slices.IsSorted(got) || got[0] != 0 || got[n-1] != n-1 {
			t.Errorf("matrix shard %v, want 0 to %d", got, n-1)
		}
		if wf.Jobs["merge"].Needs != "shard" {
			t.Errorf("the merge job needs %q, want the shard jobs", wf.Jobs["merge"].Needs)
		}
		env := strings.NewReplacer(`"$PARTS"`, wf.Env["PARTS"], "$PARTS", wf.Env["PARTS"], `"$SNAPSHOTS/latest"`, wf.Env["SNAPSHOTS"]+"/latest",
			`"$SNAPSHOTS"`, wf.Env["SNAPSHOTS"], "$SHARDS", wf.Env["SHARDS"])
		var got []map[string]string
		for _, job := range []string{"shard", "merge"} {
			for _, s := range wf.Jobs[job].Steps {
				if f := strings.Fields(env.Replace(s.Run)); len(f) > 1 && f[0] == "ingest" && commands[f[1]] != nil {
					got = append(got, checkInvocation(t, commands, f[1:]))
				}
			}
		}
		if len(got) != 2 {
			t.Fatalf("got %d ingest index/merge steps, want one of each", len(got))
		}
		if sh := got[0]["shard"]; sh != "0/"+wf.Env["SHARDS"] {
			t.Errorf("index --shard %s, want K/%s", sh, wf.Env["SHARDS"])
		}
		got[0]["shards"] = wf.Env["SHARDS"]
		got[0]["run-id"], got[1]["run-id"] = wf.Env["INGEST_RUN_ID"], wf.Env["INGEST_RUN_ID"]
		checkShardsMeetMerge(t, got[0], got[1], n)
	})
}

// checkInvocation checks an ingest command line's flags exist and returns
// them (and "command").
func checkInvocation(t *testing.T, commands map[string]*cli.Command, args []string) map[string]string {
	t.Helper()
	cmd := commands[args[0]]
	if cmd == nil {
		t.Fatalf("%v: not an ingest command the deploy examples should run", args)
	}
	flags := map[string]string{"command": args[0]}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "--") {
			t.Errorf("%s: %q is not a flag", args[0], a)
			continue
		}
		name, value, ok := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		var flag cli.Flag
		for _, f := range cmd.Flags {
			if slices.Contains(f.Names(), name) {
				flag = f
			}
		}
		if flag == nil {
			t.Errorf("%s --%s: no such flag", args[0], name)
			continue
		}
		if _, isBool := flag.(*cli.BoolFlag); !ok && !isBool && i+1 < len(args) {
			i++
			value = args[i]
		}
		flags[name] = strings.Trim(value, `"`)
	}
	return flags
}

// checkShardsMeetMerge checks the shards write where the merge reads.
func checkShardsMeetMerge(t *testing.T, index, merge map[string]string, n int) {
	t.Helper()
	if index["command"] != "index" || merge["command"] != "merge" {
		t.Fatalf("got %s then %s, want index then merge", index["command"], merge["command"])
	}
	for _, c := range []struct{ what, a, b string }{
		{"index --publish and merge --parts", index["publish"], merge["parts"]},
		{"index --shards and merge --shards", index["shards"], strconv.Itoa(n)},
		{"merge --shards", merge["shards"], strconv.Itoa(n)},
		{"--run-id", index["run-id"], merge["run-id"]},
		{"index --prev and merge --publish", index["prev"], merge["publish"] + "/latest"},
	} {
		if c.a != c.b || c.a == "" {
			t.Errorf("%s: %q and %q, want the same", c.what, c.a, c.b)
		}
	}
}
