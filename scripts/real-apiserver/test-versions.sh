#!/usr/bin/env bash
# Runs the contract suites (test-real.sh) against kube-apiserver of every supported minor release:
# the pinned one (k8s-release.json, module ./build) and the older ones with a wrapper module
# ./build-<minor> (see docs/compatibility.md). Each release is built once and cached like the pinned
# one (a cold build takes ~5 min); they build one at a time. Every run's vitest report is kept in
# .cache/versions/<minor>.json, then compat-table.ts writes docs/compatibility.md from them.
#
# Usage: test-versions.sh [MINOR ...]    (default: the pinned minor and every build-<minor>)
# Exits non-zero if a run failed to report or a test failed other than the expected differences
# listed in compat-table.ts; the table is written either way (under CI=true it is printed
# instead, so a CI checkout stays clean).
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${here}/../.." && pwd)"
cd "${repo_root}"

pinned_minor="$(sed -n 's/^[[:space:]]*"kubernetes":[[:space:]]*"\([0-9]*\.[0-9]*\)\..*/\1/p' k8s-release.json)"
minors=("$@")
if [[ ${#minors[@]} -eq 0 ]]; then
  minors=("${pinned_minor}")
  for dir in "${here}"/build-*/; do
    minors+=("$(basename "${dir}" | sed 's/^build-//')")
  done
fi

mkdir -p .cache/versions
status=0
for minor in "${minors[@]}"; do
  echo "=== kubernetes ${minor} ==="
  bin_dir="$(bash "${here}/build.sh" --k8s "${minor}" --print-bin-dir)" || { status=1; continue; }
  started=${SECONDS}
  # Failures are judged by compat-table.ts below (a test of the pinned release itself is expected to
  # fail on older ones); a run without a report failed outright.
  # On an older release, only the suites that test the SDK itself: the server's own suites
  # (test/server/) hold the reference server to the pinned release's answers, so their failures there
  # are release differences by definition and gate nothing (compat-table.ts). KUBESDK_VERSIONS_ALL=1
  # runs them too, for the table's record of those differences.
  suites=()
  if [[ "${minor}" != "${pinned_minor}" && "${KUBESDK_VERSIONS_ALL:-}" != "1" ]]; then
    for dir in test/*/; do
      [[ "${dir}" == "test/server/" ]] || suites+=("${dir}**/*.test.ts")
    done
  fi
  KUBESDK_K8S_MINOR="${minor}" bash "${here}/test-real.sh" "${suites[@]}" || true
  if [[ ! -f .cache/vitest-real-report.json ]]; then
    echo "test-versions: kubernetes ${minor}: no vitest report" >&2
    status=1
  else
    mv -f .cache/vitest-real-report.json ".cache/versions/${minor}.json"
    # Which build ran (k8s-vX.Y.Z_etcd-vA.B.C) and for how long, for the table.
    printf '{"build":"%s","seconds":%d}\n' "$(basename "$(dirname "${bin_dir}")")" $((SECONDS - started)) \
      > ".cache/versions/${minor}.meta.json"
  fi
done

table_args=(.cache/versions)
if [[ "${CI:-}" == "true" ]]; then table_args+=(--print); fi
pnpm exec tsx "${here}/compat-table.ts" "${table_args[@]}" || status=1
exit ${status}
