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

# A free loopback port below the kernel's ephemeral range, for a port something scrapes while nothing listens
# on it: a server binding port 0 (forge-sim in a test) can never be given it, so it never answers the scrape.
ci_free_port_below_ephemeral() {
  node -e '
    const net = require("net");
    const low = Number(require("fs").readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").split(/\s+/)[0]) || 32768;
    const span = Math.max(1, low - 10000);
    const start = 10000 + Math.floor(Math.random() * span);
    const tryAt = (i) => {
      if (i >= span) { console.error("no free port below " + low); process.exit(1); }
      const port = 10000 + ((start - 10000 + i) % span);
      const s = net.createServer();
      s.once("error", () => tryAt(i + 1));
      s.listen(port, "127.0.0.1", () => { console.log(port); s.close(); });
    };
    tryAt(0);'
}
