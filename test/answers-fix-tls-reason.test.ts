/**
 * "How do I fix it?" for a TLS verification failure names the verification's own reason (session 52, helper t27;
 * docs/notes/analyzer.md "Session 52 (helper t27)"): a certificate that does not name the host connected to, or one past
 * its end date, is neither self-signed nor untrusted, and the fix says so; a failure that gives no reason keeps the
 * general sentence (a CA the agent does not trust). Made-up logs in Python's and curl's own words; every citation checked.
 */
import { fixOfShellLog } from './helpers/shellLogFix.js';

const python = (reason: string) => [
  '+ python3 tools/latest.py',
  'Traceback (most recent call last):',
  '  File "/ws/tools/latest.py", line 13, in <module>',
  '    with urllib.request.urlopen(url) as r:',
  `ssl.SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: ${reason} (_ssl.c:1006)`,
];

describe('the TLS fix by the verification\'s reason', () => {
  it('a name the certificate does not hold: its subjectAltName, not a CA', async () => {
    const fix = await fixOfShellLog(python("IP address mismatch, certificate is not valid for '10.0.4.7'."), 'fetch');
    expect([/subjectAltName/.test(fix), /`10\.0\.4\.7`/.test(fix), /self-signed/i.test(fix)]).toEqual([true, true, false]);
  });

  it('a certificate past its end date: renew it', async () => {
    const fix = await fixOfShellLog(python('certificate has expired.'), 'fetch');
    expect([/past its end date/.test(fix), /self-signed/i.test(fix)]).toEqual([true, false]);
  });

  it('no reason beyond an unknown issuer keeps the CA sentence', async () => {
    const fix = await fixOfShellLog(python('unable to get local issuer certificate.'), 'fetch');
    expect([/self-signed or signed by a CA/.test(fix), /subjectAltName/.test(fix)]).toEqual([true, false]);
  });
});
