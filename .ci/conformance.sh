# Sourced by .ci/run: the official MCP conformance suite (a devDependency) needs Node >= 22, so a Node 22
# binary from the npm registry is put where its test looks for it. Without it the test fails in CI.
. "$(dirname "${BASH_SOURCE[0]}")/node.sh"
FORGE_CONFORMANCE_NODE="$(node_line 22)"
export FORGE_CONFORMANCE_NODE
