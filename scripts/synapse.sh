#!/usr/bin/env bash
# Synapse for tests, benchmarks and local production trials.
#
#   eval "$(bash scripts/synapse.sh)"        # installs (once), starts, prints the env to use
#   bash scripts/synapse.sh stop             # stops the background Synapse
#
# Installs matrix-synapse with pip into a virtual environment (.cache/synapse-venv, reused when
# present), writes a config (SQLite, 127.0.0.1:$SYNAPSE_PORT, registration shared secret,
# registration closed, rate limits relaxed for tests, 10 MiB uploads like the embedded
# homeserver, openpug's module scripts/synapse/openpug_synapse.py enabled: only the two players
# may create their direct-chat alias), starts it in the background, waits for
# /_matrix/client/versions and prints
#
#   export SYNAPSE_URL=http://127.0.0.1:8008
#   export SYNAPSE_SHARED_SECRET=<secret>
#   export SYNAPSE_SERVER_NAME=localhost
#
# on stdout (everything else goes to stderr), so `eval` works. Running it again while Synapse is
# up only prints the env. Needs python3 (>= 3.9) with venv + pip and access to PyPI.
# Overrides: SYNAPSE_PORT (8008), SYNAPSE_DIR (.cache/synapse), SYNAPSE_VENV (.cache/synapse-venv),
# SYNAPSE_VERSION (pinned below), PYTHON (python3).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PORT="${SYNAPSE_PORT:-8008}"
DIR="${SYNAPSE_DIR:-$ROOT/.cache/synapse}"
VENV="${SYNAPSE_VENV:-$ROOT/.cache/synapse-venv}"
VERSION="${SYNAPSE_VERSION:-1.163.2}"
PY="${PYTHON:-python3}"
SERVER_NAME=localhost
URL="http://127.0.0.1:$PORT"
# openpug's Synapse module (openpug_synapse.DirectRoomAliasGuard, enabled under `modules:`).
export PYTHONPATH="$ROOT/scripts/synapse${PYTHONPATH:+:$PYTHONPATH}"

log() { echo "[synapse] $*" >&2; }

print_env() {
  echo "export SYNAPSE_URL=$URL"
  echo "export SYNAPSE_SHARED_SECRET=$(cat "$DIR/shared_secret")"
  echo "export SYNAPSE_SERVER_NAME=$SERVER_NAME"
}

up() { curl -fsS -m 2 "$URL/_matrix/client/versions" >/dev/null 2>&1; }

if [[ "${1:-start}" == "stop" ]]; then
  if [[ -f "$DIR/homeserver.pid" ]] && kill -0 "$(cat "$DIR/homeserver.pid")" 2>/dev/null; then
    kill "$(cat "$DIR/homeserver.pid")"
    log "stopped"
  fi
  exit 0
fi

# One homeserver per data directory: a second one on another port would share the first one's
# SQLite database, and both break (stream ids out of step). Asked for another port while one runs
# here, the running one is what is printed; SYNAPSE_DIR gives a second one its own directory.
if [[ -f "$DIR/homeserver.pid" ]] && kill -0 "$(cat "$DIR/homeserver.pid")" 2>/dev/null; then
  running_port="$(sed -n 's/^  - port: \([0-9]*\)$/\1/p' "$DIR/homeserver.yaml" | head -1)"
  if [[ -n "$running_port" && "$running_port" != "$PORT" ]]; then
    log "a homeserver already runs on port $running_port for $DIR: using it (SYNAPSE_DIR for a second one)"
    PORT="$running_port"
    URL="http://127.0.0.1:$PORT"
  fi
fi

if [[ -f "$DIR/shared_secret" ]] && up; then
  log "already running at $URL"
  print_env
  exit 0
fi

# 1. Install (idempotent: reuses the venv when the pinned version is there).
# (The distribution's version: synapse.__version__ gains a git suffix inside a git checkout.)
if ! "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(0 if m.version('matrix-synapse') == '$VERSION' else 1)" 2>/dev/null; then
  log "installing matrix-synapse $VERSION into $VENV"
  "$PY" -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --upgrade pip >&2
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "matrix-synapse==$VERSION" >&2
fi

# 2. Config (written once; the secret and keys persist across restarts).
mkdir -p "$DIR/media_store"
if [[ ! -f "$DIR/shared_secret" ]]; then
  "$VENV/bin/python" -c 'import secrets; print(secrets.token_hex(32))' >"$DIR/shared_secret"
