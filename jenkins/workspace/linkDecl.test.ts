import { declaredNotDefined, demangledName, paramType, renameLikeness, renamedDefinitions } from './linkDecl.js';

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

describe('renamedDefinitions (lk1): a symbol nothing defines or declares, its callers and the definitions named like it', () => {
  // The shape of test/fixtures/linkload/src/link-ld-undefined: scale_of renamed unit_scale in scale.c and scale.h, checksum.c still calls scale_of.
  const files = [
    f('src/scale.h', '#ifndef SCALE_H\n#define SCALE_H\n/* The weight of a digit at an odd place. */\nint unit_scale(int digit);\n#endif'),
    f('src/scale.c', '#include "scale.h"\n\nint unit_scale(int digit)\n{\n    int d = digit * 2;\n    return d > 9 ? d - 9 : d;\n}'),
    f('src/checksum.c', '#include <string.h>\n#include "scale.h"\n\nint checksum_ok(const char *digits)\n{\n    int sum = 0;\n    for (size_t i = 0; digits[i]; i++) sum += (i % 2) ? scale_of(digits[i] - \'0\') : 0;\n    return sum % 10 == 0;\n}'),
    f('src/main.c', 'int checksum_ok(const char *digits);\nint main(void) { return checksum_ok("79927398713"); }'),
  ];

  it('the caller of the old name, the renamed definition and the header that declares it', () => {
    expect(renamedDefinitions(files, 'scale_of')).toEqual({ callers: [{ rel: 'src/checksum.c', index: 6 }], candidates: [{ rel: 'src/scale.c', index: 2, name: 'unit_scale', likeness: 1, header: { rel: 'src/scale.h', index: 3 } }] });
  });

  it('two look-alikes: the one the change named first, else the one nothing calls (what a rename leaves)', () => {
    const more = [...files, f('src/units.c', 'int scale_unit(int d)\n{\n    return d;\n}\nint user(void) { return scale_unit(1); }')];
    expect(renamedDefinitions(more, 'scale_of')?.candidates.map((c) => c.name)).toEqual(['unit_scale', 'scale_unit']);
    expect(renamedDefinitions(more, 'scale_of', new Set(['scale_unit']))?.candidates.map((c) => c.name)).toEqual(['scale_unit', 'unit_scale']);
  });

  it('a mangled C++ name is matched by its demangled one', () => {
    expect(demangledName('_ZN7metrics7mean_ofERKSt6vectorIdSaIdEE')).toBe('metrics::mean_of');
    expect(demangledName('_Z8scale_ofi')).toBe('scale_of');
    expect(demangledName('scale_of')).toBeUndefined();
    expect(renamedDefinitions(files, '_Z8scale_ofi')?.candidates.map((c) => c.name)).toEqual(['unit_scale']);
  });

  it('counter-examples: a comment, a parameter and a declaration are no definition; filler words tie nothing', () => {
    const noisy = [
      f('src/checksum.c', 'int checksum_ok(const char *d)\n{\n    return scale_of(*d);\n}'),
      f('src/other.c', '/* unit_scale(int) used to live here */\nint apply(int (*unit_scale)(int), int d) { return unit_scale(d); }\nint count_of(int x);\nint count_of(int x)\n{\n  return x;\n}'),
    ];
    // `apply` takes a parameter named unit_scale; `count_of` shares only the filler `of`.
    expect(renamedDefinitions(noisy, 'scale_of')?.candidates).toEqual([]);
    expect(renameLikeness('weight_at', 'luhn_weight')).toBe(1);
    expect(renameLikeness('scale_of', 'count_of')).toBe(0);
    expect(renameLikeness('parse_rate', 'rate_parse')).toBe(2);
    expect(renameLikeness('parse_cfg', 'parse_cfgs')).toBe(3);
  });
});

describe('declaredNotDefined (lk1): a namespace function', () => {
  it('declared in `namespace metrics` and defined unqualified inside it in the .cpp (test/fixtures/linkload/src/link-gxx-undefined)', () => {
    const files = [
      f('src/stats.h', '#pragma once\n#include <vector>\n\nnamespace metrics {\ndouble mean_of(const std::vector<double>& xs);\ndouble spread_of(const std::vector<double>& xs);\n}'),
      f('src/stats.cpp', '#include "stats.h"\n#include <algorithm>\n\nnamespace metrics {\ndouble average_of(const std::vector<double>& xs)\n{\n    return 0;\n}\n\ndouble spread_of(const std::vector<double>& xs)\n{\n    return 1;\n}\n}'),
    ];
    const found = declaredNotDefined(files, 'metrics::mean_of(std::vector<double, std::allocator<double> > const&)');
    expect(found?.declaration).toMatchObject({ rel: 'src/stats.h', index: 4, name: 'metrics::mean_of' });
    expect(found?.candidates.map((c) => [c.name, c.sameParams, c.orphan])).toEqual([['metrics::average_of', true, true]]);
  });
});

describe('declaredNotDefined (lk1): a caller that declares the old name itself', () => {
  // The shape of round 14's lld-renamed-c-function-undefined: vec_norm renamed vec_length in vec.c and vec.h; shade.c declares vec_norm itself.
  const files = [
    f('vec.h', 'typedef struct { double x, y, z; } vec3;\ndouble vec_length(vec3 v);'),
    f('vec.c', '#include "vec.h"\n#include <math.h>\ndouble vec_length(vec3 v) { return sqrt(v.x * v.x); }\ndouble vec_dot(vec3 a, vec3 b) { return a.x * b.x; }'),
    f('shade.c', 'double vec_norm(vec3 v);\ndouble shade(vec3 n, vec3 l)\n{\n    return vec_norm(n) * vec_norm(l);\n}'),
  ];

  it('the definition in another file that kept the words and the parameters, though no header of the declaration goes with it', () => {
    expect(declaredNotDefined(files, 'vec_norm')?.candidates).toEqual([{ rel: 'vec.c', index: 2, name: 'vec_length', sameParams: true, similarName: true, orphan: false }]);
  });

  it('counter-example: other parameters, or no word kept, is no candidate from another file', () => {
    expect(declaredNotDefined(files, 'vec_norm')?.candidates.map((c) => c.name)).not.toContain('vec_dot');
    const other = [files[0] as (typeof files)[number], f('vec.c', 'double magnitude(vec3 v) { return v.x; }'), files[2] as (typeof files)[number]];
    expect(declaredNotDefined(other, 'vec_norm')?.candidates).toEqual([]);
  });
});
