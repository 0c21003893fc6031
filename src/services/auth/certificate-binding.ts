/**
 * RFC 8705 section 3: an access token is bound to the client certificate it was issued for
 * (`cnf.x5t#S256`). Whenever a certificate comes with a resource call it must be that one; with
 * `REQUIRE_CERTIFICATE_BOUND_TOKENS` a resource call without a certificate is refused too, so a
 * leaked token alone is worth nothing.
 *
 * Answers why the call is refused, or undefined when the binding holds.
 */
export function certificateBindingRefusal(
  boundFingerprint: string,
  presented: { fingerprint: string | undefined } | undefined,
  certificateRequired: boolean,
): string | undefined {
  if (!presented) {
    return certificateRequired
      ? 'This access token is bound to a client certificate: send that certificate with every call (mutual TLS, or X-SSL-Client-Cert through the TLS proxy).'
      : undefined;
  }
  if (presented.fingerprint === undefined) {
    return 'The client certificate sent with this call cannot be read (X-SSL-Client-Cert must hold one percent-encoded PEM certificate).';
  }
  if (presented.fingerprint !== boundFingerprint) {
    return 'This access token was issued for another client certificate: call with the certificate the token was requested with.';
  }
  return undefined;
}
