#!/usr/bin/env bash
# deploy/compose.yaml for real, as the README's "Deploying" walks through it: build the image, start
# PostgreSQL, the migration, two instances and nginx; create an account through the admin API; get a
# token over mutual TLS through nginx; be refused without a certificate; see both instances answer.
# Run by .ci/run when a container engine is available; needs docker compose (or podman compose),
# curl, openssl and node, and says first which of them is missing.
set -euo pipefail
cd "$(dirname "$0")"

missing=()
for tool in curl openssl node; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
# The engine: Docker with its compose plugin, else Podman's `podman compose` (which runs
# podman-compose or docker-compose against Podman). The docker image format keeps the HEALTHCHECK
# the instances' `depends_on: service_healthy` waits on (Podman's default OCI format drops it).
if docker compose version >/dev/null 2>&1; then
  engine=(docker compose)
elif podman compose version >/dev/null 2>&1; then
  engine=(podman compose)
  export BUILDAH_FORMAT=docker
elif command -v docker >/dev/null 2>&1; then
  missing+=("docker's compose plugin (docker compose; Debian: apt-get install docker-compose-plugin)")
elif command -v podman >/dev/null 2>&1; then
  missing+=("podman compose (it runs podman-compose or docker-compose: apt-get install podman-compose)")
else
  missing+=("a container engine: docker with its compose plugin, or podman with podman-compose")
fi
if [ "${#missing[@]}" -gt 0 ]; then
  echo "compose smoke test cannot run; missing:" >&2
  printf '  - %s\n' "${missing[@]}" >&2
  exit 2
fi
echo "compose smoke test on: ${engine[*]}"

work=$(mktemp -d)
env_file="$work/.env"
printf 'POSTGRES_PASSWORD=%s\nADMIN_TOKEN=%s\nMETRICS_TOKEN=%s\n' "$(openssl rand -hex 24)" "$(openssl rand -base64 32)" "$(openssl rand -base64 32)" >"$env_file"
# Production needs its provider; nothing listens at this one (the smoke test makes no payment), so its
# notices and payouts simply wait, and the instances start.
printf 'PUBLIC_URL=%s\nPROVIDER_URL=%s\nPROVIDER_CLIENT_ID=%s\nPROVIDER_CLIENT_SECRET=%s\nPROVIDER_WEBHOOK_SECRET=whsec_%s\n' \
  https://localhost:8443 https://provider.invalid smoke-client "$(openssl rand -hex 16)" "$(openssl rand -base64 32)" >>"$env_file"
# shellcheck disable=SC1090
. "$env_file"
if [ ! -f certs/server-cert.pem ]; then ./make-dev-certs.sh; fi
if [ ! -f provider/client-cert.pem ]; then
  mkdir -p provider
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=smoke-provider-client \
    -keyout provider/client-key.pem -out provider/client-cert.pem 2>/dev/null
fi

compose() { "${engine[@]}" -p pix-smoke -f compose.yaml --env-file "$env_file" "$@"; }
cleanup() {
  compose down -v --remove-orphans >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "compose smoke test FAILED: $*" >&2
  compose ps -a >&2 || true
  compose logs --tail 40 >&2 || true
  exit 1
}

base=https://localhost:8443
tls=(--cacert certs/server-cert.pem)
json() { node -e 'const v = JSON.parse(process.argv[1]); console.log(process.argv[2].split(".").reduce((o, k) => o[k], v))' "$1" "$2"; }

compose up -d --build
ready=""
for _ in $(seq 1 90); do
  ready=$(curl -s "${tls[@]}" -o /dev/null -w '%{http_code}' "$base/ready" || true)
  [ "$ready" = 200 ] && break
  sleep 2
done
[ "$ready" = 200 ] || fail "GET /ready through nginx answered '$ready'"
[ "$(compose ps -a --format '{{.Service}} {{.State}} {{.ExitCode}}' | grep '^migrate ')" = "migrate exited 0" ] || fail "the migration step did not exit 0"

admin=(-H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json')
account=$(curl -sf "${tls[@]}" "${admin[@]}" -X POST "$base/admin/accounts" -d '{"name":"Loja Exemplo","document":"11222333000181"}') || fail "POST /admin/accounts"
id=$(json "$account" id)
cert=$(curl -sf "${tls[@]}" "${admin[@]}" -X POST "$base/admin/accounts/$id/certificates" -d '{}') || fail "POST certificates"
json "$cert" certificatePem >"$work/client-cert.pem"
json "$cert" privateKeyPem >"$work/client-key.pem"
creds=$(curl -sf "${tls[@]}" "${admin[@]}" -X POST "$base/admin/accounts/$id/credentials" -d '{}') || fail "POST credentials"
body=$(node -e 'const c = JSON.parse(process.argv[1]); console.log(JSON.stringify({ clientId: c.clientId, clientSecret: c.clientSecret }))' "$creds")
mtls=("${tls[@]}" --cert "$work/client-cert.pem" --key "$work/client-key.pem")

token=$(curl -sf "${mtls[@]}" -X POST "$base/api/auth/token" -H 'Content-Type: application/json' -d "$body") || fail "token over mTLS"
access=$(json "$token" access_token)
[ "$(json "$(curl -sf "${mtls[@]}" "$base/api/balance" -H "Authorization: Bearer $access")" netBalance)" = 0 ] || fail "GET /api/balance with the token"
iss=$(node -e 'console.log(JSON.parse(Buffer.from(process.argv[1].split(".")[1], "base64url")).iss)' "$access")
[ "$iss" = "$base" ] || fail "the token's iss is $iss, not $base"

bare=$(curl -s "${tls[@]}" -w ' %{http_code}' -X POST "$base/api/auth/token" -H 'Content-Type: application/json' -d "$body")
case "$bare" in *PUB_CERT_HEADER_MISSING*' 400') ;; *) fail "a token request without a certificate answered: $bare" ;; esac
forged=$(curl -s "${tls[@]}" -w ' %{http_code}' -X POST "$base/api/auth/token" -H 'Content-Type: application/json' -d "$body" \
  -H "X-SSL-Client-Cert: $(node -e 'console.log(encodeURIComponent(require("fs").readFileSync(process.argv[1], "utf8")))' "$work/client-cert.pem")")
case "$forged" in *PUB_CERT_HEADER_MISSING*' 400') ;; *) fail "a forged X-SSL-Client-Cert answered: $forged" ;; esac

for i in $(seq 1 12); do curl -sf "${tls[@]}" -o /dev/null -H "X-Request-Id: smoke-$i" "$base/health" || fail "GET /health"; done
for app in app1 app2; do
  compose logs "$app" | grep -q '"reqId":"smoke-' || fail "$app served none of the 12 requests"
done
echo "compose smoke test passed: migration, two instances behind nginx, a token over mTLS, refusals without a certificate"
