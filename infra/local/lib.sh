# shellcheck shell=bash
# shellcheck disable=SC2034,SC2012
# Shared settings and helpers for infra/local/{up,down,status,smoke}. Sourced, not executed.
# Spec: /work/shared/DESIGN.md section 3 "Local infrastructure without Docker".

LOCAL_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Whether users other than the owner may pass through every directory down to $1.
others_can_reach() {
  local dir=$1 mode
  while [[ $dir != / ]]; do
    mode=$(stat -c %a "$dir")
    (( (8#$mode & 1) == 1 )) || return 1
    dir=$(dirname "$dir")
  done
}

# PostgreSQL and Elasticsearch refuse to run as root, so they run as the infra user, who must reach their files.
# When this checkout lies below a directory others cannot enter (a 0700 home or temporary directory), the run
# folder lives under /var/lib/shiliu-infra instead, linked from infra/local/.run where the tests look for it.
if [[ $EUID -eq 0 && ! -e $LOCAL_DIR/.run ]] && ! others_can_reach "$LOCAL_DIR"; then
  relocated=/var/lib/shiliu-infra/$(printf '%s' "$LOCAL_DIR" | sha1sum | cut -c1-12)
  mkdir -p "$relocated"
  chmod 755 /var/lib/shiliu-infra "$relocated"
  ln -s "$relocated" "$LOCAL_DIR/.run"
fi
RUN=$(readlink -f "$LOCAL_DIR/.run" 2>/dev/null || echo "$LOCAL_DIR/.run")
DIST=$RUN/dist        # downloaded / unpacked things (kept by `down --purge`)
CACHE=$RUN/cache      # Maven local repo, Go module + build cache (kept)
BIN=$RUN/bin          # built binaries (minio) (kept)
DATA=$RUN/data        # service data (wiped by `down --purge`)
LOGS=$RUN/logs        # service logs (wiped by `down --purge`)
PIDS=$RUN/pids
CONF=$RUN/conf        # generated config files

# ---- pinned versions ---------------------------------------------------------------------
KAFKA_VERSION=3.9.2
ES_VERSION=8.19.21
# github.com/minio/minio has no semver tags; this is the module proxy's @latest (2026-02-12).
MINIO_VERSION=v0.0.0-20260212201848-7aac2a2c5b7c

# ---- ports (all bound to 127.0.0.1) --------------------------------------------------------
# Below Linux's ephemeral range (32768 and up), where a busy machine's outgoing connections could hold one of
# them at the moment a server binds it. SHILIU_INFRA_PORT_OFFSET moves them all, so that a second checkout can
# run its own set beside the first. It moves them by whole thousands: the ports lie within 300 of each other, so an
# offset of 100 would put one checkout's Elasticsearch on the other's transport port.
HOST=127.0.0.1
PORT_OFFSET=${SHILIU_INFRA_PORT_OFFSET:-0}
[[ $PORT_OFFSET =~ ^(0|1000|2000|3000)$ ]] || { echo "SHILIU_INFRA_PORT_OFFSET must be 0, 1000, 2000 or 3000" >&2; exit 2; }
PG_PORT=$((25432 + PORT_OFFSET))
REDIS_PORT=$((26379 + PORT_OFFSET))
KAFKA_PORT=$((29092 + PORT_OFFSET))
KAFKA_CONTROLLER_PORT=$((29093 + PORT_OFFSET))
ES_PORT=$((29200 + PORT_OFFSET))
ES_TRANSPORT_PORT=$((29300 + PORT_OFFSET))
MINIO_PORT=$((29000 + PORT_OFFSET))
MINIO_CONSOLE_PORT=$((29001 + PORT_OFFSET))

PG_USER=shiliu PG_PASSWORD=shiliu PG_DB=shiliu
MINIO_USER=shiliu MINIO_PASSWORD=shiliu-secret

# JVM heaps are fixed: 2 cores, memory shared with everything else.
KAFKA_HEAP=${SHILIU_KAFKA_HEAP:-512m}
ES_HEAP=${SHILIU_ES_HEAP:-512m}

INFRA_USER=${SHILIU_INFRA_USER:-shiliu-infra}
JAVA17_HOME=${SHILIU_JAVA17_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}

SERVICES=(postgres redis kafka elasticsearch minio)

KAFKA_HOME=$DIST/kafka-$KAFKA_VERSION
ES_HOME=$DIST/elasticsearch-$ES_VERSION

SVC_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# ---- small helpers -----------------------------------------------------------------------
is_root() { [[ $EUID -eq 0 ]]; }

pg_bin() {
  # Prefer Debian's PostgreSQL 15 (/usr/local/bin/postgres may be a symlink or something else).
  if [[ -x /usr/lib/postgresql/15/bin/postgres ]]; then
    echo /usr/lib/postgresql/15/bin
  else
    local d
    d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [[ -n $d ]] && echo "$d"
  fi
}

now() { date +%s; }

# Run a command as the infra user with a clean environment (extra VAR=value args allowed first).
as_user() {
  if is_root; then
    setpriv --reuid="$INFRA_USER" --regid="$INFRA_USER" --init-groups \
      env -i PATH="$SVC_PATH" HOME="$DATA/home" LANG=C.UTF-8 "$@"
  else
    env -i PATH="$SVC_PATH" HOME="$DATA/home" LANG=C.UTF-8 "$@"
  fi
}

own() { # own DIR... : make dirs owned by the infra user
  mkdir -p "$@"
  if is_root; then chown "$INFRA_USER:$INFRA_USER" "$@"; fi
}

# A checkout in a private directory (mktemp -d makes it 0700) would keep the infra user from reaching its data and
# binaries: give others search permission (not read) on each directory above DIR that lacks it, and say so.
grant_passage() { # grant_passage DIR
  local dir
  dir=$(dirname "$(realpath "$1")")
  while [[ $dir != / ]]; do
    if [[ $(( 8#$(stat -c %a "$dir") & 1 )) -eq 0 ]]; then
      chmod o+x "$dir"
      echo "user: let $INFRA_USER pass through $dir (search permission for others)"
    fi
    dir=$(dirname "$dir")
  done
}

pidfile() { echo "$PIDS/$1.pid"; }

read_pid() { # read_pid FILE -> prints pid, fails if absent/garbage
  local p
  [[ -s $1 ]] || return 1
  p=$(head -n 1 "$1" 2>/dev/null) || return 1
  [[ $p =~ ^[0-9]+$ ]] || return 1
  echo "$p"
}

# A string that must appear in /proc/<pid>/cmdline so a recycled pid is never mistaken for ours.
marker() {
  case $1 in
    postgres) echo "$DATA/postgres" ;;
    redis) echo "$HOST:$REDIS_PORT" ;;        # redis rewrites its title to "redis-server 127.0.0.1:26379"
    kafka) echo "$CONF/kafka.properties" ;;
    elasticsearch) echo "$ES_HOME" ;;
    minio) echo "$DATA/minio" ;;
  esac
}

pid_matches() { # pid_matches PID SERVICE
  local cmd
  [[ -r /proc/$1/cmdline ]] || return 1
  cmd=$(tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null) || return 1
  [[ -n $cmd && $cmd == *"$(marker "$2")"* ]]
}

# running SERVICE [PIDFILE-NAME] : process recorded in the pid file is alive and is ours
running() {
  local pid
  pid=$(read_pid "$(pidfile "${2:-$1}")") || return 1
  pid_matches "$pid" "$1"
}

port_open() { timeout 1 bash -c "exec 3<>/dev/tcp/$HOST/$1" 2>/dev/null; }

# ---- health checks (fast; each answers within ~3 s) ----------------------------------------
health_postgres() {
  local out
  out=$(PGPASSWORD=$PG_PASSWORD PGCONNECT_TIMEOUT=2 "$(pg_bin)/psql" -h "$HOST" -p "$PG_PORT" \
    -U "$PG_USER" -d postgres -tAXq -c 'select 1' 2>/dev/null) || return 1
  [[ $out == 1 ]]
}

health_redis() {
  [[ $(timeout 3 redis-cli -h "$HOST" -p "$REDIS_PORT" ping 2>/dev/null) == PONG ]]
}

# Real Kafka protocol check: send ApiVersions v0 and expect correlation id 1, error code 0.
# The broker only answers once it has finished starting up.
health_kafka() {
  local out
  out=$(timeout 3 bash -c '
    exec 3<>/dev/tcp/'"$HOST"'/'"$KAFKA_PORT"' || exit 1
    printf "\x00\x00\x00\x0b\x00\x12\x00\x00\x00\x00\x00\x01\x00\x01h" >&3
    head -c 10 <&3 | od -An -tx1' 2>/dev/null) || return 1
  out=${out//[[:space:]]/}
  [[ ${out:8:12} == 000000010000 ]]
}

health_elasticsearch() {
  local out
  out=$(curl -fsS -m 3 "http://$HOST:$ES_PORT/_cluster/health" 2>/dev/null) || return 1
  [[ $out == *'"status":"green"'* || $out == *'"status":"yellow"'* ]]
}

health_minio() {
  curl -fsS -m 3 -o /dev/null "http://$HOST:$MINIO_PORT/minio/health/live" 2>/dev/null
}

svc_port() {
  case $1 in
    postgres) echo "$PG_PORT" ;; redis) echo "$REDIS_PORT" ;; kafka) echo "$KAFKA_PORT" ;;
    elasticsearch) echo "$ES_PORT" ;; minio) echo "$MINIO_PORT" ;;
  esac
}

