import { declaredNotDefined, paramType } from './linkDecl.js';

const f = (rel: string, text: string) => ({ rel, lines: text.split('\n') });

describe('declaredNotDefined: a link symbol the workspace declares and never defines', () => {
  it('C++: the declaration in the header, and the orphan definition with the same parameter types (a rename in the .cpp only)', () => {
    const files = [
      f('src/main.cpp', '#include "stats.h"\nint main() { return (int)mean_of({1.0}); }'),
      f('src/stats.h', '#pragma once\n#include <vector>\ndouble mean_of(const std::vector<double>& xs);\ndouble spread(const std::vector<double>& xs);'),
      f('src/stats.cpp', '#include "stats.h"\ndouble average(const std::vector<double> &values) {\n  return 0;\n}\ndouble spread(const std::vector<double>& xs) { return 1; }\nstatic double helper(const std::vector<double>& xs) { return 2; }'),
    ];
    const found = declaredNotDefined(files, 'mean_of(std::vector<double, std::allocator<double> > const&)');
    expect(found?.declaration).toEqual({ rel: 'src/stats.h', index: 2, name: 'mean_of', params: ['const std::vector<double>& xs'] });
    // `spread` is declared in the header (accounted for); `helper` is static (never a link target).
    expect(found?.candidates).toEqual([{ rel: 'src/stats.cpp', index: 1, name: 'average', sameParams: true, similarName: false, orphan: true }]);
  });

  it('C: a prototype over two lines, a definition named like it in a file that includes the header', () => {
    const files = [
      f('include/cfg.h', '#ifndef CFG_H\n#define CFG_H\nint parse_cfg(const char *path,\n              int strict);\n#endif'),
      f('src/config.c', '#include <stdio.h>\n#include "cfg.h"\n\nint parse_config(const char *p, int strict)\n{\n  return 0;\n}\nint unrelated(double x) { return 0; }'),
    ];
    const found = declaredNotDefined(files, 'parse_cfg');
    expect(found?.declaration).toMatchObject({ rel: 'include/cfg.h', index: 2, params: ['const char *path', 'int strict'] });
    expect(found?.candidates).toEqual([{ rel: 'src/config.c', index: 3, name: 'parse_config', sameParams: true, similarName: true, orphan: true }]);
  });

  it('a rename that declared the new name beside the old one: the same words reordered still count, a declared look-alike of the parameters alone does not', () => {
    const files = [
      f('src/rate.h', 'double parse_rate(const char *text);\ndouble rate_parse(const char *text);\ndouble parse_unit(const char *text);'),
      f('src/rate.c', '#include "rate.h"\ndouble rate_parse(const char *text)\n{\n  return 0;\n}\ndouble parse_unit(const char *text) { return 1; }'),
    ];
    expect(declaredNotDefined(files, 'parse_rate')?.candidates).toEqual([{ rel: 'src/rate.c', index: 1, name: 'rate_parse', sameParams: true, similarName: true, orphan: false }]);
  });

  it('a member function: the class that declares it, and a definition of the same class', () => {
    const files = [
      f('src/report.hpp', 'class Report {\npublic:\n  int summary() const;\n};'),
      f('src/report.cpp', '#include "report.hpp"\nint Report::summaryText() const {\n  return 1;\n}\nint Other::summary() const { return 2; }'),
    ];
    const found = declaredNotDefined(files, 'Report::summary() const');
    expect(found?.declaration).toMatchObject({ rel: 'src/report.hpp', index: 2, name: 'Report::summary' });
    expect(found?.candidates.map((c) => [c.name, c.similarName])).toEqual([['Report::summaryText', true]]);
  });

  it('counter-examples: nothing declares it (undefined); a definition with other parameters and another name is no candidate', () => {
    expect(declaredNotDefined([f('a.c', 'int main(void) { return f(); }')], 'f')).toBeUndefined();
    expect(declaredNotDefined([f('a.h', 'int mean_of(int n);'), f('a.c', '#include "a.h"\nint total(double x) {\n return 0;\n}')], 'mean_of')?.candidates).toEqual([]);
    // A call or a return statement is not a declaration.
    expect(declaredNotDefined([f('a.c', 'int g(void) {\n  return mean_of(3);\n}')], 'mean_of')).toBeUndefined();
    expect(declaredNotDefined([f('a.c', 'x'.repeat(3))], 'not a symbol!')).toBeUndefined();
  });
});

describe('paramType: a parameter without its name and default', () => {
  it.each([
    ['const std::vector<double>& xs', 'const std::vector<double>&'],
    ['const std::vector<double> &values', 'const std::vector<double>&'],
    ['const char *path', 'const char*'],
    ['unsigned int', 'unsigned int'],
    ['int n = 3', 'int'],
    ['size_t n', 'size_t'],
    ['const Foo&', 'const Foo&'],
    ['double', 'double'],
  ])('%s -> %s', (param, type) => {
    expect(paramType(param)).toBe(type);
  });
});
