import 'reflect-metadata';
import { X509Certificate, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { LRUCache } from 'lru-cache';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export interface CertificateInfo {
  /** SHA-256 of the DER, lowercase hex without separators. */
  fingerprint: string;
  subject: string;
  notBefore: Date;
  notAfter: Date;
  pem: string;
}

/**
 * Parsed certificates by their exact PEM text. Every token request and every certificate-bound call
 * parses the certificate it presents, and parsing (Node's X.509 parser) costs more than the rest of
 * a token request's CPU; clients present the same certificate again and again. What is cached is
 * only what the PEM itself says (fingerprint, subject, validity window): a pure function of the
 * text. Revocation is read from the registry on every request and the validity window is judged
 * against the clock on every request, so a cached parse never lets a revoked or expired certificate
 * through. Bounded by count and by total PEM length (a header is attacker-chosen text); texts that
 * are not certificates are not cached (garbage cannot evict the good entries).
 */
const parsed = new LRUCache<string, CertificateInfo>({
  max: 4096,
  maxSize: 16 * 1024 * 1024,
  sizeCalculation: (info, pem) => pem.length + info.pem.length + 256,
});

/** Parses a PEM certificate with Node's X.509 parser (or the parse of the same text cached); undefined when it is not one. */
export function parseCertificate(pem: string): CertificateInfo | undefined {
  const known = parsed.get(pem);
  if (known) return known;
  if (!/-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/.test(pem)) return undefined;
  try {
    const cert = new X509Certificate(pem);
    const info: CertificateInfo = Object.freeze({
      fingerprint: cert.fingerprint256.replaceAll(':', '').toLowerCase(),
      subject: cert.subject.split('\n').join(', '),
      notBefore: new Date(cert.validFrom),
      notAfter: new Date(cert.validTo),
      pem: cert.toString(),
    });
    parsed.set(pem, info);
    return info;
  } catch {
    return undefined;
  }
}

const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A new P-256 key and a self-signed client certificate for it. */
export async function makeClientCertificate(input: { commonName: string; notBefore: Date; notAfter: Date }) {
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(16))).toString('hex').replace(/^[89a-f]/, '1'),
    name: `CN=${input.commonName.replace(/[,=+<>#;"\\]/g, ' ')}, O=pix-account-service`,
    notBefore: input.notBefore,
    notAfter: input.notAfter,
    signingAlgorithm: EC,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth], false),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { certificatePem: cert.toString('pem'), privateKeyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') };
}

/** A new P-256 CA key and its self-signed CA certificate (the service's client-certificate CA). */
export async function makeClientCa(input: { notBefore: Date; notAfter: Date }) {
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(16))).toString('hex').replace(/^[89a-f]/, '1'),
    name: 'CN=pix-account-service client CA, O=pix-account-service',
    notBefore: input.notBefore,
    notAfter: input.notAfter,
    signingAlgorithm: EC,
    keys,
    extensions: [new x509.BasicConstraintsExtension(true, 0, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true)],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { certificatePem: cert.toString('pem'), privateKeyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') };
}

/**
 * Signs a PKCS#10 request with the CA: a client certificate for the request's key and subject.
 * Undefined when the text is not a CSR or its signature (proof of the key) does not verify.
 */
export async function signCertificateRequest(input: { csrPem: string; caCertificatePem: string; caPrivateKeyPem: string; notBefore: Date; notAfter: Date }) {
  let csr: x509.Pkcs10CertificateRequest;
  try {
    csr = new x509.Pkcs10CertificateRequest(input.csrPem.trim());
    if (!(await csr.verify())) return undefined;
  } catch {
    return undefined;
  }
  const ca = new x509.X509Certificate(input.caCertificatePem);
  const caKey = await webcrypto.subtle.importKey('pkcs8', x509.PemConverter.decodeFirst(input.caPrivateKeyPem), EC, false, ['sign']);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(16))).toString('hex').replace(/^[89a-f]/, '1'),
    subject: csr.subject,
    issuer: ca.subject,
    notBefore: input.notBefore,
    notAfter: input.notAfter,
    signingAlgorithm: EC,
    publicKey: await csr.publicKey.export(),
    signingKey: caKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth], false),
    ],
  });
  return cert.toString('pem');
}
