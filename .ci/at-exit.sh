# Sourced by the scripts that start servers: `ci_at_exit CMD` runs CMD when the shell that sourced them exits,
# however it exits (the suite failed, a signal), last registered first, so no server a run started outlives it.
# It takes the shell's EXIT trap. Safe to source more than once.
if ! declare -F ci_at_exit >/dev/null; then
  CI_AT_EXIT=()
  ci_at_exit() { CI_AT_EXIT=("$1" "${CI_AT_EXIT[@]}"); }
  ci_run_at_exit() {
    local cmd
    for cmd in "${CI_AT_EXIT[@]}"; do eval "$cmd" || true; done
    CI_AT_EXIT=()
  }
  trap ci_run_at_exit EXIT
fi

# A loopback TCP port nothing listens on now (the system picks it), for a server of this run's own.
ci_free_port() {
  node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'
}
