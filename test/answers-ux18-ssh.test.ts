/**
 * git's catch-all over ssh's line (helper ux18, session 56; docs/notes/answer.md "Session 56 (helper ux18)"): git
 * prints `fatal: Could not read from remote repository.` for every ssh transport failure, so OpenSSH's line above it
 * decides the class, the message and the step. Made-up logs in OpenSSH 8.x/9.x's words (`kex_exchange_identification:`
 * from sshd closing before its banner; `Connection closed by ADDRESS port N`).
 */
import { askWithCheckout } from './helpers/askCheckout.js';
import { analyzedLog } from './helpers/analyzedLog.js';
import { checkCitations } from './helpers/claimChecks.js';

const logOf = (url: string, ...ssh: string[]): string => `Started by user Dana
[docs] $ /bin/sh -xe /tmp/jenkins1.sh
+ git clone ${url} site
Cloning into 'site'...
${ssh.join('\n')}
fatal: Could not read from remote repository.

Please make sure you have the correct access rights
and the repository exists.
Build step 'Execute shell' marked build as failure
Finished: FAILURE
`;
const MIRROR = 'ssh://git@mirror.example.com:47913/docs/site.git';

const findingOf = (log: string) => analyzedLog(log).excerpts[0]?.finding;

describe("ssh's own line over git's catch-all", () => {
  it.each([
    ['kex_exchange_identification: Connection closed by remote host', 'Connection closed by 203.0.113.7 port 47913'],
    ['kex_exchange_identification: read: Connection reset by peer', 'Connection reset by 203.0.113.7 port 47913'],
    ['ssh_exchange_identification: Connection closed by remote host'],
    ['Connection closed by 203.0.113.7 port 47913'],
    ['Connection timed out during banner exchange'],
    ['ssh: connect to host mirror.example.com port 47913: Connection refused'],
    ['ssh: connect to host mirror.example.com port 47913: No route to host'],
    ['ssh: Could not resolve hostname mirror.example.com: Name or service not known'],
  ])('%s: network, the ssh line is the message', (...ssh) => {
    const f = findingOf(logOf(MIRROR, ...ssh));
    // Before (the first three, the closed and the banner timeout): permission-credentials, git's `fatal:` line.
    expect(f?.class).toBe('network');
    expect(f?.message).toBe(ssh[0]);
  });

  it.each([
    ['git@mirror.example.com: Permission denied (publickey).', 'permission-credentials', 'git@mirror.example.com: Permission denied (publickey).'],
    ['Host key verification failed.', 'permission-credentials', 'Host key verification failed.'],
    ['ERROR: Repository not found.', 'permission-credentials', 'fatal: Could not read from remote repository.'],
  ])('counter-example %s: credentials or access, as before', (ssh, cls, message) => {
    const f = findingOf(logOf(MIRROR, ssh));
    expect(f?.class).toBe(cls);
    expect(f?.message).toBe(message);
  });

  it('kex: the port accepts TCP but no SSH server answers; host and port from the URL', async () => {
    const log = logOf(MIRROR, 'kex_exchange_identification: Connection closed by remote host', 'Connection closed by 203.0.113.7 port 47913');
    const why = await askWithCheckout('Why did the build fail?', log, {});
    expect(checkCitations(why, log.split('\n'))).toEqual([]);
    // Before: "The step was refused: a permission or credentials problem" and "the log names no host".
    expect(why).toContain("ssh reached `mirror.example.com:47913` [L3-L3] and the connection was accepted, but it was closed before any SSH server answered ssh's version exchange [L5-L5]");
    expect(why).toContain("git's `fatal: Could not read from remote repository.` [L7-L7] and its \"access rights\" advice are what git prints for every failure of its ssh connection");
    expect(why).not.toContain('permission or credentials');
    const fix = await askWithCheckout('How do I fix it?', log, {});
    expect(checkCitations(fix, log.split('\n'))).toEqual([]);
    expect(fix).toContain('`mirror.example.com:47913` [L3-L3] accepts TCP connections, but no SSH server answered on it [L5-L5]');
    expect(fix).toContain('`nc mirror.example.com 47913` should print a line starting `SSH-2.0-`');
    expect(fix).toContain('a wrong port in the URL, or a proxy, load balancer or firewall');
    expect(fix).not.toContain('Check the credentials');
  });

  it("closed after the exchange, scp-like URL: the host from the URL, the port from ssh's line", async () => {
    const log = logOf('git@git.example.com:acme/site.git', 'Connection closed by 203.0.113.7 port 2222');
    const fix = await askWithCheckout('How do I fix it?', log, {});
    expect(checkCitations(fix, log.split('\n'))).toEqual([]);
    expect(fix).toContain('The SSH server at `git.example.com` [L3-L3], port `2222` [L5-L5], closed the connection after accepting it [L5-L5]');
    expect(fix).toContain('`ssh -v -p 2222 git@git.example.com`');
  });

  it("kex under an scp-like URL without a port: ssh's default port, said as such", async () => {
    const log = logOf('git@git.example.com:acme/site.git', 'kex_exchange_identification: Connection closed by remote host');
    const fix = await askWithCheckout('How do I fix it?', log, {});
    expect(checkCitations(fix, log.split('\n'))).toEqual([]);
    expect(fix).toContain("`git.example.com` [L3-L3] (port 22, ssh's default: the URL names no port) accepts TCP connections, but no SSH server answered on it [L5-L5]");
  });

  it('a refused connection keeps its own step (not the banner one)', async () => {
    const fix = await askWithCheckout('How do I fix it?', logOf(MIRROR, 'ssh: connect to host mirror.example.com port 47913: Connection refused'), {});
    expect(fix).toContain('Nothing accepted the connection on `mirror.example.com:47913`');
    expect(fix).not.toContain('SSH-2.0-');
  });
});
