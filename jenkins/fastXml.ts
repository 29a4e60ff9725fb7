/**
 * fast-xml-parser, loaded through its CommonJS build. The package's ES build is about 30 files
 * (the parser, its entity and name helpers); its CommonJS build is the same version's code in one
 * bundled file. Importing the ES build took ~47 ms of CPU, requiring the CommonJS one ~7 ms, and
 * the controller loads it at every start (docs/notes/house.md, "`npm test` time", eighth session).
 * Loaded at import as before, so a missing package still fails the start.
 */
import { createRequire } from 'node:module';
import type * as FastXmlParser from 'fast-xml-parser';

const fxp = createRequire(import.meta.url)('fast-xml-parser') as typeof FastXmlParser;

export const XMLParser = fxp.XMLParser;
export const XMLValidator = fxp.XMLValidator;
