/**
 * The log viewer (a citation's lines highlighted, with context around them, more on demand) and
 * the workspace file viewer (the file at the cited line). Both show text as text nodes only.
 */
import { useEffect, useRef, useState } from 'react';
import { api, type LogLines } from './api.js';

const CONTEXT_LINES = 15;

/** Scrolls the viewer's own box so that `row` (the first cited line) sits a third of the way down. */
function centre(row: HTMLElement): void {
  const box = row.closest('.log');
  if (!(box instanceof HTMLElement)) return;
  requestAnimationFrame(() => {
    box.scrollTop = Math.max(0, row.offsetTop - box.clientHeight / 3);
  });
}

/** Keeps `row` in view when the window changes size (a phone turned, a window resized). */
function useKeepInView(row: { current: HTMLElement | null }): void {
  useEffect(() => {
    const onResize = () => {
      if (row.current) centre(row.current);
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [row]);
}

function useDialog(onClose: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return { ref, onCancel: onClose, onClose };
}

export function LogViewer({ chatId, start, end, onClose }: { chatId: number; start: number; end: number; onClose: () => void }) {
  const dialog = useDialog(onClose);
  const [range, setRange] = useState({ from: Math.max(1, start - CONTEXT_LINES), to: end + CONTEXT_LINES });
  const [log, setLog] = useState<LogLines | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const first = useRef<HTMLTableRowElement>(null);
  const scrolled = useRef(false);
  useKeepInView(first);

  useEffect(() => {
    let live = true;
    api.log(chatId, range.from, range.to).then(
      (l) => live && setLog(l),
      (err: Error) => live && setProblem(err.message),
    );
    return () => {
      live = false;
    };
  }, [chatId, range]);

  useEffect(() => {
    if (log && first.current && !scrolled.current) {
      scrolled.current = true;
      centre(first.current);
    }
  }, [log]);

  const title = start === end ? `Log line ${start}` : `Log lines ${start}-${end}`;
  return (
    <dialog {...dialog} className="viewer" aria-labelledby="viewer-title">
      <div className="viewer-head">
        <h2 id="viewer-title">{title}</h2>
        <button type="button" onClick={onClose} aria-label="Close the log">
          Close
        </button>
      </div>
      {problem ? (
        <p className="error" role="alert">
          {problem}
        </p>
      ) : !log ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : log.lines.length === 0 ? (
        <p className="muted">
          The chat's log has no line {start}
          {log.total_lines ? ` (it has ${log.total_lines} lines)` : ' (no log was uploaded)'}.
        </p>
      ) : (
        <>
          {log.from > 1 ? (
            <button type="button" className="more" onClick={() => setRange((r) => ({ from: Math.max(1, r.from - 50), to: r.to }))}>
              Show 50 lines above
            </button>
          ) : null}
          <div className="log" tabIndex={0} aria-label={`${title} with the lines around them`}>
            <table>
              <tbody>
                {log.lines.map((l) => {
                  const cited = l.n >= start && l.n <= end;
                  return (
                    <tr key={l.n} ref={l.n === start ? first : undefined} className={cited ? 'cited' : undefined} aria-current={cited ? 'true' : undefined}>
                      <th scope="row">{l.n}</th>
                      <td>{l.text}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {log.to < log.total_lines ? (
            <button type="button" className="more" onClick={() => setRange((r) => ({ from: r.from, to: r.to + 50 }))}>
              Show 50 lines below
            </button>
          ) : null}
        </>
      )}
    </dialog>
  );
}

export interface FileRef {
  path: string;
  line?: number;
  endLine?: number;
}

/** The workspace file of a source: each workspace of the build is tried in turn (a pipeline may have several). */
export function FileViewer({ job, build, file, onClose }: { job: string; build: number; file: FileRef; onClose: () => void }) {
  const dialog = useDialog(onClose);
  const [content, setContent] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const target = useRef<HTMLTableRowElement>(null);
  useKeepInView(target);

  useEffect(() => {
    let live = true;
    (async () => {
      const workspaces = await api.workspaceTree(job, build);
      if (workspaces.length === 0) throw new Error(`No workspace of ${job} #${build} is on this machine.`);
      let last = '';
      for (const ws of workspaces) {
        try {
          const answer = await api.workspaceFile(job, build, ws.workspaceId, file.path.replace(/^\/+/, ''));
          if (answer.status === 'success') return answer.content;
          last = answer.message;
        } catch (err) {
          last = (err as Error).message;
        }
      }
      throw new Error(last || `${file.path} is in no workspace of ${job} #${build}.`);
    })().then(
      (c) => live && setContent(c),
      (err: Error) => live && setProblem(err.message),
    );
    return () => {
      live = false;
    };
  }, [job, build, file.path]);

  useEffect(() => {
    if (target.current) centre(target.current);
  }, [content]);

  const start = file.line ?? 0;
  const end = file.endLine ?? start;
  const title = file.line ? `${file.path}:${file.line}` : file.path;
  return (
    <dialog {...dialog} className="viewer" aria-labelledby="viewer-title">
      <div className="viewer-head">
        <h2 id="viewer-title">{title}</h2>
        <button type="button" onClick={onClose} aria-label="Close the file">
          Close
        </button>
      </div>
      {problem ? (
        <p className="error" role="alert">
          {problem}
        </p>
      ) : content === null ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : (
        <div className="log" tabIndex={0} aria-label={title}>
          <table>
            <tbody>
              {content.split('\n').map((text, i) => {
                const n = i + 1;
                const cited = n >= start && n <= end;
                return (
                  <tr key={n} ref={n === start ? target : undefined} className={cited ? 'cited' : undefined}>
                    <th scope="row">{n}</th>
                    <td>{text}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </dialog>
  );
}
