# Sourced by .ci/run: installs Debian's redis-server and exports FORGE_TEST_REDIS_SERVER, the path of its binary.
# Nothing is started here: each test that needs Redis starts its own redis-server on a free loopback port, so it
# can stop and restart it. Safe to source more than once.
if ! command -v redis-server >/dev/null 2>&1 && [ ! -x /usr/bin/redis-server ]; then
  export DEBIAN_FRONTEND=noninteractive
  (apt-get update -qq && apt-get install -y -qq --no-install-recommends redis-server >/dev/null) ||
    echo "redis-server install failed" >&2
fi
if [ -x /usr/bin/redis-server ]; then
  export FORGE_TEST_REDIS_SERVER=/usr/bin/redis-server
elif command -v redis-server >/dev/null 2>&1; then
  FORGE_TEST_REDIS_SERVER=$(command -v redis-server)
  export FORGE_TEST_REDIS_SERVER
fi
