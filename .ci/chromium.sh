# Sourced by .ci/run: installs Debian's chromium for the browser OAuth test and exports FORGE_TEST_CHROMIUM.
# The test drives this binary through playwright-core; no browser is ever downloaded.
if ! command -v chromium >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  (apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium >/dev/null) || echo "chromium install failed" >&2
fi
if command -v chromium >/dev/null 2>&1; then
  export FORGE_TEST_CHROMIUM="$(command -v chromium)"
fi
