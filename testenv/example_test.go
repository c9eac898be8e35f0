package testenv_test

import (
	"context"
	"fmt"
	"log"

	"github.com/kgen-dev/kgen/testenv"
)

// Start an environment with a CRD installed, hand its admin configuration to a client, and stop it.
func ExampleStart() {
	env, err := testenv.Start(context.Background(), testenv.Options{CRDs: []any{"config/crd/bases"}})
	if err != nil {
		log.Fatal(err)
	}
	defer env.Stop()

	config := env.Config() // *rest.Config for clients; env.KubeconfigPath() for tools
	fmt.Println(config.Host)
}
