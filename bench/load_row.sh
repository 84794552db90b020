# shellcheck shell=bash disable=SC2154  # $bin and $results: the sourcing script sets them
# Sourced by compare.sh and sweep.sh: `load LABEL SERVER ARGS...` runs
# cafmcp-load against SERVER (a command line) and appends its JSON line to
# $results, or a line naming the failure (the table shows it; the run
# goes on). Needs $bin (where cafmcp-load is) and $results.
# `load_on CPU LABEL SERVER ARGS...` runs it held to one CPU (taskset); a
# server it starts inherits that CPU unless SERVER names its own taskset.
load() {
  local label=$1 server=$2
  shift 2
  echo "running $label ..." >&2
  ${load_cpu:+taskset -c "$load_cpu"} "$bin/cafmcp-load" --server "$server" --label "$label" --json "$@" >>"$results" \
    || echo "{\"label\":\"$label\",\"error\":\"cafmcp-load exited $?\"}" >>"$results"
}
load_on() {
  local load_cpu=$1
  shift
  load "$@"
}
