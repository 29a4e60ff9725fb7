/**
 * A secret or a client credential refused, in OpenSSL's own reason strings (session 55, helper t30: rounds 19, 28 and
 * 29; docs/notes/analyzer.md "Session 55 (helper t30)"). OpenSSL words its errors the same under every client that links
 * it (the `openssl` command, Node, Python's ssl, curl, Ruby): `error:<code>:<library>:<function>:<reason>`, and a
 * runtime copies the reason into its exception (`Error: error:1C800064:Provider routines::bad decrypt`, Node's
 * `ERR_OSSL_BAD_DECRYPT`; Python's `[SSL: TLSV13_ALERT_CERTIFICATE_REQUIRED]`). Tried with RULES (rules.ts), before the
 * general rules, so the runtime's exception that carries the reason does not decide the class.
 */
import type { Rule } from '../ruleTypes.js';

export const CREDENTIAL_FIRST_RULES: Rule[] = [
  // A key, a file or a secret decrypted with the wrong passphrase: OpenSSL's cipher finds the padding wrong (`bad
  // decrypt`: `openssl enc -d` with a rotated pass, a TLS client key loaded with an old passphrase). Not a program's
  // own `decrypt` failing on its data: the reason's OpenSSL form (its `error:` code, or its ERR_OSSL_ name) is needed.
  { cls: 'permission-credentials', priority: 38, confidence: 'high', re: /\berror:[0-9A-F]{8}:[\w ]+routines:[\w]*:bad decrypt\b|\bERR_OSSL_(?:EVP_)?BAD_DECRYPT\b/, read: () => ({}) },
  // The server refused the client's certificate in the handshake, by a TLS alert it sent (RFC 8446 6.2): it requires
  // one and none came (`certificate required`, 116), or it does not accept the one that came (`bad certificate`, 42;
  // `unknown ca`, 48; `certificate revoked`, 44; `certificate expired`, 45; `certificate unknown`, 46). OpenSSL prints a
  // received alert as `sslv3 alert x` / `tlsv1 alert x` / `tlsv13 alert x` (Node's `ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED`,
  // Python's `[SSL: SSLV3_ALERT_BAD_CERTIFICATE]`, curl's `OpenSSL SSL_read: ... tlsv13 alert certificate required`).
  // The client's own refusal of the server's certificate is worded otherwise (`certificate verify failed`: tls.ts).
  {
    cls: 'permission-credentials',
    priority: 38,
    confidence: 'high',
    re: /\b(?:sslv3|tlsv1\d?) alert (certificate required|bad certificate|unknown ca|certificate revoked|certificate expired|certificate unknown)\b|\b(?:ERR_SSL_)?(?:SSLV3|TLSV1\d?)_ALERT_(CERTIFICATE_REQUIRED|BAD_CERTIFICATE|UNKNOWN_CA|CERTIFICATE_REVOKED|CERTIFICATE_EXPIRED|CERTIFICATE_UNKNOWN)\b/,
    read: () => ({}),
  },
];
