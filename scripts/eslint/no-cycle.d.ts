import type { Rule } from 'eslint';

declare const noCycle: Rule.RuleModule;
export default noCycle;
