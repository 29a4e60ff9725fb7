import { isDatabaseUnavailable } from './errors.js';

describe('isDatabaseUnavailable: 503 for a database that is gone, 500 for the rest', () => {
  test.each([
    ['ECONNREFUSED', { code: 'ECONNREFUSED' }],
    ['EPIPE on a pooled connection whose server died', Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE', fatal: true })],
    ['a query after the connection failed', { code: 'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR' }],
    ['the server shutting down under the query', { code: 'ER_SERVER_SHUTDOWN', errno: 1053 }],
    ['a fatal mysql2 error of any code', { code: 'SOMETHING_NEW', fatal: true }],
    ["knex's pool timeout", { name: 'KnexTimeoutError' }],
    ['SQLite busy', { code: 'SQLITE_BUSY' }],
  ])('%s', (_what, err) => expect(isDatabaseUnavailable(err)).toBe(true));

  test.each([
    ['a bug', new TypeError('x is undefined')],
    ['a constraint', { code: 'ER_DUP_ENTRY', errno: 1062, fatal: false }],
    ['a syntax error', { code: 'ER_PARSE_ERROR' }],
    ['not an object', 'ECONNREFUSED'],
    ['null', null],
  ])('%s', (_what, err) => expect(isDatabaseUnavailable(err)).toBe(false));
});
