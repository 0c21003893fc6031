#!/usr/bin/env sh
# A self-signed server certificate for trying deploy/compose.yaml on localhost (use your CA's in
# production). Writes deploy/certs/server-cert.pem and server-key.pem.
set -eu
cd "$(dirname "$0")"
mkdir -p certs
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 365 \
  -subj "/CN=localhost" -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
  -keyout certs/server-key.pem -out certs/server-cert.pem
chmod 644 certs/server-key.pem  # read by nginx's worker user inside its container
echo "wrote deploy/certs/server-cert.pem and server-key.pem"
