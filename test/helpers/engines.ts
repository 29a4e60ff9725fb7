import type { AnswerEngine, AnswerRequest } from '../../backend/answer/engine.js';
import type { Source } from '../../protocol/types.js';

/**
 * An in-process engine with a script, for driving the messages endpoints through states the
 * real engines reach only by chance (a failure after N pieces, a very slow stream). It honours
 * the AbortSignal exactly as the interface requires, and records what it was asked.
 */
export interface ScriptedEngine extends AnswerEngine {
  requests: AnswerRequest[];
  /** Number of answers whose generation is still running (not finished, not aborted). */
  running: number;
  aborted: number;
}

export function scriptedEngine(script: {
  pieces?: (question: string) => string[];
  delayMs?: number;
  failAfter?: number;
  sources?: Source[];
}): ScriptedEngine {
  const engine: ScriptedEngine = {
    name: 'scripted',
    requests: [],
    running: 0,
    aborted: 0,
    async answer(request) {
      engine.requests.push(request);
      const pieces = script.pieces ? script.pieces(request.question) : ['Answer ', 'to: ', request.question];
      return {
        sources: script.sources ?? [],
        pieces: (async function* () {
          engine.running++;
          try {
            for (let i = 0; i < pieces.length; i++) {
              if (script.failAfter !== undefined && i === script.failAfter) throw new Error('engine exploded');
              if (script.delayMs) {
                await new Promise<void>((resolve, reject) => {
                  const onAbort = () => {
                    clearTimeout(t);
                    reject(new Error('aborted'));
                  };
                  const t = setTimeout(() => {
                    request.signal.removeEventListener('abort', onAbort);
                    resolve();
                  }, script.delayMs);
                  request.signal.addEventListener('abort', onAbort, { once: true });
                });
              }
              if (request.signal.aborted) {
                engine.aborted++;
                return;
              }
              yield pieces[i]!;
            }
          } catch (err) {
            if (request.signal.aborted) engine.aborted++;
            throw err;
          } finally {
            engine.running--;
          }
        })(),
      };
    },
  };
  return engine;
}
