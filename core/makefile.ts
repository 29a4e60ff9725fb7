/**
 * Make's names, shared by the workspace reader (jenkins/workspace/origins.ts: where a recipe's variables
 * are set) and the answer (backend/answer/local/makeEmpty.ts: which of them expanded to nothing).
 */

/** A Makefile (GNU make's names and included `.mk` files): its values are make variables. */
export const MAKEFILE = /(?:^|\/)(?:GNU)?[Mm]akefile[\w.-]*$|\.mk$/;

/** Make's references to variables on a line, `$(NAME)` and `${NAME}`, quoted or not (a recipe's quotes are the shell's). */
export const makeReferences = (line: string): string[] => [...line.matchAll(/\$[({]([A-Za-z_][\w.-]*)[)}]/g)].map((m) => m[1] as string);
