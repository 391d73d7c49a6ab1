#!/usr/bin/env bash
# pnpm test:client-go: builds the client-go program (cached next to the real-apiserver binaries,
# sharing their Go build cache) and runs it against both servers.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${here}/../.." && pwd)"
build="${repo_root}/scripts/real-apiserver/build.sh"
bash "${build}"
bin_dir="$(bash "${build}" --print-bin-dir)"
cache_root="$(dirname "$(dirname "${bin_dir}")")"
if [[ ! -x "${bin_dir}/client-go-check" || "${here}/main.go" -nt "${bin_dir}/client-go-check" ]]; then
  (cd "${here}" && CGO_ENABLED=0 GOTOOLCHAIN=local GOCACHE="${cache_root}/go-build" GOFLAGS="-mod=readonly -buildvcs=false" \
    go build -trimpath -o "${bin_dir}/.client-go-check.partial" . && mv -f "${bin_dir}/.client-go-check.partial" "${bin_dir}/client-go-check")
fi
cd "${repo_root}"
exec node --conditions=source --import tsx "${here}/run.ts" "${bin_dir}/client-go-check"
