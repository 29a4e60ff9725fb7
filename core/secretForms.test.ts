import { createLineMasker, isSecretName, MASK, maskNamedValues, maskSecrets, maskValueByName } from './secrets.js';

/**
 * The one rule set (issue 24 point 4): realistic lines that must be masked, each as
 * [line, the secret (must vanish), a part that must stay], and look-alikes that must come back
 * unchanged. Together with secrets.test.ts's tables.
 */
const FORMS: [string, string, string][] = [
  // curl -u / --user
  ['+ curl -u admin:hunter2 https://nexus.example.com/service/rest', 'hunter2', 'curl -u admin:'],
  ['curl -fsSL -u "deploy:S3cr3t!x" -T app.jar https://repo.example.com/', 'S3cr3t!x', '-T app.jar'],
  ["curl --user 'ci-bot:pa55-w0rd' https://api.example.com", 'pa55-w0rd', "--user 'ci-bot:"],
  ['curl --user=jenkins:b1g-s3cret https://x', 'b1g-s3cret', '--user=jenkins:'],
  ['curl -uadmin:admin123 -X POST http://artifactory:8081/api', 'admin123', '-X POST'],
  ['  sh "curl -s -u svc_user:Qw3rty9 ${URL}/upload"', 'Qw3rty9', '-u svc_user:'],
  // docker / podman / helm registry login -p, sshpass -p
  ['+ docker login -u ci -p dckr_pat_2bFzXr7 registry.example.com', 'dckr_pat_2bFzXr7', ' registry.example.com'],
  ['docker login registry.gitlab.com -u gitlab-ci-token -p glcbt-64_abcdef', 'glcbt-64_abcdef', '-u gitlab-ci-token -p '],
  ['podman login -u admin -p "hunter2" quay.io', 'hunter2', 'quay.io'],
  ['helm registry login ghcr.io -u bot -p s3cr3tvalue', 's3cr3tvalue', 'helm registry login ghcr.io'],
  ['sshpass -p R00tPassw0rd ssh deploy@10.0.0.5', 'R00tPassw0rd', ' ssh deploy@10.0.0.5'],
  ['nerdctl login -p topsecret123 -u me harbor.local', 'topsecret123', '-u me harbor.local'],
  // mysql -pPASS
  ['+ mysql -uroot -pS3cretRoot -h db -e "show databases"', 'S3cretRoot', '-h db'],
  ['mysqldump -u backup -p"dump-pass-1" appdb > dump.sql', 'dump-pass-1', 'appdb > dump.sql'],
  ["mysqladmin -u root -p'rootpw' status", 'rootpw', 'status'],
  ['mariadb -h 127.0.0.1 -P 3306 -uapp -papp_pw_42 app', 'app_pw_42', '-P 3306'],
  ['mariadb-dump -pOnlyMe1 --all-databases', 'OnlyMe1', '--all-databases'],
  // PGPASSWORD and *_PASS / *_PASSWORD / *_TOKEN assignments
  ['+ PGPASSWORD=pgS3cret psql -h db -U app -c "select 1"', 'pgS3cret', ' psql -h db'],
  ['export PGPASSWORD="correct horse"', 'correct horse', 'export PGPASSWORD="'],
  ['DB_PASS=hunter2 ./migrate.sh', 'hunter2', 'DB_PASS='],
  ['SMTP_PASS=mailpw123', 'mailpw123', 'SMTP_PASS='],
  ['export REDIS_PASS=r3d1s!', 'r3d1s!', 'export REDIS_PASS='],
  ['ADMIN_PASSWORD=Adm1nPw', 'Adm1nPw', 'ADMIN_PASSWORD='],
  ['KEYSTORE_PASSWORD=changeit2', 'changeit2', 'KEYSTORE_PASSWORD='],
  ['SONAR_TOKEN=squ_abcdef0123456789', 'squ_abcdef0123456789', 'SONAR_TOKEN='],
  ['CODECOV_TOKEN=5c7f8a1b-0000-4abc-9def-1234567890ab', '5c7f8a1b-0000-4abc-9def-1234567890ab', 'CODECOV_TOKEN='],
  ['MYSQL_PWD=xyz987 mysql -uroot', 'xyz987', 'MYSQL_PWD='],
  ['DOCKER_CREDS_PSW=d0ck3rpw', 'd0ck3rpw', 'DOCKER_CREDS_PSW='],
  ['SSH_KEY=AAAAC3NzaC1lZDI1NTE5AAAAIabc', 'AAAAC3NzaC1lZDI1NTE5AAAAIabc', 'SSH_KEY='],
  ['DEPLOY_KEY="kX9-2mQ"', 'kX9-2mQ', 'DEPLOY_KEY="'],
  ['REDISCLI_AUTH=r3disAuth', 'r3disAuth', 'REDISCLI_AUTH='],
  ['set FTP_PASSWD=ftp!pw', 'ftp!pw', 'FTP_PASSWD='],
  ['db.pass=dbpw.2024', 'dbpw.2024', 'db.pass='],
  ['--db-pass=Zx81pw', 'Zx81pw', '--db-pass='],
  ['GPG_PASSPHRASE=my long phrase', 'my', 'GPG_PASSPHRASE='],
  // Tokens by their shape
  ['SLACK_APP_TOKEN xapp-1-A0123456789-1234567890123-abcdef0123456789abcdef', 'xapp-1-A0123456789', 'SLACK_APP_TOKEN '],
  ['maps key AIzaSyA-abcdefghijklmnopqrstuvwxyz01234 loaded', 'AIzaSyA-abcdefghijklmnopqrstuvwxyz01234', ' loaded'],
  ['https://maps.googleapis.com/maps/api/geocode/json?key=AIzaSyBbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'AIzaSyBbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'json?key='],
  ['stripe.api_key = "sk_live_51H8abcdEFGHijklMNOPqrst"', 'sk_live_51H8abcdEFGHijklMNOPqrst', 'stripe.api_key = "'],
  ['Using restricted key rk_live_51H8zzzzYYYYxxxxWWWW', 'rk_live_51H8zzzzYYYYxxxxWWWW', 'Using restricted key '],
  ['STRIPE_TEST sk_test_4eC39HqLyjWDarjtT1zdp7dc', 'sk_test_4eC39HqLyjWDarjtT1zdp7dc', 'STRIPE_TEST '],
  ['webhook secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'webhook secret '],
  ['openai: sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abc', 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', 'openai: '],
  ['client = OpenAI(api_key=sk-svcacct-ABCDEFGHIJKLMNOPQRSTUVWX)', 'sk-svcacct-ABCDEFGHIJKLMNOPQRSTUVWX', 'client = OpenAI('],
  ['legacy sk-abcdefghij0123456789T3BlbkFJabcdefghij0123456789 here', 'sk-abcdefghij0123456789T3BlbkFJ', ' here'],
  ['anthropic sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv-wxyz', 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv', 'anthropic '],
  ['vault login hvs.CAESIJk3abcdEFGHijklMNOPqrstUVWX', 'hvs.CAESIJk3abcdEFGHijklMNOPqrstUVWX', 'vault login '],
  ['X-Vault-Token: hvb.AAAAAQKabcdefghijklmnopqrstuvwx', 'hvb.AAAAAQKabcdefghijklmnopqrstuvwx', 'X-Vault-Token: '],
  // Keys in JSON and YAML dumps
  ['{"clientSecret": "cs-8f7e6d5c"}', 'cs-8f7e6d5c', '{"clientSecret": "'],
  ['  privateKey: MIIBOgIBAAJBAKj34', 'MIIBOgIBAAJBAKj34', '  privateKey: '],
  ['?access_token=ya29.a0AfH6SMBx&expires=3600', 'ya29.a0AfH6SMBx', '&expires=3600'],
  ['smtp://mailer:m41lpw@smtp.example.com:587', 'm41lpw', '@smtp.example.com:587'],
];

const LOOK_ALIKES: string[] = [
  // Hashes, ids, digests
  'commit 9fceb02d0ae598e95dc970b74767f19372d61af8',
  'Merge 3f786850e387550fdab836ed7e6dc881de23001b into 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b',
  'request 550e8400-e29b-41d4-a716-446655440000 done',
  'image@sha256:9b2a28eb47540823042a2ba401386845089bb7b62a9637d55816132c4c3c36eb',
  'Digest: sha256:2d2ba0e4a0bbd6d5b8c4e6c14b4c0c2e8f5b0d8a7a1b8e6e2f6b8c4c0e2d6a1b',
  'md5sum: d41d8cd98f00b204e9800998ecf8427e  empty.txt',
  'Successfully built 4c2a5e1f7b3d',
  // -p and -u that are not passwords
  'docker run -p 8080:8080 -p 50000:50000 jenkins/jenkins:lts',
  'ssh -p 2222 git@git.example.com',
  'mkdir -p build/reports/tests',
  '+ mysql -u root -p',
  'mysql -u root -p appdb < schema.sql',
  'mysql -h db -P 3306 -u app appdb',
  'docker run -u 1000:1000 -v $PWD:/src node:20 npm test',
  'sort -u names.txt',
  'git push -u origin feature/login',
  'curl -sSfL https://get.example.com/install.sh | sh',
  'curl -u "$NEXUS_USER:$NEXUS_PASS" https://nexus/upload',
  'curl -u ${USER}:${TOKEN} https://api',
  './gradlew build -Pprofile=ci -Pversion=1.2.3',
  'mvn -pl core -am -Pintegration verify',
  'docker login --password-stdin -u ci registry.example.com',
  'docker login -u ci --password-file /run/secrets/pw registry',
  'psql -h db -U postgres -p 5432 app',
  // Names with key words that are not secrets
  'KEYBOARD_LAYOUT=us',
  'PASSENGER_COUNT=4',
  'GIT_AUTHOR_NAME=Jenkins Bot',
  'AUTHOR=jane',
  'TOKENIZERS_PARALLELISM=false',
  'PWD=/var/lib/jenkins/workspace/app',
  'OLDPWD=/var/lib/jenkins',
  'CACHE_KEY=node-modules-3f786850e387',
  'PUBLIC_KEY=ssh-ed25519 AAAAC3NzaC1lZDI1NTE5',
  'DB_PASSWORD_FILE=/run/secrets/db_password',
  'CREDENTIALS_ID=github-deploy',
  'SSH_KEY_PATH=/home/jenkins/.ssh/id_ed25519',
  'TOKEN_TTL=3600',
  'DOCKER_CREDS_USR=ci-bot',
  'AUTH_TYPE=basic',
  'Tests: PASS: 42, FAIL: 0',
  'PASS src/app.test.ts (5.2 s)',
  'key: value pairs are read from config',
  'monkey=banana',
  'bypass=true',
  'passed=12 failed=0',
  // Lines with secrets' prefixes that are not secrets
  'sk-learn 1.4.2 installed',
  'task-proj-alpha finished',
  'AIza is how Google API keys begin',
  'hvs.short',
  'pk_live_51H8abcdEFGHijklMNOPqrst (publishable)',
  'xapp-config.json not found',
  'base64 of a README: SGVsbG8sIHdvcmxkIQ==',
  'eyJ0eXBlIjoiYnVpbGQifQ== is base64 JSON',
  '-----BEGIN PGP PUBLIC KEY BLOCK-----',
  'if [ "$PASS" == "yes" ]; then',
  // ssh's options: a command a reproduce step repeats must stay runnable
  'ssh -o StrictHostKeyChecking=no -o PasswordAuthentication=no -o HostKeyAlgorithms=+ssh-rsa root@10.0.0.5 true',
];

describe('the masking rule set (issue 24 point 4)', () => {
  test('the tables are as large as promised', () => {
    expect(FORMS.length).toBeGreaterThanOrEqual(50);
    expect(LOOK_ALIKES.length).toBeGreaterThanOrEqual(50);
  });

  test.each(FORMS)('masks %s', (line, secret, kept) => {
    const masked = maskSecrets(line);
    expect(masked).not.toContain(secret);
    expect(masked).toContain(MASK);
    expect(masked).toContain(kept);
    // The line masker of uploads applies the same rules.
    expect(createLineMasker()(line)).toBe(masked);
  });

  test.each(LOOK_ALIKES)('leaves %s untouched', (line) => {
    expect(maskSecrets(line)).toBe(line);
  });

  test('PGP private key blocks are masked line by line, in text and in a streamed log', () => {
    const block = [
      '-----BEGIN PGP PRIVATE KEY BLOCK-----',
      'Version: GnuPG v2',
      '',
      'lQOYBGNfYz8BCADd3K8q0x9Zq1Zl3Z1Zl3Z1Zl3Z1Zl3Z1Zl3Z1Zl3Z1Zl3Z1Zl3',
      'Z1Zl3Z1Zl3Z1Zl3Z1Zl3Z1Zl3Z1Zl3Z1Zl3Z1Zl3Z1Zl3Z1Zl3Z1Zl3Z1Zl3Z1Z',
      '=Xk3Q',
      '-----END PGP PRIVATE KEY BLOCK-----',
    ];
    const text = ['gpg --import', ...block, 'imported'].join('\n');
    const expected = ['gpg --import', block[0], MASK, '', MASK, MASK, MASK, block[6], 'imported'];
    expect(maskSecrets(text).split('\n')).toEqual(expected);
    const mask = createLineMasker();
    expect(['gpg --import', ...block, 'imported'].map(mask)).toEqual(expected);
  });
});

describe('secrets by name (ciEnvironment, parameters, config elements)', () => {
  const SECRET_NAMES = [
    'PASS', 'DB_PASS', 'PASSWORD', 'dbPassword', 'PGPASSWORD', 'MYSQL_PWD', 'DOCKER_PSW', 'GPG_PASSPHRASE',
    'CRED', 'GIT_CREDS', 'AZURE_CREDENTIALS', 'TOKEN', 'NPM_TOKEN', 'githubToken', 'x-auth-token', 'API_KEY', 'apiKey',
    'APIKey', 'SSH_KEY', 'SIGNING_KEYS', 'SECRET', 'CLIENT_SECRET', 'AUTH', 'BASIC_AUTH', 'Authorization', 'OAUTH',
    'PASSWORD2', 'secret.value', 'SONAR_LOGIN_TOKEN',
  ];
  const PLAIN_NAMES = [
    'KEYBOARD_LAYOUT', 'PASSENGER', 'AUTHOR', 'GIT_AUTHOR_EMAIL', 'TOKENIZERS_PARALLELISM', 'MONKEY', 'PWD', 'OLDPWD',
    'CACHE_KEY', 'PUBLIC_KEY', 'SORT_KEY', 'CREDENTIALS_ID', 'credentialsId', 'SSH_KEY_PATH', 'PASSWORD_FILE',
    'TOKEN_TTL', 'DOCKER_USR', 'AUTH_TYPE', 'JOB_NAME', 'BUILD_NUMBER', 'GIT_COMMIT', 'NODE_NAME', 'KEYSTORE',
    'BYPASS_CACHE', 'SECRETARY', 'StrictHostKeyChecking', 'PasswordAuthentication', 'HostKeyAlgorithms', '',
  ];
  test.each(SECRET_NAMES)('%s is a secret name', (name) => expect(isSecretName(name)).toBe(true));
  test.each(PLAIN_NAMES)('%s is not a secret name', (name) => expect(isSecretName(name)).toBe(false));

  test('values under secret names are masked whole; others only where they hold a secret', () => {
    expect(maskValueByName('DB_PASS', 'plain words')).toBe(MASK);
    expect(maskValueByName('PIN', 1234)).toBe(MASK);
    expect(maskValueByName('DB_PASS', '')).toBe('');
    expect(maskValueByName('DB_PASS', '${DB_PASS}')).toBe('${DB_PASS}');
    expect(maskValueByName('USE_TOKEN', true)).toBe(true);
    expect(maskValueByName('KEYBOARD_LAYOUT', 'us')).toBe('us');
    expect(maskValueByName('REPO', 'https://bot:hunter2@git.example.com/x.git')).toBe('https://bot:****@git.example.com/x.git');
  });

  test('maps and {name, value} lists', () => {
    expect(maskNamedValues({ JOB_NAME: 'team/api', NPM_TOKEN: 'abc', PWD: '/ws' })).toEqual({ JOB_NAME: 'team/api', NPM_TOKEN: MASK, PWD: '/ws' });
    expect(maskNamedValues([{ name: 'DEPLOY_KEY', value: 'k' }, { name: 'BRANCH', value: 'main' }, 'odd'])).toEqual([
      { name: 'DEPLOY_KEY', value: MASK },
      { name: 'BRANCH', value: 'main' },
      'odd',
    ]);
    expect(maskNamedValues('not a map')).toBe('not a map');
  });
});
