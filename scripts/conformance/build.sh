#!/usr/bin/env bash
# Builds upstream's e2e test binary, trimmed to the suites the conformance
# selection draws from (./e2e, a wrapper module with its own entry point),
# and the kubectl its sig-cli tests run, from the Go module proxy at the
# pinned release, and caches both outside the repository:
#
#   ${KUBESDK_CACHE:-$HOME/.cache/kubesdk}/
#     real-apiserver/go-build/                     Go build cache, shared with
#                                                  scripts/real-apiserver/build.sh
#                                                  (most packages are common)
#     conformance/k8s-v1.37.1_linux-amd64/<key>/e2e.test, kubectl
#
# <key> is a hash of the wrapper module's sources (e2e_test.go, go.mod,
# go.sum): a changed module builds into a new directory and never replaces a
# binary a running test:conformance uses. Older directories are kept (nothing
# knows when a run stops using one); remove them by hand when no run is going.
# A run that finds the binaries builds nothing.
# Usage: build.sh [--force] [--print-binary | --print-kubectl]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${here}/../.." && pwd)"
module_dir="${here}/e2e"

force=false
print_only=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --force) force=true ;;
    --print-binary) print_only=e2e.test ;;
    --print-kubectl) print_only=kubectl ;;
    *) echo "conformance build.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done

release_version="v$(sed -n 's/^[[:space:]]*"kubernetes":[[:space:]]*"\([^"]*\)".*/\1/p' "${repo_root}/k8s-release.json")"
# Both `require m v` and a line inside a `require (` block.
k8s_version="$(awk '{ if ($1 == "require") $0 = substr($0, 9) } $1 == "k8s.io/kubernetes" && $2 ~ /^v/ { print $2; exit }' "${module_dir}/go.mod")"
if [[ "${k8s_version}" != "${release_version}" ]]; then
  echo "conformance build.sh: k8s-release.json pins ${release_version} but e2e/go.mod requires k8s.io/kubernetes ${k8s_version}" >&2
  exit 1
fi

cache_root="${KUBESDK_CACHE:-${HOME}/.cache/kubesdk}"
key="$(cat "${module_dir}/e2e_test.go" "${module_dir}/go.mod" "${module_dir}/go.sum" | sha256sum | cut -c1-16)"
out_dir="${cache_root}/conformance/k8s-${k8s_version}_$(go env GOOS)-$(go env GOARCH)/${key}"
binary="${out_dir}/e2e.test"
kubectl="${out_dir}/kubectl"
if [[ -n "${print_only}" ]]; then
  echo "${out_dir}/${print_only}"
  exit 0
fi
# shellcheck source=../ci/lib/build-lock.sh
source "${repo_root}/scripts/ci/lib/build-lock.sh"
# Per key: a build of other sources does not hold up a run that finds its binaries.
take_build_lock "conformance-${k8s_version}-${key}"
if [[ "${force}" == false && -x "${binary}" && -x "${kubectl}" ]]; then
  echo "conformance: ${out_dir} already built (${SECONDS}s)"
  exit 0
fi

mkdir -p "${out_dir}" "${cache_root}/real-apiserver/go-build"
export CGO_ENABLED=0 GOTOOLCHAIN=local GOCACHE="${cache_root}/real-apiserver/go-build" GOFLAGS="-mod=readonly -buildvcs=false"
# The e2e framework prints and checks its own version against the server's.
ldflags="-s -w"
# kubectl reports its version from the same variables.
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X ${pkg}.gitVersion=${k8s_version} -X ${pkg}.gitTreeState=archive"
done
echo "conformance: building e2e.test (kubernetes ${k8s_version})"
# A temporary name and a rename: an interrupted build never leaves a binary that looks complete.
(cd "${module_dir}" && go test -c -trimpath -ldflags "${ldflags}" -o "${out_dir}/.e2e.test.partial" .)
mv -f "${out_dir}/.e2e.test.partial" "${binary}"
echo "conformance: built ${binary} ($(du -h "${binary}" | cut -f1)) in ${SECONDS}s"
(cd "${module_dir}" && go build -trimpath -ldflags "${ldflags}" -o "${out_dir}/.kubectl.partial" k8s.io/kubernetes/cmd/kubectl)
mv -f "${out_dir}/.kubectl.partial" "${kubectl}"
echo "conformance: built ${kubectl} ($(du -h "${kubectl}" | cut -f1)) in ${SECONDS}s"