fi
SECRET="$(cat "$DIR/shared_secret")"
rand() { "$VENV/bin/python" -c 'import secrets; print(secrets.token_hex(32))'; }
[[ -f "$DIR/macaroon" ]] || rand >"$DIR/macaroon"
[[ -f "$DIR/form" ]] || rand >"$DIR/form"

cat >"$DIR/log.config" <<LOG
version: 1
formatters:
  precise:
    format: '%(asctime)s - %(name)s - %(lineno)d - %(levelname)s - %(request)s - %(message)s'
handlers:
  file:
    class: logging.FileHandler
    formatter: precise
    filename: $DIR/homeserver.log
root:
  level: WARNING
  handlers: [file]
disable_existing_loggers: false
LOG

relaxed='{per_second: 1000, burst_count: 10000}'
cat >"$DIR/homeserver.yaml" <<YAML
server_name: "$SERVER_NAME"
pid_file: "$DIR/homeserver.pid"
public_baseurl: "$URL/"
listeners:
  - port: $PORT
    tls: false
    type: http
    x_forwarded: false
    bind_addresses: ['127.0.0.1']
    resources:
      - names: [client]
        compress: false
database:
  name: sqlite3
  args:
    database: "$DIR/homeserver.db"
log_config: "$DIR/log.config"
media_store_path: "$DIR/media_store"
signing_key_path: "$DIR/$SERVER_NAME.signing.key"
registration_shared_secret: "$SECRET"
macaroon_secret_key: "$(cat "$DIR/macaroon")"
form_secret: "$(cat "$DIR/form")"
enable_registration: false
# The accounts' passwords are 24 random bytes that openpug makes and keeps (chat/service.ts), not
# ones a person chose: bcrypt's work factor adds nothing against guessing them, and at Synapse's
# default (12) each registration or password login cost ~220 ms of its CPU (bench/RESULTS.md,
# issue 20 target 5). 4 is bcrypt's lowest. As in deploy/synapse/homeserver.yaml.
bcrypt_rounds: 4
report_stats: false
trusted_key_servers: []
suppress_key_server_warning: true
url_preview_enabled: false
enable_authenticated_media: true
max_upload_size: 10M
presence:
  enabled: false
# Nothing of openpug searches the user directory or reads room statistics, and Synapse keeps both
# up to date at every membership change: a match room's ten invites and joins (bench/RESULTS.md,
# issue 20 target 5). As in deploy/synapse/homeserver.yaml.
user_directory:
  enabled: false
stats:
  enabled: false
modules:
  - module: openpug_synapse.DirectRoomAliasGuard
    config: {}
# Identical /sync requests are not answered from a cache (tests repeat them within seconds).
caches:
  sync_response_cache_duration: 0
# m.login.token for an existing session (POST /_matrix/client/v1/login/get_token), like the
# embedded homeserver offers.
login_via_existing_session:
  enabled: true
  require_ui_auth: false
  token_timeout: 5m
rc_message: $relaxed
rc_registration: $relaxed
rc_login:
  address: $relaxed
  account: $relaxed
  failed_attempts: $relaxed
rc_joins:
  local: $relaxed
  remote: $relaxed
rc_joins_per_room: $relaxed
rc_invites:
  per_room: $relaxed
  per_user: $relaxed
  per_issuer: $relaxed
rc_admin_redaction: $relaxed
rc_3pid_validation: $relaxed
rc_media_create: $relaxed
rc_delayed_event_mgmt: $relaxed
# Tests create many rooms and file reports as one user within seconds (defaults: a burst of 10
# rooms, then one a minute; 5 reports: synapse/config/ratelimiting.py).
rc_room_creation: $relaxed
rc_reports: $relaxed
YAML

if [[ ! -f "$DIR/$SERVER_NAME.signing.key" ]]; then
  "$VENV/bin/python" -m synapse.app.homeserver --config-path "$DIR/homeserver.yaml" --generate-keys >&2
fi

# 3. Start in the background and wait until the client API answers.
log "starting on $URL (log: $DIR/homeserver.log)"
"$VENV/bin/python" -m synapse.app.homeserver --config-path "$DIR/homeserver.yaml" --daemonize >&2
for _ in $(seq 1 120); do
  if up; then
    log "ready"
    print_env
    exit 0
  fi
  sleep 0.5
done
log "Synapse did not answer within 60 s; see $DIR/homeserver.log"
tail -n 40 "$DIR/homeserver.log" >&2 || true
exit 1
