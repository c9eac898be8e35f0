module github.com/kgen-dev/kgen/bench

go 1.26.0

replace github.com/kgen-dev/kgen => ../

require (
	github.com/kgen-dev/kgen v0.0.0-00010101000000-000000000000 // indirect
	k8s.io/client-go v0.37.2 // indirect
)
