/** `cichat serve` (`npm start`): backend and controller in one command on the embedded defaults. */
import fs from 'node:fs';
import path from 'node:path';
import { CichatClient } from '../client.js';
import { ensureDemoChat, type DemoChat } from '../demo.js';
import { EXIT_INTERRUPTED, UserError } from '../errors.js';
import { printJson } from '../output.js';
import { PACKAGE_ROOT, serviceEntry, startService, waitHealthy, type Service } from '../services.js';

export interface ServeOptions {
  port?: number;
  backendPort?: number;
  demo: boolean;
  verbose?: boolean;
  json: boolean;
}

/** A host to connect to: a wildcard listen address is reached through loopback. */
function reachable(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export async function serve(opts: ServeOptions): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (opts.port !== undefined) env.CONTROLLER_PORT = String(opts.port);
  if (opts.backendPort !== undefined) env.BACKEND_PORT = String(opts.backendPort);
  // Both children must agree on DATA_DIR (the generated JWT secret lives there).
  const dataDir = path.resolve(env.DATA_DIR || 'data');
  env.DATA_DIR = dataDir;
  const seeds = path.join(PACKAGE_ROOT, 'seeds', 'jenkins-home');
  if (!env.JENKINS_HOME && fs.existsSync(seeds)) {
    env.JENKINS_HOME = seeds;
    // The sample home was recorded by a Jenkins in a container: its paths start there.
    env.JENKINS_PATH_MAP ||= `/var/jenkins_home=${seeds}`;
  }
  // The failed-build watcher is on by default here (off for a bare `npm run controller`).
  env.CICHAT_WATCH ||= 'on';
  const backendHost = env.BACKEND_HOST || '127.0.0.1';
  const backendPort = env.BACKEND_PORT || '8000';
  const controllerHost = env.CONTROLLER_HOST || '127.0.0.1';
  const controllerPort = env.CONTROLLER_PORT || '8080';
  const backendUrl = `http://${reachable(backendHost)}:${backendPort}`;
  env.BACKEND_URL ||= backendUrl;
  const controllerUrl = `http://${reachable(controllerHost)}:${controllerPort}`;

  const echo = opts.verbose ? (name: string) => (line: string) => process.stderr.write(`[${name}] ${line}\n`) : () => undefined;
  process.stderr.write('Starting backend and controller...\n');
  const backend = startService('backend', serviceEntry('backend'), env, { echo: echo('backend') });
  const controller = startService('controller', serviceEntry('controller'), env, { echo: echo('controller') });
  const services = [backend, controller];

  let stopping = false;
  const stopAll = async (): Promise<void> => {
    stopping = true;
    await Promise.all(services.map((s) => s.stop()));
  };

  const interrupted = new Promise<number>((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      if (stopping) return;
      process.stderr.write(`\n${signal === 'SIGINT' ? 'Ctrl-C' : signal}: stopping backend and controller...\n`);
      void stopAll().then(() => {
        process.stderr.write('Stopped.\n');
        resolve(signal === 'SIGINT' ? EXIT_INTERRUPTED : 0);
      });
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });

  const died = Promise.race(
    services.map((s) =>
      s.exited.then((e) => ({ service: s, exit: e })),
    ),
  ).then(async ({ service, exit }): Promise<UserError> => {
    // Stopping on purpose: the signal handler reports the end, this never settles.
    if (stopping) return new Promise<never>(() => undefined);
    const others = services.filter((s) => s !== service);
    stopping = true;
    await Promise.all(others.map((s) => s.stop()));
    return deathError(service, `${exit.code ?? exit.signal}`);
  });

  const ready = (async () => {
    await Promise.all([
      waitHealthy(`${backendUrl}/healthz`, backend),
      waitHealthy(`${controllerUrl}/chatbot-api/healthz`, controller),
    ]);
  })();

  // Start-up: healthy, or one of them died (its error wins), or Ctrl-C.
  const startup = await Promise.race([
    ready.then(() => 'ready' as const, (err: unknown) => err),
    died,
    interrupted.then((code) => ({ code })),
  ]);
  if (startup !== 'ready') {
    if (typeof startup === 'object' && startup !== null && 'code' in startup) {
      process.exitCode = (startup as { code: number }).code;
      return;
    }
    // A service that exits during start-up also fails its health wait: report the exit.
    const err = startup instanceof UserError ? startup : await Promise.race([died, new Promise<undefined>((r) => setTimeout(() => r(undefined), 3000))]);
    await stopAll();
    throw err ?? new UserError(startup instanceof Error ? startup.message : String(startup));
  }

  let demo: DemoChat | undefined;
  if (opts.demo && env.JENKINS_HOME) {
    try {
      demo = await ensureDemoChat(new CichatClient({ baseUrl: controllerUrl }), dataDir, env.JENKINS_HOME);
    } catch (err) {
      process.stderr.write(`cichat: could not create the demo chat: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }

  const url = controllerUrl === 'http://127.0.0.1:8080' ? '' : ` --url ${controllerUrl}`;
  if (opts.json) {
    printJson({ controller: `${controllerUrl}/chatbot-api`, backend: backendUrl, data_dir: dataDir, demo_chat: demo ?? null });
  } else {
    const lines = [
      'cichat is running:',
      `  controller  ${controllerUrl}/chatbot-api   (the CLI and browsers talk to this one)`,
      `  backend     ${backendUrl}`,
      `  data        ${dataDir}`,
    ];
    if (demo) lines.push(`  demo chat   ${demo.chat_id}  "${demo.title}"`);
    lines.push(
      '',
      'Next, in another terminal:',
      `  npx cichat${url} chat${demo ? ` ${demo.chat_id}` : ''}`,
      `  npm run cichat --${url} ask${demo ? ` --chat ${demo.chat_id}` : ''} "why did the last build fail?"`,
      '',
      'Ctrl-C stops both.',
      '',
    );
    process.stdout.write(lines.join('\n'));
  }

  const end = await Promise.race([interrupted, died]);
  if (end instanceof UserError) throw end;
  process.exitCode = end;
}

function deathError(service: Service, how: string): UserError {
  const tail = service.lastLines().slice(-15);
  if (tail.length) process.stderr.write(`--- last lines of the ${service.name} ---\n${tail.join('\n')}\n---\n`);
  return new UserError(`The ${service.name} stopped (exit ${how}); the other one was stopped too.`, 'see its last lines above; `cichat serve --verbose` shows all of them');
}
