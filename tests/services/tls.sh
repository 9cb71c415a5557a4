# Makes a throw-away CA and a server certificate for 127.0.0.1/localhost: sourced by up.sh.
# shellcheck shell=bash

make_tls() {
  local dir="$1/tls"
  mkdir -p "$dir"
  # EC keys keep start-up fast; both Deno (rustls) and OpenSSL accept P-256.
  openssl req -x509 -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
    -keyout "$dir/ca.key" -out "$dir/ca.crt" -days 30 -subj "/CN=source-manager test CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    >/dev/null 2>&1 || die "openssl could not create the test CA"
  openssl req -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
    -keyout "$dir/server.key" -out "$dir/server.csr" -subj "/CN=localhost" \
    >/dev/null 2>&1 || die "openssl could not create the server key"
  printf '%s\n' "subjectAltName=DNS:localhost,IP:127.0.0.1" "basicConstraints=CA:FALSE" \
    "keyUsage=critical,digitalSignature,keyEncipherment" "extendedKeyUsage=serverAuth" \
    >"$dir/server.ext"
  openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" \
    -CAcreateserial -days 30 -extfile "$dir/server.ext" -out "$dir/server.crt" \
    >/dev/null 2>&1 || die "openssl could not sign the server certificate"
  chmod 600 "$dir/ca.key" "$dir/server.key"
  chmod 644 "$dir/ca.crt" "$dir/server.crt"
}
