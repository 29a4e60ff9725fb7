/**
 * Is a port free, and if not, who holds it: `cichat serve` checks both of its ports before it
 * starts anything, so that "cichat is running" is never printed over another program's port.
 * The holder is found on Linux from /proc/net/tcp{,6} (the listening socket's inode) and
 * /proc/<pid>/fd (which process has that socket open); elsewhere, or for another user's
 * process, only the port is named.
 */
import fs from 'node:fs';
import net from 'node:net';

/** Resolves to the error code when `host:port` cannot be listened on (EADDRINUSE, EACCES...), else null. */
export function portProblem(host: string, port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

/** Inodes of sockets listening on `port` (any address), from /proc/net/tcp and tcp6. */
export function listeningInodes(port: number, procRoot = '/proc'): Set<string> {
  const inodes = new Set<string>();
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['net/tcp', 'net/tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(`${procRoot}/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      if (f.length < 10 || f[3] !== '0A') continue;
      if (f[1]?.split(':')[1] === hex && f[9] && f[9] !== '0') inodes.add(f[9]);
    }
  }
  return inodes;
}

export interface PortHolder {
  pid: number;
  command: string;
}

/** The process that has a socket listening on `port` open, when this user may see it. */
export function portHolder(port: number, procRoot = '/proc'): PortHolder | undefined {
  const inodes = listeningInodes(port, procRoot);
  if (inodes.size === 0) return undefined;
  let pids: string[];
  try {
    pids = fs.readdirSync(procRoot).filter((d) => /^\d+$/.test(d));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`${procRoot}/${pid}/fd`);
    } catch {
      continue; // gone, or another user's
    }
    for (const fd of fds) {
      let link: string;
      try {
        link = fs.readlinkSync(`${procRoot}/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const m = /^socket:\[(\d+)\]$/.exec(link);
      if (m && inodes.has(m[1] ?? '')) {
        let command = '';
        try {
          command = fs.readFileSync(`${procRoot}/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ').replace(/\s+/g, ' ');
        } catch {
          // it exited meanwhile
        }
        return { pid: Number(pid), command: command.length > 120 ? `${command.slice(0, 117)}...` : command };
      }
    }
  }
  return undefined;
}

/** One sentence about a port that cannot be used, naming the holder when it can. */
export function describeBusyPort(what: string, variable: string, host: string, port: number, code: string): string {
  if (code === 'EADDRINUSE') {
    const holder = portHolder(port);
    const by = holder ? ` by pid ${holder.pid}${holder.command ? ` (${holder.command})` : ''}` : ' by another program';
    return `${what} port ${port} (${variable}) on ${host} is in use${by}`;
  }
  if (code === 'EACCES') return `${what} port ${port} (${variable}) on ${host} needs privileges this user does not have`;
  if (code === 'EADDRNOTAVAIL') return `${what} host ${host} is not an address of this machine`;
  return `${what} port ${port} (${variable}) on ${host} cannot be used (${code})`;
}
