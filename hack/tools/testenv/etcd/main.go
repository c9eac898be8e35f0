// Command etcd is the etcd server, built from go.etcd.io/etcd/server/v3 at the version the pinned Kubernetes
// release uses, so hack/testenv.sh needs nothing but the Go module proxy.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
