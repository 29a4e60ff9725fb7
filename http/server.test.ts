import { connectionCap } from './server.js';

const limits = (soft: string): string =>
  `Limit                     Soft Limit           Hard Limit           Units     \nMax cpu time              unlimited            unlimited            seconds   \nMax open files            ${soft}                 1048576              files     \n`;

describe('connectionCap: client connections leave descriptors for serving (issue 24 point 3)', () => {
  it('keeps a fifth of the open-file limit (at least 64) in reserve', () => {
    expect(connectionCap(limits('1024'))).toBe(1024 - 205);
    expect(connectionCap(limits('65536'))).toBe(65536 - 13108);
    expect(connectionCap(limits('256'))).toBe(256 - 64);
  });
  it('never goes below 16, and sets no cap when the limit is unlimited or unknown', () => {
    expect(connectionCap(limits('40'))).toBe(16);
    expect(connectionCap(limits('unlimited'))).toBeUndefined();
    expect(connectionCap('nothing here')).toBeUndefined();
  });
});
