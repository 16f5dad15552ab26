package kubernetes

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// deployVars are run.sh's variables, as a night fills them in.
var deployVars = strings.NewReplacer("${RUN_ID}", "20261201t020000", "${SHARDS}", "4",
	"${IMAGE}", "registry.example/ingest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
	"${CORPUS_REPO}", "https://github.com/open-telemetry/opentelemetry.io", "${CORPUS_REF}", "0123456789abcdef0123456789abcdef01234567")

// TestKubernetesRestricted decodes every manifest of deploy/kubernetes
// strictly into the Kubernetes API's types (an unknown or misplaced field
// fails, as the API server's validation would), and holds every pod to
// PodSecurity "restricted" and a read-only root file system
// (checkRestricted); the namespace enforces it, the Secret is alone in its
// file (re-applying config.yaml never touches it), and each file holds
// only the kinds it is for.
func TestKubernetesRestricted(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../deploy/kubernetes/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests: %v", err)
	}
	kinds := map[string][]string{}
	pods := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		for i, doc := range strings.Split(deployVars.Replace(string(b)), "\n---\n") {
			var meta struct{ Kind string }
			if err := yaml.Unmarshal([]byte(doc), &meta); err != nil {
				t.Fatalf("%s #%d: %v", name, i, err)
			}
			kinds[name] = append(kinds[name], meta.Kind)
			where := fmt.Sprintf("%s (%s)", name, meta.Kind)
			var obj any
			switch meta.Kind {
			case "Job":
				obj = &batchv1.Job{}
			case "CronJob":
				obj = &batchv1.CronJob{}
			case "ConfigMap":
				obj = &corev1.ConfigMap{}
			case "Secret":
				obj = &corev1.Secret{}
			case "Namespace":
				obj = &corev1.Namespace{}
			default:
				t.Errorf("%s: a kind this test does not know: add it here, with its checks", where)
				continue
			}
			if err := yaml.UnmarshalStrict([]byte(doc), obj); err != nil {
				t.Errorf("%s: %v", where, err)
				continue
			}
			switch o := obj.(type) {
			case *batchv1.Job:
				pods++
				for _, p := range checkRestricted(o.Spec.Template.Spec) {
					t.Errorf("%s: %s", where, p)
				}
			case *batchv1.CronJob:
				pods++
				for _, p := range checkRestricted(o.Spec.JobTemplate.Spec.Template.Spec) {
					t.Errorf("%s: %s", where, p)
				}
			case *corev1.Namespace:
				if o.Labels["pod-security.kubernetes.io/enforce"] != "restricted" {
					t.Errorf("%s: labels %v, want pod-security.kubernetes.io/enforce: restricted", where, o.Labels)
				}
			}
		}
	}
	if pods < 2 {
		t.Errorf("got %d pod templates checked, want the shards' and the merge's at least", pods)
	}
	for name, want := range map[string][]string{"config.yaml": {"ConfigMap"}, "secret.yaml": {"Secret"}, "namespace.yaml": {"Namespace"}} {
		if !slices.Equal(kinds[name], want) {
			t.Errorf("%s holds %v, want %v alone: a file applied again must not carry the Secret", name, kinds[name], want)
		}
	}
}

