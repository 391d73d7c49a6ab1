#!/usr/bin/env bash
# Builds the client-go leader candidate (scripts/client-go-check/leader) and prints its path. The
# binary is cached under ~/.cache/kubesdk/leader-candidate (or $KUBESDK_CACHE), named by a hash of
# its sources (leader/main.go, go.mod, go.sum), so a changed source or dependency builds anew and an
# unchanged one never does; the Go build cache is the one the real kube-apiserver build fills
# (~10 s warm; a cold machine fetches client-go from the module proxy, ~2-4 min).
set -euo pipefail
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../client-go-check" && pwd)"
cache_root="${KUBESDK_CACHE:-${HOME}/.cache/kubesdk}"
key="$(cat "${src}/leader/main.go" "${src}/go.mod" "${src}/go.sum" | sha256sum | cut -c1-16)"
out="${cache_root}/leader-candidate/client-go-leader-${key}"
# shellcheck source=../ci/lib/build-lock.sh
source "$(dirname "${BASH_SOURCE[0]}")/../ci/lib/build-lock.sh"
take_build_lock leader-candidate
if [[ ! -x "${out}" ]]; then
  mkdir -p "$(dirname "${out}")"
  # Older builds (other hashes) are of no further use.
  rm -f "${cache_root}/leader-candidate/client-go-leader"*
  (cd "${src}" && CGO_ENABLED=0 GOTOOLCHAIN=local GOCACHE="${cache_root}/real-apiserver/go-build" \
    GOFLAGS="-mod=readonly -buildvcs=false" go build -trimpath -o "${out}.partial" ./leader >&2)
  mv -f "${out}.partial" "${out}"
fi
echo "${out}"
