//go:build tools

// Package tools pins the main packages build.sh compiles, so `go mod tidy`
// keeps their requirements in this module's go.mod and go.sum. The build tag
// keeps the package out of every normal build.
package tools

import (
	_ "go.etcd.io/etcd/etcdctl/v3"
	_ "go.etcd.io/etcd/server/v3"
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
)