// checkRestricted lists how pod breaks PodSecurity "restricted" (the
// Kubernetes Pod Security Standards: no host namespaces, ports or paths,
// the volume types it allows, non-root, seccomp RuntimeDefault or
// Localhost, no privilege escalation, capabilities dropped but
// NET_BIND_SERVICE), or runs a container whose root file system is
// writable.
func checkRestricted(pod corev1.PodSpec) []string {
	var bad []string
	if pod.HostNetwork || pod.HostPID || pod.HostIPC {
		bad = append(bad, "a host namespace")
	}
	for _, v := range pod.Volumes {
		s := v.VolumeSource
		if s.ConfigMap == nil && s.EmptyDir == nil && s.Secret == nil && s.PersistentVolumeClaim == nil && s.Projected == nil &&
			s.DownwardAPI == nil && s.CSI == nil && s.Ephemeral == nil {
			bad = append(bad, fmt.Sprintf("volume %s: a type restricted refuses", v.Name))
		}
	}
	psc := pod.SecurityContext
	if psc == nil {
		psc = &corev1.PodSecurityContext{}
	}
	if psc.RunAsUser != nil && *psc.RunAsUser == 0 {
		bad = append(bad, "the pod runs as user 0")
	}
	seccompOK := func(p *corev1.SeccompProfile) bool {
		return p != nil && (p.Type == corev1.SeccompProfileTypeRuntimeDefault || p.Type == corev1.SeccompProfileTypeLocalhost)
	}
	containers := append(append([]corev1.Container(nil), pod.InitContainers...), pod.Containers...)
	if len(containers) == 0 {
		bad = append(bad, "no container")
	}
	for _, c := range containers {
		sc := c.SecurityContext
		if sc == nil {
			sc = &corev1.SecurityContext{}
		}
		no := func(format string, a ...any) { bad = append(bad, "container "+c.Name+": "+fmt.Sprintf(format, a...)) }
		if !isTrue(sc.RunAsNonRoot) && !(sc.RunAsNonRoot == nil && isTrue(psc.RunAsNonRoot)) {
			no("runAsNonRoot is not true (on it or the pod)")
		}
		if sc.RunAsUser != nil && *sc.RunAsUser == 0 {
			no("runs as user 0")
		}
		if !seccompOK(sc.SeccompProfile) && !(sc.SeccompProfile == nil && seccompOK(psc.SeccompProfile)) {
			no("seccompProfile is not RuntimeDefault (on it or the pod)")
		}
		if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
			no("allowPrivilegeEscalation is not false")
		}
		if isTrue(sc.Privileged) {
			no("privileged")
		}
		if sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") {
			no("capabilities do not drop ALL")
		} else {
			for _, a := range sc.Capabilities.Add {
				if a != "NET_BIND_SERVICE" {
					no("adds capability %s", a)
				}
			}
		}
		if !isTrue(sc.ReadOnlyRootFilesystem) {
			no("readOnlyRootFilesystem is not true")
		}
		for _, p := range c.Ports {
			if p.HostPort != 0 {
				no("host port %d", p.HostPort)
			}
		}
	}
	return bad
}

func isTrue(b *bool) bool { return b != nil && *b }

// TestCheckRestricted: the check finds each rule broken, alone.
func TestCheckRestricted(t *testing.T) {
	t.Parallel()
	f, tr, uid := false, true, int64(65532)
	good := func() corev1.PodSpec {
		return corev1.PodSpec{
			SecurityContext: &corev1.PodSecurityContext{RunAsNonRoot: &tr, RunAsUser: &uid, SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault}},
			Containers: []corev1.Container{{Name: "c", SecurityContext: &corev1.SecurityContext{AllowPrivilegeEscalation: &f, ReadOnlyRootFilesystem: &tr,
				Capabilities: &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}}}}},
			Volumes: []corev1.Volume{{Name: "w", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
		}
	}
	if bad := checkRestricted(good()); len(bad) != 0 {
		t.Fatalf("a restricted pod: got %v, want nothing", bad)
	}
	root := int64(0)
	tests := []struct {
		name   string
		breaks func(*corev1.PodSpec)
		want   string
	}{
		{"root allowed", func(p *corev1.PodSpec) { p.SecurityContext.RunAsNonRoot = nil }, "runAsNonRoot"},
		{"user 0", func(p *corev1.PodSpec) { p.Containers[0].SecurityContext.RunAsUser = &root }, "user 0"},
		{"no seccomp", func(p *corev1.PodSpec) { p.SecurityContext.SeccompProfile = nil }, "seccompProfile"},
		{"escalation", func(p *corev1.PodSpec) { p.Containers[0].SecurityContext.AllowPrivilegeEscalation = nil }, "allowPrivilegeEscalation"},
		{"capabilities kept", func(p *corev1.PodSpec) { p.Containers[0].SecurityContext.Capabilities = nil }, "drop ALL"},
		{"a capability added", func(p *corev1.PodSpec) {
			p.Containers[0].SecurityContext.Capabilities.Add = []corev1.Capability{"SYS_ADMIN"}
		}, "SYS_ADMIN"},
		{"writable root", func(p *corev1.PodSpec) { p.Containers[0].SecurityContext.ReadOnlyRootFilesystem = nil }, "readOnlyRootFilesystem"},
		{"an init container unchecked", func(p *corev1.PodSpec) { p.InitContainers = []corev1.Container{{Name: "init"}} }, "container init"},
		{"a host path", func(p *corev1.PodSpec) {
			p.Volumes = append(p.Volumes, corev1.Volume{Name: "h", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/"}}})
		}, "volume h"},
		{"host network", func(p *corev1.PodSpec) { p.HostNetwork = true }, "host namespace"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := good()
			tt.breaks(&p)
			bad := checkRestricted(p)
			if !slices.ContainsFunc(bad, func(s string) bool { return strings.Contains(s, tt.want) }) {
				t.Errorf("got %v, want one naming %q", bad, tt.want)
			}
		})
	}
}
