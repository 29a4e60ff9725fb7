import { createLineMasker, MASK, maskSecrets } from './secrets.js';

/** [line with a secret, the secret itself (must vanish), a part that must stay] */
const SECRETS: [string, string, string][] = [
  ['export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE', 'AKIAIOSFODNN7EXAMPLE', 'export AWS_ACCESS_KEY_ID='],
  ['aws_access_key_id = ASIAY34FZKBOKMUTVV7A', 'ASIAY34FZKBOKMUTVV7A', 'aws_access_key_id = '],
  ['aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'aws_secret_access_key = '],
  ['AWS_SECRET_ACCESS_KEY: "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"', 'je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY', 'AWS_SECRET_ACCESS_KEY: "'],
  ['+ git push https://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@github.com/acme/app.git', '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', '@github.com/acme/app.git'],
  ['token gho_16C7e42F292c6912E7710c838347Ae178B4a used', 'gho_16C7e42F292c6912E7710c838347Ae178B4a', ' used'],
  ['GH app: ghs_16C7e42F292c6912E7710c838347Ae178B4a', 'ghs_16C7e42F292c6912E7710c838347Ae178B4a', 'GH app: '],
  ['user token ghu_16C7e42F292c6912E7710c838347Ae178B4a', 'ghu_16C7e42F292c6912E7710c838347Ae178B4a', 'user token '],
  ['github_pat_11ABCDEFG0123456789abc_defghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRS', 'github_pat_11ABCDEFG0123456789abc', ''],
  ['CI_JOB: glpat-xKz8Qv2mN4pR7sT9uW1y in header', 'glpat-xKz8Qv2mN4pR7sT9uW1y', ' in header'],
  ['slack bot xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx', 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx', 'slack bot '],
  ['user xoxp-123456789012-123456789012-123456789012-abcdef0123456789abcdef0123456789', 'xoxp-123456789012', 'user '],
  ['POST https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX', 'T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX', 'https://hooks.slack.com/services/'],
  ['NPM publish with npm_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 ok', 'npm_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789', ' ok'],
  ['//registry.npmjs.org/:_authToken=2a7f3c1e-4b5d-4e6f-8a9b-0c1d2e3f4a5b', '2a7f3c1e-4b5d-4e6f-8a9b-0c1d2e3f4a5b', '//registry.npmjs.org/:_authToken='],
  ['_auth = dXNlcjpwYXNz', 'dXNlcjpwYXNz', '_auth = '],
  [
    'jwt=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
    'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
    'jwt=',
  ],
  [
    'Using id token eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJrOHMifQ.c2lnbmF0dXJl in step',
    'eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJrOHMifQ.c2lnbmF0dXJl',
    ' in step',
  ],
  ['Cloning https://deploy:s3cr3tP%40ss@git.example.com/repo.git', 's3cr3tP%40ss', 'https://deploy:'],
  ['DATABASE_URL=mysql://root:hunter2@db:3306/app', 'hunter2', 'mysql://root:'],
  ['connect redis://:Sup3rS3cret@cache:6379/0', 'Sup3rS3cret', '@cache:6379/0'],
  ['password=hunter2', 'hunter2', 'password='],
  ['passwd: "correct horse battery staple"', 'correct horse battery staple', 'passwd: "'],
  ['"password": "p@55w0rd!"', 'p@55w0rd!', '"password": "'],
  ["db.password = 'Tr0ub4dor&3'", 'Tr0ub4dor&3', 'db.password = '],
  ['MYSQL_ROOT_PASSWORD=rootpw123', 'rootpw123', 'MYSQL_ROOT_PASSWORD='],
  ['export SONAR_TOKEN=sqp_1a2b3c4d5e6f7a8b9c0d', 'sqp_1a2b3c4d5e6f7a8b9c0d', 'export SONAR_TOKEN='],
  ['token=abc123def456', 'abc123def456', 'token='],
  ['client_secret: 8Q~xYz.abcDEF_ghiJKL', '8Q~xYz.abcDEF_ghiJKL', 'client_secret: '],
  ['secret=topsecretvalue', 'topsecretvalue', 'secret='],
  ['api_key: 4f3c2b1a0e9d8c7b6a5f', '4f3c2b1a0e9d8c7b6a5f', 'api_key: '],
  ['"apiKey":"sk-live-1234567890abcdef"', 'sk-live-1234567890abcdef', '"apiKey":"'],
  ['apikey=AIzaSyD-1234567890abcdefghijklmnopqrstu', 'AIzaSyD-1234567890abcdefghijklmnopqrstu', 'apikey='],
  ['access_key: MYACCESSKEYVALUE42', 'MYACCESSKEYVALUE42', 'access_key: '],
  ['dbPassword := "s3cret!"', 's3cret!', 'dbPassword := "'],
  ['docker login --password Pa55word registry.example.com', 'Pa55word', 'docker login --password '],
  ['Authorization: Bearer abc.def.ghi-123', 'abc.def.ghi-123', 'Authorization: Bearer '],
  ['curl -H "Authorization: Basic dXNlcjpwYXNzd29yZA==" https://x', 'dXNlcjpwYXNzd29yZA==', 'curl -H "Authorization: Basic '],
  ['> authorization: token 0123456789abcdef0123', '0123456789abcdef0123', '> authorization: token '],
  ['Proxy-Authorization: Basic Zm9vOmJhcg==', 'Zm9vOmJhcg==', 'Proxy-Authorization: Basic '],
  ['<password>plainpass</password>', 'plainpass', '<password>'],
  ['  <apiToken>11e2f0d4c5b6a7</apiToken>', '11e2f0d4c5b6a7', '</apiToken>'],
];

/** Text that looks a bit like a secret and must survive untouched. */
const LOOK_ALIKES: string[] = [
  'HEAD is now at 3f786850e387550fdab836ed7e6dc881de23001b Merge pull request #42',
  'Checking out Revision 9fceb02d0ae598e95dc970b74767f19372d61af8 (refs/remotes/origin/main)',
  'build id 123e4567-e89b-12d3-a456-426614174000 started',
  '"integrity": "sha512-9Rdvf9VVqwoJ1CIRYSSPPJL3b2Q0XUeZzq3TjCXJtG0S5e+8BfHoBzfW/VPjvX7fF7RkM0NVBgvNnC4AW+J2Sg=="',
  'node v20.11.1, npm 10.2.4, openjdk version "17.0.9" 2023-10-17',
  'Pulling alpine:3.19@sha256:c5b1261d6d3e43071626931fc004f70149baeba2c8ec672bd4f27761f8e1ad6b',
  'Digest: sha256:4bcff63911fcb4448bd4fdacec207030997caf25e9bea4045fa6c8c44de311d1',
  'password: ****',
  'password=****',
  '"token": "****"',
  'Authorization: Bearer ****',
  'The tokenizer failed to load; see the secretary of the passwordless auth module',
  'tokenizer: bert-base-uncased',
  'secretary = jane',
  'passwordless=true',
  'password: ${DB_PASSWORD}',
  'GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}',
  'token=$NPM_TOKEN',
  '//npm.pkg.github.com/:_authToken=${NPM_TOKEN}',
  'Downloading https://repo.maven.apache.org/maven2/org/apache/maven/plugins/maven-jar-plugin/3.3.0/maven-jar-plugin-3.3.0.pom',
  'ssh://git@github.com:22/acme/app.git',
  'http://localhost:8080/job/app/lastBuild/console',
  'git@github.com:acme/app.git',
  'mvn -Dtokens.enabled=false test',
  'Found 3 tokens in input',
  'AKIA is a prefix but AKIASHORT is not a key',
  'eyJhbGciOiJIUzI1NiJ9 alone is only a header',
  'ghp_short is not a token',
  'Using credentials id jenkins-deploy-key',
  '[INFO] BUILD SUCCESS',
  '<passwordless>true</passwordless>',
  '<tokenizer>bert</tokenizer>',
  'at com.acme.PasswordEncoder.encode(PasswordEncoder.java:42)',
  'src/auth/token_store.py:17: AssertionError',
  'error TS2345: Argument of type \'string\' is not assignable to parameter of type \'number\'.',
];

describe('maskSecrets', () => {
  test.each(SECRETS)('masks %s', (line, secret, kept) => {
    const masked = maskSecrets(line);
    expect(masked).not.toContain(secret);
    expect(masked).toContain(MASK);
    expect(masked).toContain(kept);
  });

  test.each(LOOK_ALIKES)('leaves %s untouched', (line) => {
    expect(maskSecrets(line)).toBe(line);
  });

  test('masks a secret among surrounding log lines and keeps the line count', () => {
    const log = [
      '[Pipeline] sh',
      '+ echo deploying',
      '+ curl -u admin:hunter2 https://admin:hunter2@nexus.example.com/upload',
      '[INFO] BUILD SUCCESS',
    ].join('\n');
    const masked = maskSecrets(log);
    expect(masked.split('\n')).toHaveLength(4);
    expect(masked).toContain('https://admin:****@nexus.example.com/upload');
    expect(masked.split('\n')[3]).toBe('[INFO] BUILD SUCCESS');
  });

  test('masks the whole body of a PEM private key block, line by line, and keeps its frame', () => {
    const body = ['MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun', 'VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK', 'LxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo', '-----END RSA PRIVATE KEY-----'];
    const text = ['key follows', '-----BEGIN RSA PRIVATE KEY-----', ...body, 'after'].join('\n');
    const masked = maskSecrets(text);
    expect(masked).toBe(['key follows', '-----BEGIN RSA PRIVATE KEY-----', MASK, MASK, MASK, '-----END RSA PRIVATE KEY-----', 'after'].join('\n'));
  });

  test('masks an OpenSSH private key and a PEM block cut short by the end of the log', () => {
    const ssh = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----';
    expect(maskSecrets(ssh)).not.toContain('b3BlbnNzaC1rZXkt');
    const cut = 'x\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw\n[Pipeline] End';
    const masked = maskSecrets(cut);
    expect(masked).not.toContain('MIIEvQIBADAN');
    expect(masked).toContain('[Pipeline] End');
  });

  test('leaves a public key and a certificate alone', () => {
    const cert = '-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa\n-----END CERTIFICATE-----';
    expect(maskSecrets(cert)).toBe(cert);
  });

  test('returns the same string when nothing can match', () => {
    const clean = '[INFO] Compiling 42 source files to /var/jenkins_home/workspace/app/target/classes\n';
    expect(maskSecrets(clean)).toBe(clean);
  });

  test('stays linear on hostile input', () => {
    // Inputs that make naive patterns backtrack: long identifier runs, many prefixes, no terminators.
    const hostile = [
      'a'.repeat(200_000),
      'eyJ'.repeat(50_000),
      'password'.repeat(20_000),
      '://' + 'x'.repeat(100_000) + ':' + 'y'.repeat(100_000),
      '-----BEGIN RSA PRIVATE KEY-----\n'.repeat(5_000),
      'Authorization: ' + 'B'.repeat(100_000),
      'ghp_'.repeat(50_000),
    ];
    for (const text of hostile) {
      // Correctness only (timing belongs in benchmarks): it returns, and masks nothing visible here
      // that would change the length by more than the text itself.
      const masked = maskSecrets(text);
      expect(typeof masked).toBe('string');
      expect(masked.length).toBeLessThanOrEqual(text.length + 4);
    }
  });
});

describe('createLineMasker', () => {
  test('masks PEM body lines one by one, keeping the line count', () => {
    const mask = createLineMasker();
    const lines = ['start', '-----BEGIN EC PRIVATE KEY-----', 'MHcCAQEEIIrYSSNQFaA2Hwf1duRSxKtLYX5CB04fSeQ6tF1aY/PuoAoGCCqGSM49', 'AwEHoUQDQgAEPR3tU2Fta9ktY+6P9G0cWO+0kETA6SFs38GecTyudlHz6xvCdz8q', '-----END EC PRIVATE KEY-----', 'token=abc123', 'end'];
    expect(lines.map(mask)).toEqual(['start', '-----BEGIN EC PRIVATE KEY-----', MASK, MASK, '-----END EC PRIVATE KEY-----', 'token=****', 'end']);
  });

  test('stops masking at a line that is not key material when the END line is missing', () => {
    const mask = createLineMasker();
    const out = ['-----BEGIN PRIVATE KEY-----', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', '[Pipeline] End of Pipeline', 'Finished: FAILURE'].map(mask);
    expect(out).toEqual(['-----BEGIN PRIVATE KEY-----', MASK, '[Pipeline] End of Pipeline', 'Finished: FAILURE']);
  });
});
