import { isDeadlock, retryOnDeadlock } from './retry.js';

const deadlock = () => Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), { code: 'ER_LOCK_DEADLOCK', errno: 1213 });

describe('retryOnDeadlock', () => {
  test('runs the write again after a deadlock and answers its result', async () => {
    let calls = 0;
    const result = await retryOnDeadlock(async () => {
      calls++;
      if (calls < 3) throw deadlock();
      return 'saved';
    });
    expect(result).toBe('saved');
    expect(calls).toBe(3);
  });

  test('gives up after the given number of attempts with the deadlock itself', async () => {
    let calls = 0;
    await expect(
      retryOnDeadlock(async () => {
        calls++;
        throw deadlock();
      }, 3),
    ).rejects.toMatchObject({ code: 'ER_LOCK_DEADLOCK' });
    expect(calls).toBe(3);
  });

  test('any other error is thrown at once, without a second try', async () => {
    let calls = 0;
    await expect(
      retryOnDeadlock(async () => {
        calls++;
        throw Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY', errno: 1062 });
      }),
    ).rejects.toThrow('Duplicate entry');
    expect(calls).toBe(1);
  });

  test('isDeadlock: by code or by errno, nothing else', () => {
    expect(isDeadlock(deadlock())).toBe(true);
    expect(isDeadlock({ errno: 1213 })).toBe(true);
    expect(isDeadlock({ code: 'ER_LOCK_WAIT_TIMEOUT', errno: 1205 })).toBe(false);
    expect(isDeadlock(null)).toBe(false);
  });
});
