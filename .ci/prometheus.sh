# Sourced by .ci/run: installs Debian's prometheus package and starts a server of this run's own on a free loopback
# port, scraping the activity-collector's `serve` /metrics on another free port every second; exports
# COLLECTOR_TEST_PROM_URL and COLLECTOR_TEST_PROM_TARGET_PORT for its test. The server is stopped, and its data
# removed, when the shell that sourced this exits. A Prometheus already running (another run's, anyone's) is neither
# used nor touched. Safe to source more than once: this shell's own server, still answering, is kept.
. "$(dirname "${BASH_SOURCE[0]}")/at-exit.sh"
if ! command -v prometheus >/dev/null 2>&1 || ! command -v curl >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  (apt-get update -qq && apt-get install -y -qq --no-install-recommends prometheus curl >/dev/null) ||
    echo "prometheus install failed" >&2
fi

# Stops the server this shell started (the process whose command line names its own directory), then removes it.
ci_prometheus_stop() {
  local pid=${CI_PROM_PID:-} dir=${CI_PROM_DIR:-}
  CI_PROM_PID='' CI_PROM_DIR=''
  if [ -n "$pid" ] && [ -n "$dir" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$dir/"; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 40); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.25
    done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  if [ -n "$dir" ]; then rm -rf "$dir"; fi
}

if command -v prometheus >/dev/null 2>&1; then
  if [ -z "${CI_PROM_PID:-}" ] || ! curl -fsS "${COLLECTOR_TEST_PROM_URL:-}/-/ready" >/dev/null 2>&1; then
    ci_prometheus_stop
    unset COLLECTOR_TEST_PROM_URL COLLECTOR_TEST_PROM_TARGET_PORT
    CI_PROM_DIR=$(mktemp -d /tmp/ci-prom.XXXXXX)
    prom_port=$(ci_free_port)
    prom_target_port=$(ci_free_port_below_ephemeral)
    cat >"$CI_PROM_DIR/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: activity-collector
    scrape_interval: 1s
    scrape_timeout: 1s
    static_configs:
      - targets: ['127.0.0.1:$prom_target_port']
YAML
    prometheus --config.file="$CI_PROM_DIR/prometheus.yml" --storage.tsdb.path="$CI_PROM_DIR/data" \
      --web.listen-address="127.0.0.1:$prom_port" >"$CI_PROM_DIR/log" 2>&1 &
    CI_PROM_PID=$!
    ci_at_exit ci_prometheus_stop
    for _ in $(seq 1 60); do
      curl -fsS "http://127.0.0.1:$prom_port/-/ready" >/dev/null 2>&1 && break
      kill -0 "$CI_PROM_PID" 2>/dev/null || break
      sleep 0.5
    done
    if curl -fsS "http://127.0.0.1:$prom_port/-/ready" >/dev/null 2>&1; then
      export COLLECTOR_TEST_PROM_URL="http://127.0.0.1:$prom_port"
      export COLLECTOR_TEST_PROM_TARGET_PORT=$prom_target_port
    else
      echo "prometheus start failed:" >&2
      tail -5 "$CI_PROM_DIR/log" >&2
    fi
    unset prom_port prom_target_port
  fi
fi
