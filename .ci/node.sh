# Sourced by .ci/run (and by anyone who wants the same binaries): node_line <major> prints the path of a
# Node binary of that release line, installed once from the npm registry's node-linux-<arch> package
# (the official build, headers included) into a cache folder. Nothing goes into the project's dependencies.
node_line() {
  local major="$1"
  local arch
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "node_line: unsupported architecture $(uname -m)" >&2; return 1 ;;
  esac
  local root="${FORGE_CI_CACHE:-$HOME/.cache/forge-ci}/node-$major"
  if [ ! -x "$root/bin/node" ]; then
    local tmp
    tmp=$(mktemp -d)
    (cd "$tmp" && npm pack --silent "node-linux-$arch@$major" >/dev/null 2>&1 && tar xzf node-linux-*.tgz) ||
      { echo "node_line: could not fetch node-linux-$arch@$major from the npm registry" >&2; rm -rf "$tmp"; return 1; }
    mkdir -p "$(dirname "$root")"
    rm -rf "$root"
    mv "$tmp/package" "$root"
    rm -rf "$tmp"
  fi
  echo "$root/bin/node"
}

