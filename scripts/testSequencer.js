// The order in which `npm test` hands test files to its workers. Jest's own order: failed last
// time first, then the longest last time, and files it has no time for by size. A fresh clone
// (CI) has no times at all, and by size the e2e files (short, but each waiting many seconds on
// processes: a lease expiry, a 15 s database outage) would start last and make the run's tail.
// So files without a time from the e2e project go first; everything else keeps Jest's order.
import Sequencer from '@jest/test-sequencer';

const Base = Sequencer.default ?? Sequencer;

export default class E2eFirstSequencer extends Base {
  sort(tests) {
    const sorted = super.sort(tests);
    const early = (t) => t.duration == null && t.context.config.displayName?.name === 'e2e';
    return [...sorted.filter(early), ...sorted.filter((t) => !early(t))];
  }
}
