#!/usr/bin/env bash
# Stops the test servers started by up.sh for this checkout and removes their state directory.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=dovecot.sh
source "$SERVICES_SCRIPT_DIR/dovecot.sh"
# shellcheck source=postfix.sh
source "$SERVICES_SCRIPT_DIR/postfix.sh"
# shellcheck source=sshd.sh
source "$SERVICES_SCRIPT_DIR/sshd.sh"
# shellcheck source=msal.sh
source "$SERVICES_SCRIPT_DIR/msal.sh"

# up.sh calls us with --locked while it already holds the lock.
if [[ "${1:-}" != --locked && -d "$INFO_DIR" ]]; then
  exec 9>"$INFO_DIR/lock"
  flock 9
fi
if [[ ! -f "$ENV_FILE" ]]; then
  echo "test services: not running (no $ENV_FILE)"
  exit 0
fi
[[ "$(id -u)" -eq 0 ]] || die "down.sh must run as root, like up.sh"
STATE="$(env_field stateDir)"
# Only ever delete a directory up.sh made, whatever env.json says.
case "$STATE" in
  "$STATE_PARENT/$STATE_PREFIX"??????) ;;
  *) die "env.json names an unexpected state dir '$STATE'; remove $ENV_FILE by hand" ;;
esac
if [[ -d "$STATE" ]]; then
  # Each takes a second or more to wind down; in parallel they cost the slowest one.
  sshd_stop "$STATE" &
  postfix_stop "$STATE" &
  dovecot_stop "$STATE" &
  msal_stop "$STATE" &
  wait
  rm -rf "$STATE"
fi
rm -f "$ENV_FILE"
echo "test services: down"
