/** `cichat serve` (`npm start`): backend and controller in one command on the embedded defaults. */
import fs from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { intArg, type CommandDeps } from '../command.js';
import type { DemoChat } from '../demo.js';
import { EXIT_INTERRUPTED, UserError } from '../errors.js';
import { printJson } from '../output.js';
import { stdioPolicy, type Ctx } from '../io.js';
import type { Service } from '../services.js';

export function serveCommand(deps: CommandDeps): Command {
  return new Command('serve')
    .description('start the backend and the controller together with the embedded defaults (what `npm start` runs)')
    .addOption(new Option('--port <port>', 'controller port (default: $CONTROLLER_PORT or 8080)').argParser(intArg('--port')))
    .addOption(new Option('--backend-port <port>', 'backend port (default: $BACKEND_PORT or 8000)').argParser(intArg('--backend-port')))
    .option('--no-demo', 'do not create the demo chat on first start')
    .option('--verbose', 'copy the logs of backend and controller to stderr')
    .action(async (opts: ServeOptions, cmd: Command) => {
      await serve(await deps.ctxOf(cmd), opts);
    });
}

export interface ServeOptions {
  port?: number;
  backendPort?: number;
  demo: boolean;
  verbose?: boolean;
}

/** A host to connect to: a wildcard listen address is reached through loopback. */
function reachable(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export async function serve(ctx: Ctx, opts: ServeOptions): Promise<void> {
  const [{ CichatClient }, { ensureDemoChat }, { describeBusyPort, portProblem }, { PACKAGE_ROOT, serviceEntry, startService, waitHealthy }] = await Promise.all([
    import('../client.js'),
    import('../demo.js'),
    import('../ports.js'),
    import('../services.js'),
  ]);
  const env: NodeJS.ProcessEnv = { ...ctx.io.env };
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
  // The openai engine's workspace tools call the controller back.
  env.CONTROLLER_URL ||= controllerUrl;

  // Both ports first: a port held by another program (an older `cichat serve`, say) would
  // otherwise answer the health checks, and "cichat is running" would be printed over it.
  const busy: string[] = [];
  const ports: [string, string, string, string][] = [
    ['controller', 'CONTROLLER_PORT', controllerHost, controllerPort],
    ['backend', 'BACKEND_PORT', backendHost, backendPort],
  ];
  for (const [what, variable, host, port] of ports) {
    const code = await portProblem(host, Number(port));
    if (code) busy.push(describeBusyPort(what, variable, host, Number(port), code));
  }
  if (busy.length > 0) {
    throw new UserError(busy.join('; '), 'stop it, or choose other ports: cichat serve --port N --backend-port M (npm start -- --port N --backend-port M)');
  }

  stdioPolicy.exitOnEpipe = false;
  const echo = opts.verbose ? (name: string) => (line: string) => ctx.io.stderr.write(`[${name}] ${line}\n`) : () => undefined;
  ctx.io.stderr.write('Starting backend and controller...\n');
  const backend = startService('backend', serviceEntry('backend'), env, { echo: echo('backend') });
  const controller = startService('controller', serviceEntry('controller'), env, { echo: echo('controller') });
  const services = [backend, controller];

  let stopping = false;
  let firstSignalAt = 0;
  const stopAll = async (): Promise<void> => {
    stopping = true;
    await Promise.all(services.map((s) => s.stop()));
  };

  // The handlers stay installed until the end (`on`, not `once`): a second SIGINT arrives
  // often (a terminal's Ctrl-C reaches the whole process group, and a wrapper such as the tsx
  // CLI or npm relays it again) and, without a handler, it killed this process in the middle
  // of the stop, leaving the children without their parent (issue 27). A second signal while
  // stopping cuts the children's grace short (SIGKILL) instead.
  let signalled = 0;
  const interrupted = new Promise<number>((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      signalled += 1;
      if (stopping) {
        if (signalled > 1 && signal === 'SIGINT' && Date.now() - firstSignalAt > 1000) {
          ctx.io.stderr.write('Ctrl-C again: killing backend and controller.\n');
          for (const s of services) s.child.kill('SIGKILL');
        }
        return;
      }
      firstSignalAt = Date.now();
      ctx.io.stderr.write(`\n${signal === 'SIGINT' ? 'Ctrl-C' : signal}: stopping backend and controller...\n`);
      void stopAll().then(() => {
        ctx.io.stderr.write('Stopped.\n');
        resolve(signal === 'SIGINT' ? EXIT_INTERRUPTED : 0);
      });
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('SIGHUP', onSignal);
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
    return deathError(ctx, service, `${exit.code ?? exit.signal}`);
  });

  const ready = (async () => {
    await Promise.all([
      waitHealthy(`${backendUrl}/healthz`, backend),
      waitHealthy(`${controllerUrl}/chatbot-api/healthz`, controller),
    ]);
  })();

  // Start-up: healthy, or one of them died (its error wins), or Ctrl-C. A Ctrl-C reaches the
  // whole process group, so a child still starting may die of it before it was healthy: once a
  // signal came, that failed health wait is the stop's own doing, and the stop's exit code (130
  // for Ctrl-C) is the answer, not "backend exited (130) before it was healthy" and exit 1.
  const startup = await Promise.race([
    ready.then(
      () => 'ready' as const,
      (err: unknown) => (signalled > 0 ? interrupted.then((code) => ({ code })) : err),
    ),
    died,
    interrupted.then((code) => ({ code })),
  ]);
  if (startup !== 'ready') {
    if (typeof startup === 'object' && startup !== null && 'code' in startup) {
      ctx.exit((startup as { code: number }).code);
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
      ctx.io.stderr.write(`cichat: could not create the demo chat: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }

  const url = controllerUrl === 'http://127.0.0.1:8080' ? '' : ` --url ${controllerUrl}`;
  if (ctx.options.json) {
    printJson(ctx.io.stdout, { controller: `${controllerUrl}/chatbot-api`, web: `${controllerUrl}/`, backend: backendUrl, data_dir: dataDir, demo_chat: demo ?? null });
  } else {
    const lines = [
      'cichat is running:',
      `  web page    ${controllerUrl}/${demo ? `chats/${demo.chat_id}` : ''}   (open it in a browser)`,
      `  controller  ${controllerUrl}/chatbot-api   (the CLI and browsers talk to this one)`,
      `  backend     ${backendUrl}`,
      `  data        ${dataDir}`,
    ];
    if (demo) lines.push(`  demo chat   ${demo.chat_id}  "${demo.title}"`);
    lines.push(
      '',
      'Next, in another terminal:',
      ...nextSteps(onPath('cichat', ctx.io.env.PATH), url, demo?.chat_id),
      '',
      'Ctrl-C stops both.',
      '',
    );
    ctx.io.stdout.write(lines.join('\n'));
  }

  const end = await Promise.race([interrupted, died]);
  if (end instanceof UserError) throw end;
  ctx.exit(end);
}

/** Whether an executable `name` is on `PATH` (then the banner shows `cichat`, else `npx cichat`). */
export function onPath(name: string, pathVar = ''): boolean {
  return pathVar.split(path.delimiter).some((dir) => {
    if (!dir) return false;
    try {
      fs.accessSync(path.join(dir, name), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The commands the banner suggests: the README's, with `npx` when cichat is not installed. */
export function nextSteps(installed: boolean, url: string, demoChat: number | undefined): string[] {
  const cichat = installed ? 'cichat' : 'npx cichat';
  const out = [
    `  ${cichat}${url} chat${demoChat !== undefined ? ` ${demoChat}` : ''}`,
    // Without a demo chat (no failed build in JENKINS_HOME, --no-demo) `ask` alone has nothing to
    // answer from and exits 1 (ux3, session 42): the banner shows it with a log instead.
    demoChat !== undefined ? `  ${cichat}${url} ask --chat ${demoChat} "why did the build fail?"` : `  cat build.log | ${cichat}${url} ask "why did the build fail?"`,
  ];
  if (!installed) out.push('  (install `cichat` once with `npm link` in this checkout: a call then skips npx\'s start-up)');
  return out;
}

function deathError(ctx: Ctx, service: Service, how: string): UserError {
  const tail = service.lastLines().slice(-15);
  // A configuration problem (`DATABASE_URL: the database "x" does not exist ...; create it
  // with ...`) is the service's own one-line explanation with its fix: it is the error.
  const problems = tail.filter((l) => /^[A-Z][A-Z0-9_]+: /.test(l));
  if (problems.length > 0 && problems.length === tail.filter((l) => l.trim() && !l.startsWith('{')).length) {
    return new UserError(`${service.name}: ${problems.join('; ')}`);
  }
  if (tail.length) ctx.io.stderr.write(`--- last lines of the ${service.name} ---\n${tail.join('\n')}\n---\n`);
  return new UserError(`The ${service.name} stopped (exit ${how}); the other one was stopped too.`, 'see its last lines above; `cichat serve --verbose` shows all of them');
}
