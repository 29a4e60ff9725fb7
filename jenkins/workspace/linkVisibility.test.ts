import { hiddenLinkage, sourceNameOf } from './linkVisibility.js';

describe('sourceNameOf', () => {
  it('reads the name a linker symbol is defined under', () => {
    expect(sourceNameOf('int stats::median<int>(std::vector<int, std::allocator<int> >)')).toBe('stats::median');
    expect(sourceNameOf('RateWindow::ratio() const')).toBe('RateWindow::ratio');
    expect(sourceNameOf('crc8')).toBe('crc8');
    expect(sourceNameOf('_ZN4Rate5ratioEv')).toBe('_ZN4Rate5ratioEv');
    expect(sourceNameOf('operator<<(std::ostream&, Foo const&)')).toBeUndefined();
  });
});

describe('hiddenLinkage', () => {
  it('a static definition called from another file, and nothing for a call inside a body', () => {
    const files = [
      { rel: 'a.c', lines: ['static int helper(int x)', '{', '    return x;', '}', 'int run(void)', '{', '    return helper(1);', '}'] },
      { rel: 'a.h', lines: ['int run(void);'] },
    ];
    expect(hiddenLinkage(files, 'helper').map((h) => h.message)).toEqual(['defines helper, the symbol the linker could not find, as static', 'is the header of a.c, and declares no helper']);
    expect(hiddenLinkage(files, 'run')).toEqual([]);
  });
});
