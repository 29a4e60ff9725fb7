import { useCallback, useEffect, useState } from 'react';

export type Loaded<T> = { state: 'loading' } | { state: 'ok'; value: T } | { state: 'error'; message: string; status: number };

/** Runs `load` now and on `reload()`, keeping the last value while a reload runs. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): [Loaded<T>, () => Promise<void>] {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const run = useCallback(load, deps);
  const reload = useCallback(async () => {
    try {
      setLoaded({ state: 'ok', value: await run() });
    } catch (err) {
      setLoaded({ state: 'error', message: (err as Error).message, status: (err as { status?: number }).status ?? 0 });
    }
  }, [run]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return [loaded, reload];
}
