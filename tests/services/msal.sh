# The stand-in for Microsoft's login service (tests/services/msal_login.ts): sourced by up.sh.
# shellcheck shell=bash

msal_start() {
  local state="$1" dir="$1/msal"
  mkdir -p "$dir"
  command -v deno >/dev/null 2>&1 || die "deno is needed for the Microsoft login stand-in"
  # Detached from up.sh's stdout and session, so the caller's pipe closes when up.sh exits.
  # No project config: the stand-in imports nothing, and must not touch the lock file.
  setsid deno run --quiet --no-prompt --no-config --no-lock --allow-net=127.0.0.1 \
    --allow-read="$state/tls" "$SERVICES_SCRIPT_DIR/msal_login.ts" "$MSAL_PORT" "$state/tls/server.crt" \
    "$state/tls/server.key" </dev/null >"$dir/msal.log" 2>&1 &
  echo $! >"$dir/pid"
}

msal_stop() {
  local state="$1" pid
  pid="$(msal_pid "$state")"
  if pid_alive "$pid"; then
    kill "$pid" 2>/dev/null || true
    wait_gone "$pid"
  fi
}
