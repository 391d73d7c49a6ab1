# Sourced by the Go build scripts. CI builds the Go programs ahead, in the background
# (scripts/ci/prebuild.sh), while other steps run; a step that needs a program then calls the same
# build script, which must wait for that build rather than start a second one writing the same files.
# take_build_lock NAME holds an exclusive lock on ~/.cache/kubesdk/locks/NAME.lock until the calling
# script exits (the descriptor closes with it); the caller checks for the finished program after it.
take_build_lock() {
  local dir="${KUBESDK_CACHE:-${HOME}/.cache/kubesdk}/locks"
  mkdir -p "${dir}"
  exec {build_lock_fd}>"${dir}/$1.lock"
  if ! flock -n "${build_lock_fd}"; then
    echo "build lock: waiting for another build of $1 to finish" >&2
    flock "${build_lock_fd}"
  fi
}
