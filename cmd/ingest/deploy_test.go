package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/config"
)

// TestDeployExamples keeps deploy/ true to the command: every ingest
// invocation in the Kubernetes Jobs and the GitHub Actions workflow uses
// flags the command has, the shards write where the merge reads, with the
// same shard count and run id, and the Indexed Job runs one pod per shard.
func TestDeployExamples(t *testing.T) {
	t.Parallel()
	commands := map[string]*cli.Command{"index": indexCommand(), "merge": mergeCommand(), "verify": verifyCommand(), "sync": syncCommand()}
	t.Run("kubernetes", func(t *testing.T) {
		const image = "registry.example/ingest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
		vars := strings.NewReplacer("${RUN_ID}", "20261201t020000", "${SHARDS}", "4", "${IMAGE}", image)
		type container struct {
			Image string   `yaml:"image"`
			Args  []string `yaml:"args"`
			Env   []struct {
				Name  string `yaml:"name"`
				Value string `yaml:"value"`
			} `yaml:"env"`
			EnvFrom []struct {
				SecretRef struct {
					Name string `yaml:"name"`
				} `yaml:"secretRef"`
			} `yaml:"envFrom"`
			VolumeMounts []struct {
				Name      string `yaml:"name"`
				MountPath string `yaml:"mountPath"`
			} `yaml:"volumeMounts"`
		}
		type job struct {
			Spec struct {
				CompletionMode string `yaml:"completionMode"`
				Completions    int    `yaml:"completions"`
				Parallelism    int    `yaml:"parallelism"`
				Template       struct {
					Spec struct {
						Containers []container `yaml:"containers"`
						Volumes    []struct {
							Name      string `yaml:"name"`
							ConfigMap struct {
								Name string `yaml:"name"`
							} `yaml:"configMap"`
						} `yaml:"volumes"`
					} `yaml:"spec"`
				} `yaml:"template"`
			} `yaml:"spec"`
		}
		var shards, merge job
		for name, v := range map[string]any{"shards.yaml": &shards, "merge.yaml": &merge} {
			b, err := os.ReadFile(filepath.Join("../../deploy/kubernetes", name))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), "image: ${IMAGE}") {
				t.Errorf("%s: the image is not ${IMAGE}, which run.sh pins by digest", name)
			}
			if err := yaml.Unmarshal([]byte(vars.Replace(string(b))), v); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if s := shards.Spec; s.CompletionMode != "Indexed" || s.Completions != 4 || s.Parallelism != 4 {
			t.Errorf("shards.yaml: got %s with %d completions, %d in parallel; want an Indexed Job of SHARDS pods", s.CompletionMode, s.Completions, s.Parallelism)
		}
		cm, secret := readDeployConfig(t)
		for name, j := range map[string]job{"shards.yaml": shards, "merge.yaml": merge} {
			c := j.Spec.Template.Spec.Containers[0]
			if c.Image != image {
				t.Errorf("%s: image %q, want %q", name, c.Image, image)
			}
			flags := checkInvocation(t, commands, c.Args)
			mounts := map[string]string{}
			for _, m := range c.VolumeMounts {
				mounts[m.Name] = m.MountPath
			}
			for _, v := range j.Spec.Template.Spec.Volumes {
				if v.ConfigMap.Name != "" && (v.ConfigMap.Name != cm.name || flags["config"] != mounts[v.Name]+"/"+cm.key) {
					t.Errorf("%s: --config %s from ConfigMap %s mounted at %s; config.yaml has ConfigMap %s with key %s", name, flags["config"], v.ConfigMap.Name, mounts[v.Name], cm.name, cm.key)
				}
			}
			for _, e := range c.EnvFrom {
				if e.SecretRef.Name != secret {
					t.Errorf("%s: envFrom secret %q, config.yaml's Secret is %q", name, e.SecretRef.Name, secret)
				}
			}
			for _, e := range c.Env {
				if !slices.Contains(envNames(commands), e.Name) {
					t.Errorf("%s: env %s is none the command reads", name, e.Name)
				}
			}
			if flags["wait"] == "" {
				t.Errorf("%s: no --wait: a retried pod fails on the lease its killed pod left", name)
			}
		}
		idx := checkInvocation(t, commands, shards.Spec.Template.Spec.Containers[0].Args)
		mrg := checkInvocation(t, commands, merge.Spec.Template.Spec.Containers[0].Args)
		checkShardsMeetMerge(t, idx, mrg, 4)
		for _, f := range []string{"diff", "remove-parts"} {
			if _, ok := mrg[f]; !ok {
				t.Errorf("merge.yaml: no --%s", f)
			}
		}
		checkRunScript(t, image)
	})
	t.Run("github-actions", func(t *testing.T) {
		b, err := os.ReadFile("../../deploy/github-actions/knowledge-index.yml")
		if err != nil {
			t.Fatal(err)
		}
		var wf struct {
			Concurrency struct {
				Group            string `yaml:"group"`
				CancelInProgress bool   `yaml:"cancel-in-progress"`
			} `yaml:"concurrency"`
			Permissions map[string]string `yaml:"permissions"`
			Env         map[string]string `yaml:"env"`
			Jobs        map[string]struct {
				Strategy struct {
					Matrix struct {
						Shard []int `yaml:"shard"`
					} `yaml:"matrix"`
				} `yaml:"strategy"`
				Needs string `yaml:"needs"`
				Steps []struct {
					Uses string `yaml:"uses"`
					Run  string `yaml:"run"`
					If   string `yaml:"if"`
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
		if wf.Concurrency.Group == "" || wf.Concurrency.CancelInProgress {
			t.Errorf("concurrency %+v, want a group that queues a second night, never cancels one", wf.Concurrency)
		}
		if len(wf.Permissions) != 1 || wf.Permissions["contents"] != "read" {
			t.Errorf("permissions %v, want contents: read and nothing else", wf.Permissions)
		}
		if v := wf.Env["INGEST_VERSION"]; v == "" || v == "latest" {
			t.Errorf("INGEST_VERSION %q, want a pinned version", v)
		} else if err := pinExists(v); err != nil {
			t.Errorf("INGEST_VERSION %s: %v", v, err)
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
		pinned := regexp.MustCompile(`^[\w.-]+/[\w.-]+@[0-9a-f]{40}$`)
		var got []map[string]string
		synced := false
		for _, job := range []string{"shard", "merge"} {
			for _, s := range wf.Jobs[job].Steps {
				if s.Uses != "" && !pinned.MatchString(s.Uses) {
					t.Errorf("%s: uses %s, want an action pinned by its commit", job, s.Uses)
				}
				if strings.Contains(s.Run, "go install") && !strings.HasSuffix(strings.TrimSpace(s.Run), "@$INGEST_VERSION") {
					t.Errorf("%s: %q installs another version than INGEST_VERSION", job, s.Run)
				}
				f := strings.Fields(env.Replace(s.Run))
				if len(f) < 2 || f[0] != "ingest" {
					continue
				}
				flags := checkInvocation(t, commands, f[1:])
				switch f[1] {
				case "index", "merge":
					got = append(got, flags)
				case "sync":
					synced = s.If != "" // optional: only where a database is configured
				}
			}
		}
		if len(got) != 2 {
			t.Fatalf("got %d ingest index/merge steps, want one of each", len(got))
		}
		if !synced {
			t.Errorf("no optional sync step (ingest sync under an if:)")
		}
		if sh := got[0]["shard"]; sh != "0/"+wf.Env["SHARDS"] {
			t.Errorf("index --shard %s, want K/%s", sh, wf.Env["SHARDS"])
		}
		for _, f := range []string{"diff", "remove-parts"} {
			if _, ok := got[1][f]; !ok {
				t.Errorf("the merge step has no --%s", f)
			}
		}
		got[0]["shards"] = wf.Env["SHARDS"]
		got[0]["run-id"], got[1]["run-id"] = wf.Env["INGEST_RUN_ID"], wf.Env["INGEST_RUN_ID"]
		checkShardsMeetMerge(t, got[0], got[1], n)
	})
}

// deployConfig is the ConfigMap of deploy/kubernetes/config.yaml.
type deployConfig struct{ name, key string }

// readDeployConfig reads config.yaml's ConfigMap (its config file must be
// one ingest reads) and secret.yaml's Secret (its keys the bucket's
// credentials).
func readDeployConfig(t *testing.T) (deployConfig, string) {
	t.Helper()
	var docs []string
	for _, f := range []string{"config.yaml", "secret.yaml"} {
		b, err := os.ReadFile("../../deploy/kubernetes/" + f)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, strings.Split(string(b), "\n---\n")...)
	}
	var cm deployConfig
	secret := ""
	for _, doc := range docs {
		var obj struct {
			Kind     string `yaml:"kind"`
			Metadata struct {
				Name string `yaml:"name"`
			} `yaml:"metadata"`
			Data       map[string]string `yaml:"data"`
			StringData map[string]string `yaml:"stringData"`
		}
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatalf("config.yaml, secret.yaml: %v", err)
		}
		switch obj.Kind {
		case "ConfigMap":
			for k, v := range obj.Data {
				cm = deployConfig{obj.Metadata.Name, k}
				if _, err := config.Parse([]byte(v)); err != nil {
					t.Errorf("config.yaml's %s: %v", k, err)
				}
			}
		case "Secret":
			secret = obj.Metadata.Name
			for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION"} {
				if _, ok := obj.StringData[k]; !ok {
					t.Errorf("secret.yaml's Secret lacks %s", k)
				}
			}
		}
	}
	if cm.name == "" || secret == "" {
		t.Fatalf("config.yaml's ConfigMap %q, secret.yaml's Secret %q; want both", cm.name, secret)
	}
	return cm, secret
}

