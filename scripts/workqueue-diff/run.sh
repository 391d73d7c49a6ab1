#!/usr/bin/env bash
# pnpm test:workqueue-diff [--n N] [--base B] [--seed S]: builds the client-go side (main.go) from
# the Go module proxy into ~/.cache/kubesdk/workqueue-diff (the Go build cache shared with the real
# kube-apiserver build, ~/.cache/kubesdk/real-apiserver/go-build; rebuilt only
# when main.go or go.sum change), then runs the seeded sequences on both queues and compares.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${here}/../.." && pwd)"
cache="${HOME}/.cache/kubesdk/workqueue-diff"
bin="${cache}/workqueue-diff"
mkdir -p "${cache}"
if [[ ! -x "${bin}" || "${here}/main.go" -nt "${bin}" || "${here}/go.sum" -nt "${bin}" ]]; then
  (cd "${here}" && CGO_ENABLED=0 GOTOOLCHAIN=local GOCACHE="${HOME}/.cache/kubesdk/real-apiserver/go-build" GOFLAGS="-mod=readonly -buildvcs=false" \
    go build -trimpath -o "${bin}.partial" . && mv -f "${bin}.partial" "${bin}")
fi
cd "${repo_root}"
exec node --conditions=source --import tsx "${here}/diff.ts" "${bin}" "$@"
