# Shared settings for up.sh and down.sh: sourced, never run on its own.
# shellcheck shell=bash disable=SC2034

SERVICES_SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SERVICES_SCRIPT_DIR/../.." && pwd)"
# env.json is the only hand-over to the tests; it lives in the repo so each checkout has its own.
INFO_DIR="$REPO_ROOT/.tmp/services"
ENV_FILE="$INFO_DIR/env.json"

SVC_HOST=127.0.0.1
MAIL_DOMAIN=test.local
IMAP_PORT="${SERVICES_IMAP_PORT:-10143}"
IMAPS_PORT="${SERVICES_IMAPS_PORT:-10993}"
LMTP_PORT="${SERVICES_LMTP_PORT:-10024}"
SMTP_PORT="${SERVICES_SMTP_PORT:-10025}"
SUBMISSION_PORT="${SERVICES_SUBMISSION_PORT:-10587}"
SFTP_PORT="${SERVICES_SFTP_PORT:-10022}"
# The stand-in for Microsoft's login service (HTTPS), which Dovecot asks about tokens.
MSAL_PORT="${SERVICES_MSAL_PORT:-10443}"
ALL_PORTS=("$IMAP_PORT" "$IMAPS_PORT" "$LMTP_PORT" "$SMTP_PORT" "$SUBMISSION_PORT" "$SFTP_PORT"
  "$MSAL_PORT")

# Dovecot refuses mail access as root, so mailboxes belong to Debian's stock `mail` user (uid 8):
# it exists on every Debian system, so no extra account is needed for mail.
MAIL_OS_USER=mail
# One SFTP account per checkout: up.sh gives the account a fresh password on every start, so two
# checkouts sharing one account would lock each other out.
SFTP_OS_USER="${SERVICES_SFTP_USER:-sftp$(printf %s "$REPO_ROOT" | md5sum | cut -c1-8)}"

# The state dir sits under /run because sshd's ChrootDirectory demands that every path component
# be root-owned and not group/world-writable, which /tmp and /var/tmp (mode 1777) are not.
STATE_PARENT="${SERVICES_STATE_PARENT:-/run}"
STATE_PREFIX="srcmgr-test-services."

die() {
  echo "tests/services: $*" >&2
  exit 1
}

# True when something accepts TCP connections on 127.0.0.1:$1.
port_answers() {
  (exec 3<>"/dev/tcp/$SVC_HOST/$1") 2>/dev/null
}

# Describe who listens on a port, for error messages; best effort.
port_owner() {
  if command -v ss >/dev/null 2>&1; then
    ss -ltnpH "sport = :$1" 2>/dev/null | sed -E 's/.*users:\(\((.*)\)\).*/\1/' | head -n1
  fi
}

pid_alive() {
  [[ -n "$1" ]] && kill -0 "$1" 2>/dev/null
}

read_pid() {
  [[ -r "$1" ]] && tr -dc '0-9' <"$1"
}

# Reads one string field of env.json without needing jq.
env_field() {
  sed -nE "s/^ *\"$1\": \"([^\"]*)\".*/\1/p" "$ENV_FILE" | head -n1
}

dovecot_pid() { read_pid "$1/dovecot/run/master.pid"; }
postfix_pid() { read_pid "$1/postfix/queue/pid/master.pid"; }
sshd_pid() { read_pid "$1/ssh/sshd.pid"; }
msal_pid() { read_pid "$1/msal/pid"; }

# Waits up to 10 s for a process to exit.
wait_gone() {
  local i
  for ((i = 0; i < 100; i++)); do
    pid_alive "$1" || return 0
    sleep 0.1
  done
  echo "tests/services: process $1 did not exit in 10 s" >&2
  return 1
}

# True when all daemons of a state dir are alive.
services_alive() {
  local state="$1"
  [[ -d "$state" ]] && pid_alive "$(dovecot_pid "$state")" &&
    pid_alive "$(postfix_pid "$state")" && pid_alive "$(sshd_pid "$state")" &&
    pid_alive "$(msal_pid "$state")"
}
