# Puts Node.js 24 first on PATH when the machine's Node is older, fetching it once from the npm
# registry into a cache folder (scripts/node24.mjs says how). Source it from bash:
#   . scripts/node24.sh && node --version
# (.ci/run does). Without a Node at all, install one from your distribution first.
_openpug_node_bin="$(node "$(dirname "${BASH_SOURCE[0]}")/node24.mjs")" || return 1
export PATH="$_openpug_node_bin:$PATH"
unset _openpug_node_bin
