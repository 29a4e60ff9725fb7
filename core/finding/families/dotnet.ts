/**
 * .NET: NuGet: evidence rules of the tuning rounds 13 (issue 25; docs/notes/analyzer.md, each
 * round's "opened" section), kept by tool family (rv3, session 43). Each is a tool's own wording for one cause,
 * never a case's words. Tried with RULES (rules.ts): `DOTNET_FIRST_RULES` before the general rules (each is
 * narrower than a general rule that matches the same line), `DOTNET_RULES` after the general rules and the cross-tool families' (rules.ts).
 */
import type { Rule } from '../ruleTypes.js';

export const DOTNET_FIRST_RULES: Rule[] = [
  // NuGet's restore errors that a package or version was not found or conflicts (NU1101 no such package, NU1102 no
  // such version, NU1103 only prereleases, NU1107 a version conflict; Microsoft's NuGet error reference).
  { cls: 'dependency-resolution', priority: 45, confidence: 'high', re: /\berror (NU110[1-37])\b: /, read: (m) => ({ tool: 'nuget', code: m[1] as string }) },
];
