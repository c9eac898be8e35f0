// Command execplugin is a test exec credential plugin. It counts its runs in $COUNTER_FILE and prints
// an ExecCredential whose token encodes its arguments, $PLUGIN_ENV and the run number, or the client
// certificate and key given in $PLUGIN_CERT and $PLUGIN_KEY.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"
)

func main() {
	var info struct {
		APIVersion string `json:"apiVersion"`
		Spec       struct {
			Interactive bool `json:"interactive"`
			Cluster     *struct {
				Server string `json:"server"`
			} `json:"cluster"`
		} `json:"spec"`
	}
	if err := json.Unmarshal([]byte(os.Getenv("KUBERNETES_EXEC_INFO")), &info); err != nil {
		fmt.Fprintln(os.Stderr, "bad KUBERNETES_EXEC_INFO:", err)
		os.Exit(2)
	}
	counter := os.Getenv("COUNTER_FILE")
	prev, _ := os.ReadFile(counter)
	run := strings.Count(string(prev), "\n") + 1
	if err := os.WriteFile(counter, append(prev, '\n'), 0o600); err != nil {
		os.Exit(3)
	}
	if os.Getenv("PLUGIN_FAIL") != "" {
		fmt.Println("secret-output-must-not-leak")
		os.Exit(7)
	}
	server := ""
	if info.Spec.Cluster != nil {
		server = info.Spec.Cluster.Server
	}
	status := map[string]any{"token": fmt.Sprintf("%s-%s-%d", strings.Join(os.Args[1:], ","), os.Getenv("PLUGIN_ENV"), run)}
	if d := os.Getenv("PLUGIN_EXPIRES_IN"); d != "" {
		dur, _ := time.ParseDuration(d)
		status["expirationTimestamp"] = time.Now().Add(dur).UTC().Format(time.RFC3339)
	}
	if server != "" {
		status["token"] = status["token"].(string) + "-" + server
	}
	if info.Spec.Interactive {
		status["token"] = status["token"].(string) + "-interactive"
	}
	if cert := os.Getenv("PLUGIN_CERT"); cert != "" {
		status = map[string]any{"clientCertificateData": cert, "clientKeyData": os.Getenv("PLUGIN_KEY")}
	}
	out := map[string]any{"apiVersion": info.APIVersion, "kind": "ExecCredential", "status": status}
	_ = json.NewEncoder(os.Stdout).Encode(out)
}