# pid-file names a service may own (elasticsearch has a launcher plus the server it daemonizes)
svc_pidfiles() {
  case $1 in
    elasticsearch) echo "elasticsearch elasticsearch-cli" ;;
    *) echo "$1" ;;
  esac
}

svc_logs() { # log files worth tailing when something fails
  case $1 in
    elasticsearch) echo "$LOGS/elasticsearch-cli.log $LOGS/elasticsearch/shiliu-local.log" ;;
    postgres) echo "$LOGS/postgres-initdb.log $LOGS/postgres.log" ;;
    kafka) echo "$LOGS/kafka-format.log $LOGS/kafka.log" ;;
    *) echo "$LOGS/$1.log" ;;
  esac
}

tail_logs() {
  local f
  for f in $(svc_logs "$1"); do
    [[ -s $f ]] || continue
    echo "----- last lines of $f -----" >&2
    tail -n "${2:-40}" "$f" >&2
  done
}

# alive SERVICE : any process recorded for the service is alive
alive() {
  local name
  for name in $(svc_pidfiles "$1"); do
    running "$1" "$name" && return 0
  done
  return 1
}

# Stop one service: SIGTERM (postgres: SIGINT = fast shutdown), wait, then SIGKILL.
stop_service() {
  local svc=$1 sig=TERM wait_s=30 name pid any=0 i
  [[ $svc == postgres ]] && sig=INT
  [[ $svc == kafka || $svc == elasticsearch ]] && wait_s=60
  for name in $(svc_pidfiles "$svc"); do
    pid=$(read_pid "$(pidfile "$name")") || { rm -f "$(pidfile "$name")"; continue; }
    if pid_matches "$pid" "$svc"; then
      any=1
      kill -s "$sig" "$pid" 2>/dev/null || true
      for ((i = 0; i < wait_s * 5; i++)); do
        pid_matches "$pid" "$svc" || break
        sleep 0.2
      done
      if pid_matches "$pid" "$svc"; then
        echo "$svc: did not stop within ${wait_s}s, sending SIGKILL" >&2
        kill -KILL "$pid" 2>/dev/null || true
        sleep 0.5
      fi
    fi
    rm -f "$(pidfile "$name")"
  done
  return $((any == 0))   # 0 if something was stopped
}
