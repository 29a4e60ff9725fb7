/**
 * Wrong answers of three mechanisms (helper ux15, session 53; docs/notes/ux15.md), each shown on open data: the
 * tuned real-failure cases named below and a failure made on this machine (test/fixtures/ux15).
 * 1. A `-xe` trace whose last command printed nothing: that command is where the script stopped, never an earlier
 *    traced line, and the answers say it printed no error.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analyze } from '../core/log/analyze.js';
import { askWithCheckout } from './helpers/askCheckout.js';
import { sessionFixtures } from './helpers/sessionFixtures.js';

const ux15 = sessionFixtures(fileURLToPath(new URL('./fixtures/ux15/', import.meta.url)));
const realLog = (id: string): string => readFileSync(fileURLToPath(new URL(`./fixtures/realfail/${id}/fail.log`, import.meta.url)), 'utf8');
const WHY = 'Why did the build fail?';
const FIX = 'How do I fix it?';

describe('a -xe trace whose last command printed nothing', () => {
  it.each([
    ['java-manifest-check-silent-exit', 7, 'java -cp build/tools dev.acme.check.ManifestCheck'],
    ['node-bundle-size-budget-silent-exit', 6, 'node scripts/budget.js'],
  ])('%s: the finding is the last traced command, not the first', (id, line, command) => {
    const top = analyze(realLog(id))[0]?.finding;
    expect([top?.message_line, top?.message]).toEqual([line, `+ ${command}`]);
  });

  it('sensor-poll (made here): the why names the last command, never an earlier one as the error', async () => {
    const why = await ux15.ask(WHY, 'sensor-poll');
    ux15.cited(why, 'sensor-poll');
    expect(why).toContain('the step stopped after the last command the shell traced, `timeout 5 ./build/poll` [L22-L22], which printed nothing');
    expect(why).not.toMatch(/error is `\+ (?:mkdir|gcc)/);
    // A freestyle verdict names no status: timeout's 124 is said as a condition, not as what happened.
    expect(why).toContain('names no exit status');
    expect(why).toContain('had it run past 5 s, `timeout` stopped it with status 124, which this log does not show');
  });

  it('sensor-poll: the fix quotes the script line of that command and runs it', async () => {
    const fix = await ux15.ask(FIX, 'sensor-poll');
    ux15.cited(fix, 'sensor-poll');
    expect(fix).toContain('`ci.sh:3` runs the command that failed');
    expect(fix).toContain('Run `timeout 5 ./build/poll` [L22-L22] as the step did');
    expect(fix).not.toContain('Start from');
    expect(fix).not.toContain('`mkdir -p build` (the command the build ran');
  });

  it('an exit line with a status under a silent command: the status, the command, no "the command that printed it"', async () => {
    const log = ['Started by user ci', '##[group]Run bash -xe ci.sh', 'bash -xe ci.sh', 'shell: /usr/bin/bash -e {0}', '##[endgroup]', '+ python3 tools/check_migrations.py', '##[error]Process completed with exit code 3.'].join('\n');
    const fix = await askWithCheckout(FIX, log, {});
    expect(fix).toContain('`python3 tools/check_migrations.py` [L6-L6] printed nothing before the step failed, and the step ended with exit status 3 [L7-L7]');
    expect(fix).not.toContain('and the command that printed it');
  });

  it('a command substitution that printed its error is no silent stop (yq-config-parse-error, round 7)', async () => {
    const answers = await Promise.all([WHY, FIX].map((q) => askWithCheckout(q, realLog('yq-config-parse-error'), {})));
    for (const a of answers) expect(a).not.toMatch(/printed nothing|printed no error/);
  });
});

describe("Node's [cause] and a refused TLS certificate", () => {
  it('status-check (made here): the cause is the message, and its names are said', async () => {
    const top = analyze(ux15.log('status-check'))[0]?.finding;
    expect(top?.message).toMatch(/^\[cause\]: Error \[ERR_TLS_CERT_ALTNAME_INVALID\]: Hostname\/IP does not match/);
    const why = await ux15.ask(WHY, 'status-check');
    ux15.cited(why, 'status-check');
    expect(why).toContain("The server answered, but the client refused its TLS certificate");
    expect(why).toContain('(`localhost`): the certificate holds `DNS:gateway.acme.internal`');
    expect(why).not.toMatch(/could not reach|answers \(`curl/);
    const fix = await ux15.ask(FIX, 'status-check');
    ux15.cited(fix, 'status-check');
    expect(fix).toContain('**How to fix a TLS certificate the client refused**');
    expect(fix).toContain('connect by a name the certificate lists in its subjectAltName');
    expect(fix).not.toMatch(/re-run the build|could not reach/);
  });

  it('fetch failed over a cause no rule reads (node-fetch-other-side-closed, round 16): the cause is the message', () => {
    expect(analyze(realLog('node-fetch-other-side-closed'))[0]?.finding?.message).toBe('[cause]: SocketError: other side closed');
  });

  it.each([
    ['node-fetch-cert-has-expired', 'it is past its end date'],
    ['openssl-sclient-expired-cert', 'it is past its end date'],
    ['node-fetch-self-signed-https', 'it is self-signed'],
    ['python-ssl-self-signed', 'it is self-signed'],
    ['python-ssl-certificate-ip-address-mismatch', "it does not name the host the client asked for (`127.0.0.1`)"],
    ['go-run-tls-unknown-authority', 'the client could not verify it against a CA it trusts'],
  ])('%s: the certificate was refused, the host answered', async (id, reason) => {
    const [why, fix] = await Promise.all([WHY, FIX].map((q) => askWithCheckout(q, realLog(id), {})));
    expect(why).toContain(`refused its TLS certificate`);
    expect(why).toContain(reason);
    for (const a of [why, fix]) expect(a).not.toMatch(/could not reach|If it answers now|re-run the build/);
    expect(fix).toContain('turning verification off');
  });
});

describe('"was it the infrastructure or the code?" on a refused TLS certificate (session 54)', () => {
  it.each([
    ['node-fetch-cert-has-expired', 'it is past its end date'],
    ['python-ssl-self-signed', 'it is self-signed'],
    ['go-run-tls-unknown-authority', 'the client could not verify it against a CA it trusts'],
  ])('%s: the host answered; the certificate, the trusted CAs or the host asked for, not "could not reach"', async (id, reason) => {
    const answer = await askWithCheckout('was it the infrastructure or the code?', realLog(id), {});
    expect(answer).toContain("**I can't tell which from the log alone.**");
    expect(answer).toContain(`The host answered, but the client refused its TLS certificate: ${reason}`);
    expect(answer).not.toMatch(/could not reach|The infrastructure, as far as the log shows/);
  });

  it('a host that did not answer is still the infrastructure (node-fetch-other-side-closed is no refusal)', async () => {
    const answer = await askWithCheckout('was it the infrastructure or the code?', realLog('node-fetch-other-side-closed'), {});
    expect(answer).not.toContain('refused its TLS certificate');
  });
});
