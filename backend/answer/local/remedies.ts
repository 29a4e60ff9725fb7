/**
 * The remedy tables in one list, and the two ways the answers read them (remedyShape.ts says how
 * steps are chosen and ordered). To add a remedy: a rule in the table of its kind (docs/notes/house.md).
 */
import type { Finding } from '../../../protocol/types.js';
import type { LogSpan } from '../logtext.js';
import type { LineText } from './findingText.js';
import { CLASS_REMEDIES, classUnsure } from './remedyClass.js';
import { DIAGNOSTIC_REMEDIES } from './diagnostics.js';
import { EXCEPTION_REMEDIES } from './exceptions.js';
import { OS_CONDITION_REMEDIES } from './osCondition.js';
import { KNOWN_REMEDIES } from './fixKnown.js';
import { EVERYDAY_REMEDIES } from './fixEveryday.js';
import { TOOL_WORD_REMEDIES } from './fixToolWords.js';
import { ACCESS_REMEDIES } from './fixAccess.js';
import { LOG_NAME_REMEDIES } from './fixLogNames.js';
import { TOOL_INSTRUCTION_REMEDIES } from './toolInstructions.js';
import { CHOICE_REMEDIES, FACT_REMEDIES } from './remedyFacts.js';
import { DETAIL_REMEDIES, NAMED_REMEDIES } from './fixNamed.js';
import { WHAT_NEEDS_REMEDIES } from './fixWhatNeeds.js';
import { RUNTIME_WORD_REMEDIES } from './runtimeWords.js';
import { RUNTIME_HINT_REMEDIES } from './runtimeHints.js';
import { PIPE_MASKED_REMEDIES } from './pipeMaskedStep.js';
import { chooseRemedies, remedyInput, type Caller, type RemedyRule, type RemedyStep, type Unsure } from './remedyShape.js';

/** The tables that read only the finding (its class, message, exception, symbol) and the log's lines through `lineText`. */
const FINDING_TABLES: readonly RemedyRule[] = [...CLASS_REMEDIES, ...PIPE_MASKED_REMEDIES, ...DIAGNOSTIC_REMEDIES, ...OS_CONDITION_REMEDIES, ...RUNTIME_WORD_REMEDIES, ...RUNTIME_HINT_REMEDIES, ...EXCEPTION_REMEDIES];
/** Every table: the finding's, then the ones that also read the log around the message. */
export const REMEDY_TABLES: readonly RemedyRule[] = [...FINDING_TABLES, ...CHOICE_REMEDIES, ...KNOWN_REMEDIES, ...EVERYDAY_REMEDIES, ...TOOL_WORD_REMEDIES, ...ACCESS_REMEDIES, ...TOOL_INSTRUCTION_REMEDIES, ...LOG_NAME_REMEDIES, ...WHAT_NEEDS_REMEDIES, ...FACT_REMEDIES, ...NAMED_REMEDIES, ...DETAIL_REMEDIES];

/** What the finding alone calls for (the diagnosis's "next step" reads the first): steps as text. */
export function remedyOf(f: Finding, lineText?: LineText): { steps: string[]; unsure?: Unsure } {
  const i = remedyInput(f, undefined, lineText);
  const unsure = classUnsure(i);
  return { steps: chooseRemedies(FINDING_TABLES, i).map((s) => s.text), ...(unsure ? { unsure } : {}) };
}

/** Every step for "how do I fix it?": the finding's and the log's, chosen and ordered once. `caller`: fixNamed.ts `callerOf`, computed once by fix.ts. */
export function fixRemedies(f: Finding, stored: LogSpan | undefined, lineText?: LineText, caller?: Caller): { steps: RemedyStep[]; unsure?: Unsure } {
  const i = remedyInput(f, stored, lineText, caller);
  const unsure = classUnsure(i);
  return { steps: chooseRemedies(REMEDY_TABLES, i), ...(unsure ? { unsure } : {}) };
}
