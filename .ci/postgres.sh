# Sourced by .ci/run: installs PostgreSQL and starts a server of this run's own on a free loopback port, in a fresh
# data directory; exports COLLECTOR_TEST_PG_URL. The server is stopped, and its directory removed, when the shell
# that sourced this exits. A server already running (another run's, anyone's) is neither used nor touched. Safe to
# source more than once: this shell's own server, still answering, is kept.
. "$(dirname "${BASH_SOURCE[0]}")/at-exit.sh"
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  (apt-get update -qq && apt-get install -y -qq postgresql >/dev/null) || echo "postgres install failed" >&2
fi
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
CI_PG_RUNAS=""
[ "$(id -u)" = "0" ] && CI_PG_RUNAS="runuser -u postgres --"

# Stops the server in this shell's own data directory, then removes the directory.
ci_postgres_stop() {
  local dir=${CI_PG_DATA:-}
  CI_PG_DATA='' CI_PG_PORT=''
  [ -n "$dir" ] || return 0
  if [ -f "$dir/postmaster.pid" ]; then
    $CI_PG_RUNAS "$PGBIN/pg_ctl" -D "$dir" -m fast -w -t 30 stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}

if [ -n "$PGBIN" ]; then
  if [ -z "${CI_PG_DATA:-}" ] || ! "$PGBIN/pg_isready" -q -h 127.0.0.1 -p "${CI_PG_PORT:-0}" >/dev/null 2>&1; then
    ci_postgres_stop
    unset COLLECTOR_TEST_PG_URL
    CI_PG_DATA=$(mktemp -d /tmp/ci-pg.XXXXXX)
    CI_PG_PORT=$(ci_free_port)
    chown postgres:postgres "$CI_PG_DATA" 2>/dev/null || true
    ci_at_exit ci_postgres_stop
    if $CI_PG_RUNAS "$PGBIN/initdb" -D "$CI_PG_DATA" -A trust -U postgres >/dev/null &&
      $CI_PG_RUNAS "$PGBIN/pg_ctl" -D "$CI_PG_DATA" \
        -o "-p $CI_PG_PORT -k $CI_PG_DATA -c listen_addresses=127.0.0.1" -l "$CI_PG_DATA/log" -w start >/dev/null; then
      export COLLECTOR_TEST_PG_URL="postgres://postgres@127.0.0.1:$CI_PG_PORT/postgres"
    else
      echo "postgres start failed:" >&2
      tail -5 "$CI_PG_DATA/log" >&2 2>/dev/null || true
    fi
  fi
fi
