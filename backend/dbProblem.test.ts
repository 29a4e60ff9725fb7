/** One line with the fix for each way a database fails to open. */
import { databaseProblem } from './dbProblem.js';

const url = 'mysql://cichat:pw@db.example:3307/cichat_prod';

describe('databaseProblem', () => {
  it('a missing MySQL database: CREATE DATABASE with host, port, user and name', () => {
    const line = databaseProblem({ code: 'ER_BAD_DB_ERROR', errno: 1049 }, url);
    expect(line).toBe(
      'DATABASE_URL: the database "cichat_prod" does not exist on the MySQL server at db.example:3307; ' +
        "create it with: mysql -h db.example -P 3307 -u cichat -p -e 'CREATE DATABASE `cichat_prod` CHARACTER SET utf8mb4'",
    );
  });
  it('an unreachable server, a refused user, a knex pool timeout', () => {
    expect(databaseProblem({ code: 'ECONNREFUSED' }, url)).toMatch(/^DATABASE_URL: cannot reach the MySQL server at db\.example:3307 \(ECONNREFUSED\)/);
    expect(databaseProblem({ code: 'ENOTFOUND' }, 'mariadb://root@nohost/x')).toContain('nohost:3306 (ENOTFOUND)');
    expect(databaseProblem({ message: 'Knex: Timeout acquiring a connection. The pool is probably full.' }, url)).toContain('(timeout)');
    expect(databaseProblem({ code: 'ER_ACCESS_DENIED_ERROR' }, url)).toMatch(/refused user "cichat" \(ER_ACCESS_DENIED_ERROR\).*GRANT ALL ON `cichat_prod`/);
  });
  it('SQLite files, and nothing for other errors (they keep their stack)', () => {
    expect(databaseProblem({ code: 'SQLITE_CANTOPEN' }, 'sqlite:./data/x.sqlite')).toContain('cannot open the SQLite database ./data/x.sqlite (SQLITE_CANTOPEN)');
    expect(databaseProblem(new Error('boom'), url)).toBeUndefined();
    expect(databaseProblem({ code: 'ENOENT' }, 'sqlite:./x')).toBeUndefined();
  });
});
