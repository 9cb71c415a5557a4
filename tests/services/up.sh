#!/usr/bin/env bash
# Starts the loopback test servers (Dovecot, Postfix, OpenSSH internal-sftp) in a temporary
# state directory and writes .tmp/services/env.json for the tests. Idempotent: a no-op when this
# checkout's services already run. See docs/test_services.md.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=tls.sh
source "$SERVICES_SCRIPT_DIR/tls.sh"
# shellcheck source=dovecot.sh
source "$SERVICES_SCRIPT_DIR/dovecot.sh"
# shellcheck source=postfix.sh
source "$SERVICES_SCRIPT_DIR/postfix.sh"
# shellcheck source=sshd.sh
source "$SERVICES_SCRIPT_DIR/sshd.sh"
# shellcheck source=msal.sh
source "$SERVICES_SCRIPT_DIR/msal.sh"

summary() {
  echo "test services $1: IMAP $SVC_HOST:$IMAP_PORT, IMAPS $IMAPS_PORT, LMTP $LMTP_PORT," \
    "SMTP $SMTP_PORT, submission $SUBMISSION_PORT, SFTP $SFTP_PORT, Microsoft login" \
    "https://$SVC_HOST:$MSAL_PORT ($ENV_FILE)"
}

[[ "$(id -u)" -eq 0 ]] || die "up.sh must run as root (it starts Postfix and creates the SFTP account)"
missing=()
for tool in dovecot doveadm postfix postconf /usr/sbin/sshd ssh-keygen openssl useradd chpasswd deno; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
[[ -e /usr/lib/dovecot/lmtp ]] || missing+=("dovecot lmtp")
[[ -e /usr/lib/dovecot/imap ]] || missing+=("dovecot imap")
((${#missing[@]} == 0)) || die "missing ${missing[*]}; install them with:" \
  "apt-get install -y \$(cat $SERVICES_SCRIPT_DIR/packages.txt)"

mkdir -p "$INFO_DIR"
# Two test runs starting at once must not both start servers on the same ports.
exec 9>"$INFO_DIR/lock"
flock 9

if [[ -f "$ENV_FILE" ]]; then
  old_state="$(env_field stateDir)"
  if services_alive "$old_state"; then
    all_up=yes
    for port in "${ALL_PORTS[@]}"; do port_answers "$port" || all_up=no; done
    if [[ "$all_up" == yes ]]; then
      summary "already running"
      exit 0
    fi
  fi
  # Half-dead leftovers of an earlier start: clear them and start afresh.
  bash "$SERVICES_SCRIPT_DIR/down.sh" --locked >/dev/null
fi

for port in "${ALL_PORTS[@]}"; do
  if port_answers "$port"; then
    owner="$(port_owner "$port")"
    die "port $SVC_HOST:$port is already taken${owner:+ by $owner}; stop that program or move" \
      "the test services with SERVICES_{IMAP,IMAPS,LMTP,SMTP,SUBMISSION,SFTP,MSAL}_PORT" \
      "(another checkout's services stop with its own tests/services/down.sh)"
  fi
done

STATE="$(mktemp -d "$STATE_PARENT/${STATE_PREFIX}XXXXXX")"
# Dovecot's mail processes and Postfix's daemons run unprivileged and must traverse it.
chmod 755 "$STATE"
echo "$REPO_ROOT" >"$STATE/owner"

started=no
on_exit() {
  local rc=$?
  if [[ "$started" != yes ]]; then
    for log in "$STATE/dovecot/dovecot.log" "$STATE/postfix/maillog" "$STATE/ssh/sshd.log" \
      "$STATE/msal/msal.log"; do
      [[ -s "$log" ]] && { echo "--- $log" >&2; tail -n 20 "$log" >&2; }
    done
    sshd_stop "$STATE" &
    postfix_stop "$STATE" &
    dovecot_stop "$STATE" &
    msal_stop "$STATE" &
    wait
    rm -rf "$STATE"
  fi
  exit "$rc"
}
trap on_exit EXIT

tester_password="$(openssl rand -hex 12)"
outbound_password="$(openssl rand -hex 12)"
sftp_password="$(openssl rand -hex 12)"

make_tls "$STATE"
# Dovecot asks the stand-in about tokens, so it starts first.
msal_start "$STATE" 9>&-
dovecot_configure "$STATE"
add_mail_user "$STATE" "tester@$MAIL_DOMAIN" "$tester_password"
add_mail_user "$STATE" "outbound@$MAIL_DOMAIN" "$outbound_password"
# The daemons must not inherit the lock (fd 9), or they would hold it for their whole life.
dovecot_start "$STATE" 9>&-
postfix_configure "$STATE"
postfix_start "$STATE" 9>&-
sftp_account "$sftp_password"
sshd_configure "$STATE"
sshd_start "$STATE" 9>&-

for port in "${ALL_PORTS[@]}"; do
  for ((i = 0; i < 150; i++)); do
    port_answers "$port" && continue 2
    sleep 0.1
  done
  die "nothing answers on $SVC_HOST:$port after 15 s"
done

cat >"$ENV_FILE.new" <<JSON
{
  "stateDir": "$STATE",
  "host": "$SVC_HOST",
  "domain": "$MAIL_DOMAIN",
  "ports": {
    "imap": $IMAP_PORT,
    "imaps": $IMAPS_PORT,
    "lmtp": $LMTP_PORT,
    "smtp": $SMTP_PORT,
    "submission": $SUBMISSION_PORT,
    "sftp": $SFTP_PORT,
    "msal": $MSAL_PORT
  },
  "msal": {
    "authorityHost": "https://$SVC_HOST:$MSAL_PORT",
    "grantsDir": "$STATE/dovecot/grants"
  },
  "caPath": "$STATE/tls/ca.crt",
  "maildirRoot": "$STATE/mail/$MAIL_DOMAIN",
  "passwdDir": "$STATE/dovecot/users",
  "dovecotConfig": "$STATE/dovecot/dovecot.conf",
  "postfixConfigDir": "$STATE/postfix/etc",
  "logs": {
    "dovecot": "$STATE/dovecot/dovecot.log",
    "postfix": "$STATE/postfix/maillog",
    "sshd": "$STATE/ssh/sshd.log",
    "msal": "$STATE/msal/msal.log"
  },
  "mailUsers": [
    { "address": "tester@$MAIL_DOMAIN", "password": "$tester_password" },
    { "address": "outbound@$MAIL_DOMAIN", "password": "$outbound_password" }
  ],
  "outboundMailbox": "outbound@$MAIL_DOMAIN",
  "sftp": {
    "user": "$SFTP_OS_USER",
    "password": "$sftp_password",
    "root": "$STATE/sftp",
    "uploadDir": "$STATE/sftp/upload",
    "remoteUploadDir": "/upload"
  }
}
JSON
mv "$ENV_FILE.new" "$ENV_FILE"
started=yes
summary "up"
