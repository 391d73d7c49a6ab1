#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager, kube-scheduler, etcd and
# etcdctl from the Go module proxy using the
# wrapper module in ./build, and caches them outside the repository:
#
#   ${KUBESDK_CACHE:-$HOME/.cache/kubesdk}/real-apiserver/
#     go-build/                                   Go build cache (GOCACHE)
#     k8s-v1.37.1_etcd-v3.7.0_linux-amd64/bin/    kube-apiserver etcd etcdctl
#                                                 kube-controller-manager kube-scheduler
#
# A run whose binaries already exist builds nothing; a run that finds some of
# them builds only the missing ones.
#
# Usage: build.sh [--force] [--print-bin-dir] [--k8s MINOR]
#   --force          rebuild even when the binaries exist
#   --print-bin-dir  print the binary directory for this version and exit
#   --k8s MINOR      build an older supported minor release (e.g. 1.36) from the
#                    wrapper module ./build-MINOR instead of the pinned one in ./build
#                    (also read from KUBESDK_K8S_MINOR)
# Environment: KUBESDK_CACHE (cache root), KUBE_GIT_COMMIT / ETCD_GIT_SHA
# (commit ids to stamp; a module zip carries none), SOURCE_DATE_EPOCH
# (fixes buildDate).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${here}/../.." && pwd)"
module_dir="${here}/build"

force=false
print_only=false
minor="${KUBESDK_K8S_MINOR:-}"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --force) force=true ;;
    --print-bin-dir) print_only=true ;;
    --k8s) minor="${2:?--k8s needs a minor version such as 1.36}"; shift ;;
    *) echo "build.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done
# The pinned minor (from k8s-release.json) is the ./build module.
pinned_minor="$(sed -n 's/^[[:space:]]*"kubernetes":[[:space:]]*"\([0-9]*\.[0-9]*\)\..*/\1/p' "${repo_root}/k8s-release.json")"
if [[ "${minor}" == "${pinned_minor}" ]]; then minor=""; fi
if [[ -n "${minor}" ]]; then
  module_dir="${here}/build-${minor}"
  if [[ ! -f "${module_dir}/go.mod" ]]; then
    echo "build.sh: no wrapper module for kubernetes ${minor} (expected ${module_dir}/go.mod)" >&2
    exit 2
  fi
fi

# The pinned release lives in k8s-release.json; the wrapper go.mod must agree.
release_version="v$(sed -n 's/^[[:space:]]*"kubernetes":[[:space:]]*"\([^"]*\)".*/\1/p' "${repo_root}/k8s-release.json")"
module_version() { awk -v m="$1" '$1 == m && $2 ~ /^v/ { print $2; exit }' "${module_dir}/go.mod"; }
k8s_version="$(module_version k8s.io/kubernetes)"
etcd_version="$(module_version go.etcd.io/etcd/server/v3)"
if [[ -z "${minor}" && "${k8s_version}" != "${release_version}" ]]; then
  echo "build.sh: k8s-release.json pins ${release_version} but build/go.mod requires k8s.io/kubernetes ${k8s_version}" >&2
  exit 1
fi
if [[ -z "${etcd_version}" ]]; then
  echo "build.sh: build/go.mod does not require go.etcd.io/etcd/server/v3" >&2
  exit 1
fi

goos="$(go env GOOS)"
goarch="$(go env GOARCH)"
cache_root="${KUBESDK_CACHE:-${HOME}/.cache/kubesdk}/real-apiserver"
bin_dir="${cache_root}/k8s-${k8s_version}_etcd-${etcd_version}_${goos}-${goarch}/bin"

if [[ "${print_only}" == true ]]; then
  echo "${bin_dir}"
  exit 0
fi

# The control-plane components (test:components) are built for the pinned release only: the older
# releases' wrapper modules carry kube-apiserver's dependencies and no more.
binaries=(kube-apiserver etcd etcdctl)
if [[ -z "${minor}" ]]; then binaries+=(kube-controller-manager kube-scheduler); fi
all_present() {
  local b
  for b in "${binaries[@]}"; do [[ -x "${bin_dir}/${b}" ]] || return 1; done
}

report() {
  local b
  for b in "${binaries[@]}"; do
    printf '  %-24s %s (%s)\n' "${b}" "${bin_dir}/${b}" "$(du -h "${bin_dir}/${b}" | cut -f1)"
  done
}

start_s=${SECONDS}
# shellcheck source=../ci/lib/build-lock.sh
source "${repo_root}/scripts/ci/lib/build-lock.sh"
take_build_lock "real-apiserver-${k8s_version}"
if [[ "${force}" == false ]] && all_present; then
  echo "real-apiserver: binaries for kubernetes ${k8s_version} / etcd ${etcd_version} already built:"
  report
  echo "real-apiserver: nothing to build (${SECONDS}s)"
  exit 0
fi

mkdir -p "${bin_dir}" "${cache_root}/go-build"
export CGO_ENABLED=0 GOTOOLCHAIN=local GOCACHE="${cache_root}/go-build" GOFLAGS="-mod=readonly -buildvcs=false"

# Version stamps, named after the variables in k8s.io/component-base/version
# and k8s.io/client-go/pkg/version (both carry the same set).
if [[ ! "${k8s_version}" =~ ^v([0-9]+)\.([0-9]+)\. ]]; then
  echo "build.sh: cannot parse major/minor from ${k8s_version}" >&2
  exit 1
fi
build_date="$(date -u ${SOURCE_DATE_EPOCH:+--date=@${SOURCE_DATE_EPOCH}} +%Y-%m-%dT%H:%M:%SZ)"
declare -A kube_stamps=(
  [gitVersion]="${k8s_version}"
  [gitMajor]="${BASH_REMATCH[1]}"
  [gitMinor]="${BASH_REMATCH[2]}"
  [gitCommit]="${KUBE_GIT_COMMIT:-unknown}"
  [gitTreeState]="archive"
  [buildDate]="${build_date}"
)
kube_ldflags="-s -w"
for key in "${!kube_stamps[@]}"; do
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    kube_ldflags+=" -X ${pkg}.${key}=${kube_stamps[${key}]}"
  done
done
etcd_ldflags="-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=${ETCD_GIT_SHA:-unknown}"

# Builds into a temporary name and renames, so an interrupted build never
# leaves a binary that looks complete.
build_one() {
  local name="$1" pkg="$2" ldflags="$3" step_s=${SECONDS}
  if [[ "${force}" == false && -x "${bin_dir}/${name}" ]]; then
    echo "real-apiserver: ${name} already built"
    return
  fi
  echo "real-apiserver: building ${name} from ${pkg}"
  (cd "${module_dir}" && go build -trimpath -ldflags "${ldflags}" -o "${bin_dir}/.${name}.partial" "${pkg}")
  mv -f "${bin_dir}/.${name}.partial" "${bin_dir}/${name}"
  echo "real-apiserver: ${name} built in $((SECONDS - step_s))s"
}

build_one etcd go.etcd.io/etcd/server/v3 "${etcd_ldflags}"
build_one etcdctl go.etcd.io/etcd/etcdctl/v3 "${etcd_ldflags}"
build_one kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver "${kube_ldflags}"
if [[ -z "${minor}" ]]; then
  build_one kube-controller-manager k8s.io/kubernetes/cmd/kube-controller-manager "${kube_ldflags}"
  build_one kube-scheduler k8s.io/kubernetes/cmd/kube-scheduler "${kube_ldflags}"
fi

echo "real-apiserver: built kubernetes ${k8s_version} / etcd ${etcd_version}:"
report
echo "real-apiserver: build took $((SECONDS - start_s))s"
