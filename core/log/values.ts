/**
 * The literal values a failure's message names (issue 25 point 3, helper fx8): the address a
 * connection went to, a path the process was refused, an option a program did not take. The clue
 * search (jenkins/workspace/clues.ts) looks for them, as written, in the workspace's files, so the line that sets
 * the value is found in whatever file holds it (`.gitmodules`, `.lfsconfig`, `sqitch.conf`,
 * `config/flags.yml`, `pytest.ini`), not only in the files a tool is known to read.
 */

/** A source file's name and line (`socket.rb:1214`, `Main.java:12`) is no `host:port` (`addressPorts` with names skips it). */
export const SOURCE_NAME = /\.(?:rb|py|js|mjs|cjs|ts|go|java|kt|scala|groovy|c|cc|cpp|cxx|h|hpp|rs|php|pl|pm|sh|cs|swift|lua|exs?|erl|clj|dart|m)$/i;

/** An address: IPv4, `localhost` or a bracketed IPv6 (`[::1]`). */
const ADDRESS = String.raw`(?:\d{1,3}\.){3}\d{1,3}|localhost|\[[\d:a-f]+\]`;
/** A dotted host name (`db.example.com`, also a source file's name: `names` skips those). */
const HOST_NAME = String.raw`[a-z0-9-]+(?:\.[a-z0-9-]+)+`;
/**
 * An address and its port in a message (`127.0.0.1:5432`, `localhost:8080`, `[::1]:8080`, also inside a URL), never the
 * end of a longer name (`mylocalhost:80`, `x.127.0.0.1:80`): the one pattern the answers and the clue search read an
 * address with. With `names`, a dotted host name too (`registry.example.com:443`, `https://user@host.example:8443`),
 * not a path's file and line (`src/build.xml:24`).
 */
const ADDRESS_PORT = {
  addresses: new RegExp(String.raw`(?<![\w.-])(${ADDRESS}):(\d{2,5})\b`, 'gi'),
  // A name right after one `/` is a path's file (`CMakeFiles/x.dir/build.make:76`); after `//` a URL's host.
  names: new RegExp(String.raw`(?<![\w.-])(${ADDRESS}|(?<!(?:^|[^/])\/)${HOST_NAME}):(\d{2,5})\b`, 'gi'),
};

/**
 * The addresses and ports a message names, in order (`host` as printed); with `names`, dotted host names too, never a
 * source file's name and line (`socket.rb:1214`).
 */
export function addressPorts(message: string, opts: { names?: boolean } = {}): { host: string; port: string; text: string }[] {
  const found = [...message.matchAll(ADDRESS_PORT[opts.names ? 'names' : 'addresses'])].map((m) => ({ host: m[1] as string, port: m[2] as string, text: m[0] }));
  return opts.names ? found.filter((a) => !SOURCE_NAME.test(a.host)) : found;
}

/**
 * The address a network or credentials message names: `host:port` (also inside a URL, an IPv6
 * host in brackets), psql's `server at "host", port N`, or a `port N` alone. `host` is the
 * finding's own host when it has one.
 */
export function addressOf(message: string, host?: string): { host?: string; port?: string } {
  const pairs = addressPorts(message, { names: true });
  const quoted = /server at "([^"]+)", port (\d{2,5})\b/.exec(message);
  // The finding's own host with the port the message pairs it with; else the message's first pair.
  const pair = host === undefined ? pairs[0] : pairs.find((a) => a.host === host);
  const named = host ?? quoted?.[1] ?? pair?.host;
  const port = quoted?.[2] ?? /\bport (\d{2,5})\b/i.exec(message)?.[1] ?? pair?.port;
  return { ...(named ? { host: named } : {}), ...(port ? { port } : {}) };
}

/**
 * A path a message quotes (`open() "/var/log/nginx/x.log" failed (13: Permission denied)`): the
 * first quoted word with a `/` in it. Undefined when none.
 */
export function quotedPathOf(message: string): string | undefined {
  return /["'`‘“]((?:\/|~\/|\.{1,2}\/|[\w.-]+\/)[^"'`’”\s]*[\w.-])["'`’”]/.exec(message)?.[1];
}

/** The option a program refused (`unrecognized arguments: -n`, `unknown option '--dry'`, `flag provided but not defined: -race`). */
export function refusedOptionOf(message: string): string | undefined {
  const m = /unrecognized arguments?: (--?[\w-]+)|unknown (?:option|flag|argument)s?:?\s*['"`]?(--?[\w-]+)|flag provided but not defined: (-[\w-]+)|unexpected argument '(--?[\w-]+)'|no such option:? (--?[\w-]+)|unrecognized option '?(--?[\w-]+)|invalid option -- '?(\w)/.exec(message);
  return m ? m.slice(1).find((x) => x !== undefined) : undefined;
}

/** A gradle build script line that declares a task (`task itest(type: Test)`, `tasks.register('itest')`): its name is group 1 or 2. */
export const GRADLE_TASK_DECLARATION = /^\s*task\s+\(?['"]?([\w-]+)|^\s*tasks\.(?:register|create)\s*(?:<[^>]*>)?\s*\(\s*['"]([\w-]+)['"]/;
