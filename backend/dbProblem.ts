/**
 * A database that cannot be opened, said in one line with the fix (no stack): for the backend
 * at start-up and for `npm run db:migrate` / `db:rollback`. `cichat serve` (`npm start`) shows
 * the backend's line as its own error.
 */

interface DbError {
  code?: string;
  errno?: number;
  message?: string;
}

function mysqlTarget(databaseUrl: string): { host: string; port: string; user: string; database: string } | undefined {
  try {
    const url = new URL(databaseUrl.replace(/^mariadb:/, 'mysql:'));
    if (url.protocol !== 'mysql:') return undefined;
    return {
      host: url.hostname,
      port: url.port || '3306',
      user: decodeURIComponent(url.username) || 'root',
      database: decodeURIComponent(url.pathname.replace(/^\//, '')),
    };
  } catch {
    return undefined;
  }
}

/** The one line for a failure to open or migrate the database, or undefined when `err` is something else. */
export function databaseProblem(err: unknown, databaseUrl: string): string | undefined {
  const e = (err ?? {}) as DbError;
  const code = e.code ?? '';
  const my = mysqlTarget(databaseUrl);
  if (my) {
    const where = `${my.host}:${my.port}`;
    if (code === 'ER_BAD_DB_ERROR' || e.errno === 1049) {
      return (
        `DATABASE_URL: the database "${my.database}" does not exist on the MySQL server at ${where}; ` +
        `create it with: mysql -h ${my.host} -P ${my.port} -u ${my.user} -p -e 'CREATE DATABASE \`${my.database}\` CHARACTER SET utf8mb4'`
      );
    }
    if (code === 'ER_ACCESS_DENIED_ERROR' || code === 'ER_DBACCESS_DENIED_ERROR') {
      return `DATABASE_URL: the MySQL server at ${where} refused user "${my.user}" (${code}); check the user and password in DATABASE_URL, and GRANT ALL ON \`${my.database}\`.* TO it`;
    }
    if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET'].includes(code) || /Knex: Timeout acquiring a connection/.test(e.message ?? '')) {
      return `DATABASE_URL: cannot reach the MySQL server at ${where} (${code || 'timeout'}); start it, or point DATABASE_URL at a running server`;
    }
    return undefined;
  }
  if (databaseUrl.startsWith('sqlite:') && /^SQLITE_(CANTOPEN|READONLY|NOTADB|CORRUPT)/.test(code)) {
    return `DATABASE_URL: cannot open the SQLite database ${databaseUrl.slice('sqlite:'.length)} (${code}); check that the file is a cichat database and its directory is writable`;
  }
  if (databaseUrl.startsWith('sqlite:') && (code === 'EACCES' || code === 'EROFS')) {
    return `DATABASE_URL: cannot create the SQLite database ${databaseUrl.slice('sqlite:'.length)} (${code}); choose a writable DATA_DIR or DATABASE_URL`;
  }
  return undefined;
}
