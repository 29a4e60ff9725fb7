/**
 * A text as a regular expression that matches it literally: the one escape helper of the project
 * (core, so jenkins/ and core/finding can use it; backend/answer/facts.ts re-exports it).
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
