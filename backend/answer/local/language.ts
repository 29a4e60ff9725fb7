/**
 * The language of a workspace file, by its name: the fence label of a source block (workspace.ts) and the
 * language whose conversions a type error's fix uses (typeConversion.ts). One table for both (session 47, lead:
 * the two had their own maps); `text` when the name says nothing.
 */
import { PIPELINE_SCRIPT } from '../../../core/log/locations.js';

const BY_EXTENSION: Readonly<Record<string, string>> = {
  java: 'java', kt: 'kotlin', kts: 'kotlin', ts: 'ts', tsx: 'tsx', js: 'js', jsx: 'jsx', mjs: 'js', py: 'python', go: 'go',
  rs: 'rust', c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp', cs: 'csharp', rb: 'ruby', scala: 'scala',
  swift: 'swift', sh: 'bash', bash: 'bash', yml: 'yaml', yaml: 'yaml', json: 'json', pl: 'perl', pm: 'perl', t: 'perl', php: 'php',
  lua: 'lua', erl: 'erlang', hrl: 'erlang', ml: 'ocaml', mli: 'ocaml', adb: 'ada', ads: 'ada', f90: 'fortran', f: 'fortran',
  tcl: 'tcl', xml: 'xml', toml: 'toml',
};

/** The language of the file at `p` (`go`, `cpp`, `groovy` for a Jenkinsfile, `make` for a Makefile), or `text`. */
export function languageOf(p: string): string {
  if (p === PIPELINE_SCRIPT || /Jenkinsfile/.test(p) || p.endsWith('.groovy')) return 'groovy';
  if (/(?:^|\/)(?:GNU)?[Mm]akefile$/.test(p)) return 'make';
  const ext = /\.([A-Za-z0-9]+)$/.exec(p)?.[1]?.toLowerCase() ?? '';
  return BY_EXTENSION[ext] ?? 'text';
}
