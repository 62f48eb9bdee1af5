# Sourced by .ci/run: installs and starts a PostgreSQL 15 server and exports COLLECTOR_TEST_PG_URL.
# Safe to source more than once: a server already answering on 127.0.0.1:55432 is reused.
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  (apt-get update -qq && apt-get install -y -qq postgresql >/dev/null) || echo "postgres install failed" >&2
fi
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -n "$PGBIN" ]; then
  if "$PGBIN/pg_isready" -q -h 127.0.0.1 -p 55432 >/dev/null 2>&1; then
    export COLLECTOR_TEST_PG_URL="postgres://postgres@127.0.0.1:55432/postgres"
  else
    PGDATA=$(mktemp -d /tmp/ci-pg.XXXXXX)
    chown postgres:postgres "$PGDATA" 2>/dev/null || true
    RUNAS=""
    [ "$(id -u)" = "0" ] && RUNAS="runuser -u postgres --"
    if $RUNAS "$PGBIN/initdb" -D "$PGDATA" -A trust -U postgres >/dev/null &&
      $RUNAS "$PGBIN/pg_ctl" -D "$PGDATA" -o "-p 55432 -k /tmp -c listen_addresses=127.0.0.1" -l "$PGDATA/log" -w start >/dev/null; then
      export COLLECTOR_TEST_PG_URL="postgres://postgres@127.0.0.1:55432/postgres"
    else
      echo "postgres start failed; see $PGDATA/log" >&2
    fi
  fi
fi