// envNames are the environment variables the commands read: their flags'
// and the few read directly.
func envNames(commands map[string]*cli.Command) []string {
	names := []string{"INGEST_WORK_DIR", "JOB_COMPLETION_INDEX"}
	for _, c := range commands {
		for _, f := range c.Flags {
			if e, ok := f.(interface{ GetEnvVars() []string }); ok {
				names = append(names, e.GetEnvVars()...)
			}
		}
	}
	return names
}

// checkRunScript runs run.sh with a kubectl that records what it applies:
// an image pinned by digest goes into both Jobs, the corpus's commit into
// the shards' init container; a tag, no image, or a corpus branch instead
// of a commit is refused before anything is applied.
func checkRunScript(t *testing.T, image string) {
	t.Helper()
	if _, err := exec.LookPath("envsubst"); err != nil {
		t.Logf("envsubst is not installed (gettext-base): run.sh not run")
		return
	}
	bin := t.TempDir()
	applied := filepath.Join(bin, "applied.yaml")
	os.WriteFile(filepath.Join(bin, "kubectl"), []byte("#!/bin/sh\ncase \"$1\" in apply) cat >> "+applied+" ;; wait) case \"$2\" in *complete*) exit 0 ;; *) exec sleep 5 ;; esac ;; esac\n"), 0o755)
	const ref = "0123456789abcdef0123456789abcdef01234567"
	for _, c := range []struct {
		name, image, ref string
		want             int
	}{
		{"pinned by digest", image, ref, 0},
		{"a tag", "registry.example/ingest:latest", ref, 2},
		{"none", "", ref, 2},
		{"a corpus branch, not a commit", image, "main", 2},
	} {
		t.Run("run.sh "+c.name, func(t *testing.T) {
			os.Remove(applied)
			cmd := exec.Command("bash", "../../deploy/kubernetes/run.sh")
			cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "IMAGE="+c.image, "RUN_ID=20261201t020000", "SHARDS=2", "CORPUS_REF="+c.ref)
			out, err := cmd.CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != c.want {
				t.Fatalf("got exit %d, want %d:\n%s", code, c.want, out)
			}
			b, _ := os.ReadFile(applied)
			if c.want != 0 {
				if len(b) > 0 {
					t.Errorf("applied manifests with an image not pinned by digest:\n%s", b)
				}
				return
			}
			if n := strings.Count(string(b), "image: "+image); n != 2 {
				t.Errorf("got the pinned image %d times in what was applied, want 2 (the shards and the merge):\n%s", n, b)
			}
			if !strings.Contains(string(b), "--ref="+ref) || strings.Contains(string(b), "${") {
				t.Errorf("want the corpus at --ref=%s and every variable filled in:\n%s", ref, b)
			}
		})
	}
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
			if cmd.ArgsUsage == "" {
				t.Errorf("%s: %q is not a flag", args[0], a)
			}
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

// pinExists checks that a version go install is given is a tag of this
// repository or a commit of its history (v0.1.0 was pinned before any tag
// was cut: every job would have failed at its first step). Without git
// (an exported tree), only its form is checked.
func pinExists(v string) error {
	isCommit := regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(v)
	if !isCommit && !regexp.MustCompile(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`).MatchString(v) {
		return fmt.Errorf("want a release tag (vX.Y.Z) or a full commit hash")
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil
	}
	if err := exec.Command("git", "rev-parse", "--is-inside-work-tree").Run(); err != nil {
		return nil
	}
	if isCommit {
		if err := exec.Command("git", "merge-base", "--is-ancestor", v, "HEAD").Run(); err != nil {
			return fmt.Errorf("not a commit of this branch's history")
		}
		return nil
	}
	if out, err := exec.Command("git", "tag", "-l", v).Output(); err != nil || strings.TrimSpace(string(out)) != v {
		return fmt.Errorf("no such tag in this repository (git tag -l %s)", v)
	}
	return nil
}
