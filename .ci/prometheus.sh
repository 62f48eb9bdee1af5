# Sourced by .ci/run: installs Debian's prometheus package and starts a server on 127.0.0.1:59090 that scrapes the
# activity-collector's `serve` /metrics on 127.0.0.1:59464 every second; exports COLLECTOR_TEST_PROM_URL and
# COLLECTOR_TEST_PROM_TARGET_PORT for its test. Safe to source more than once: a server already answering is reused.
if ! command -v prometheus >/dev/null 2>&1 || ! command -v curl >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  (apt-get update -qq && apt-get install -y -qq --no-install-recommends prometheus curl >/dev/null) ||
    echo "prometheus install failed" >&2
fi
PROM_PORT=59090
PROM_TARGET_PORT=59464
if command -v prometheus >/dev/null 2>&1; then
  if curl -fsS "http://127.0.0.1:$PROM_PORT/-/ready" >/dev/null 2>&1; then
    export COLLECTOR_TEST_PROM_URL="http://127.0.0.1:$PROM_PORT"
  else
    PROMDIR=$(mktemp -d /tmp/ci-prom.XXXXXX)
    cat >"$PROMDIR/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: activity-collector
    scrape_interval: 1s
    scrape_timeout: 1s
    static_configs:
      - targets: ['127.0.0.1:$PROM_TARGET_PORT']
YAML
    nohup prometheus --config.file="$PROMDIR/prometheus.yml" --storage.tsdb.path="$PROMDIR/data" \
      --web.listen-address="127.0.0.1:$PROM_PORT" >"$PROMDIR/log" 2>&1 &
    for _ in $(seq 1 60); do
      curl -fsS "http://127.0.0.1:$PROM_PORT/-/ready" >/dev/null 2>&1 && break
      sleep 0.5
    done
    if curl -fsS "http://127.0.0.1:$PROM_PORT/-/ready" >/dev/null 2>&1; then
      export COLLECTOR_TEST_PROM_URL="http://127.0.0.1:$PROM_PORT"
    else
      echo "prometheus start failed; see $PROMDIR/log" >&2
    fi
  fi
  export COLLECTOR_TEST_PROM_TARGET_PORT=$PROM_TARGET_PORT
fi
