/**
 * One chat: the conversation (answers rendered from Markdown, citations open the log viewer,
 * file sources the workspace file), the answer streamed as it arrives with stop (Esc), retry
 * and edit, the composer (Enter sends, Shift+Enter a new line), and a log upload by file picker
 * or drag-and-drop with progress.
 */
import { useCallback, useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import type { Chat, QaPair, Source } from '../protocol/types.js';
import { api, findChat, streamAnswer, uploadLog, type StreamRequest } from './api.js';
import { Markdown, type Citation } from './markdown.js';
import { onLinkClick } from './router.js';
import { aboutLine, fileSourceLabel, showsLoading } from './chatHead.js';
import { fullTime } from './time.js';
import { FileViewer, LogViewer, type FileRef } from './Viewers.js';

/** The answer being streamed now, shown in place of the pairs it replaces. */
interface Live {
  request: StreamRequest;
  question: string;
  text: string;
  /** Set by the `started` event. */
  pairId?: number;
  /** Pairs hidden while it streams: a retry or an edit removes that pair and all after it. */
  fromPairId?: number;
  stopped?: boolean;
  error?: string;
}

type Viewer = { kind: 'log'; start: number; end: number } | { kind: 'file'; file: FileRef } | null;

const SUGGESTIONS = ['Why did the build fail?', 'What changed since the last green build?', 'How do I fix it?'];
/** Largest log the controller takes in one upload (CONTRACT: context bodies up to 64 MiB). */

export function ChatPage({ chatId }: { chatId: number }) {
  const [chat, setChat] = useState<Chat | null>(null);
  // When the chat's context was last uploaded: a chat with a log but no job is not "no log" (ux3, session 42).
  const [uploadedAt, setUploadedAt] = useState<string | null>(null);
  // Whether the chat's job and last upload were read (false while loading or when the backend did not answer).
  const [chatKnown, setChatKnown] = useState(false);
  const [pairs, setPairs] = useState<QaPair[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [notFound, setNotFound] = useState(false);
  const [live, setLive] = useState<Live | null>(null);
  const [draft, setDraft] = useState('');
  const [editing, setEditing] = useState<number | null>(null);
  const [viewer, setViewer] = useState<Viewer>(null);
  const [upload, setUpload] = useState<{ name: string; sent: number; total: number; done?: boolean; error?: string } | null>(null);
  const [dragging, setDragging] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const bottom = useRef<HTMLDivElement>(null);

  const load = useCallback(async () => {
    try {
      const page = await api.pairs(chatId);
      setPairs([...page.items].reverse());
      setProblem(null);
    } catch (err) {
      if ((err as { status?: number }).status === 404) setNotFound(true);
      else setProblem((err as Error).message);
    }
  }, [chatId]);

  const loadChat = useCallback(async () => {
    let failed = false;
    const failing = (): undefined => {
      failed = true;
      return undefined;
    };
    const [found, upload] = await Promise.all([findChat(chatId).catch(failing), api.lastUpload(chatId).catch(failing)]);
    setChat(found ?? null);
    setUploadedAt(upload?.last_upload_at ?? null);
    setChatKnown(!failed);
  }, [chatId]);

  useEffect(() => {
    void load();
    void loadChat();
    return () => abort.current?.abort();
  }, [load, loadChat]);

  // For `npm run bench -- web`: the moment the chat is on screen and takes input.
  const shownOnce = pairs !== null;
  useEffect(() => {
    if (shownOnce) performance.mark('cichat:chat-ready');
  }, [shownOnce]);

  // An answer streaming elsewhere (the watcher diagnosing this build, another tab): follow it.
  const otherStreaming = !live && (pairs ?? []).some((p) => p.answer?.status === 'streaming');
  useEffect(() => {
    if (!otherStreaming) return;
    const timer = setInterval(() => void load(), 1000);
    return () => clearInterval(timer);
  }, [otherStreaming, load]);

  useEffect(() => {
    if (live && !live.stopped) bottom.current?.scrollIntoView({ block: 'end' });
  }, [live]);

  const ask = useCallback(
    async (request: StreamRequest, question: string) => {
      if (abort.current) return;
      const controller = new AbortController();
      abort.current = controller;
      setProblem(null);
      setLive({ request, question, text: '', ...(request.kind === 'send' ? {} : { fromPairId: request.pairId }) });
      try {
        await streamAnswer(
          request,
          (event) => {
            switch (event.event) {
              case 'started':
                setLive((l) => (l ? { ...l, pairId: event.qa_pair_id } : l));
                break;
              case 'chunk':
                setLive((l) => (l ? { ...l, text: l.text + event.content } : l));
                break;
              case 'error':
                setLive((l) => (l ? { ...l, error: event.detail } : l));
                break;
              case 'done':
                break;
              default: {
                const never: never = event;
                void never;
              }
            }
          },
          controller.signal,
        );
      } catch (err) {
        setProblem((err as Error).message);
      } finally {
        abort.current = null;
        await load();
        setLive(null);
        void loadChat();
      }
    },
    [load, loadChat],
  );

  const stop = useCallback(() => {
    if (!abort.current) return;
    setLive((l) => (l ? { ...l, stopped: true } : l));
    abort.current.abort();
  }, []);

  // Esc stops the answer wherever the focus is (as in the terminal UI), unless a dialog is open.
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape' && abort.current && !document.querySelector('dialog[open]')) {
        e.preventDefault();
        stop();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [stop]);

  const send = () => {
    const content = draft.trim();
    if (!content || live) return;
    setDraft('');
    void ask({ kind: 'send', chatId, content }, content);
  };

  const onComposerKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };

  const startUpload = async (file: File) => {
    if (file.size === 0) {
      setUpload({ name: file.name, sent: 0, total: 0, error: `${file.name} is empty: nothing was uploaded, the chat keeps its log.` });
      return;
    }
    setUpload({ name: file.name, sent: 0, total: file.size });
    try {
      // Any size: the file is streamed as the body (api.ts uploadLog); a blank log is the backend's 422, the chat keeps its log.
      const about = chat?.job_name ? { jobName: chat.job_name, ...(chat.build_number != null ? { buildNumber: chat.build_number } : {}) } : {};
      await uploadLog(chatId, file, about, (sent, total) => setUpload({ name: file.name, sent, total }));
      setUpload({ name: file.name, sent: file.size, total: file.size, done: true });
      void loadChat();
    } catch (err) {
      setUpload({ name: file.name, sent: 0, total: file.size, error: (err as Error).message });
    }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    if (file) void startUpload(file);
  };

  const openCitation = (c: Citation) => setViewer({ kind: 'log', start: c.start, end: c.end });

  if (notFound) {
    return (
      <div className="error" role="alert">
        <p>Chat {chatId} does not exist, or it is not yours.</p>
        <a href="/chats" onClick={onLinkClick('/chats')}>
          See your chats
        </a>
      </div>
    );
  }

  const hidden = (p: QaPair) => live?.fromPairId !== undefined && p.id >= live.fromPairId;
  const shown = (pairs ?? []).filter((p) => !hidden(p) && p.id !== live?.pairId);
  const job = chat?.job_name ?? null;
  const build = chat?.build_number ?? null;

  return (
    <section
      className={dragging ? 'chat dragging' : 'chat'}
      aria-labelledby="chat-title"
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('Files')) {
          e.preventDefault();
          setDragging(true);
        }
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={onDrop}
    >
      <div className="page-head">
        <div>
          <h1 id="chat-title">{chat?.title ?? `Chat ${chatId}`}</h1>
          <p className="muted about">{aboutLine({ job, build, uploadedAt, known: chatKnown })}</p>
        </div>
        <div className="head-actions">
          <input
            ref={fileInput}
            type="file"
            className="visually-hidden"
            id="log-file"
            aria-label="Choose a build log to upload"
            accept=".log,.txt,text/plain"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void startUpload(file);
              e.target.value = '';
            }}
          />
          <button type="button" onClick={() => fileInput.current?.click()}>
            Upload log
          </button>
        </div>
      </div>
      {dragging ? <div className="drop-hint">Drop the build log to upload it</div> : null}
      {upload ? (
        <div className={upload.error ? 'upload error' : 'upload'} role={upload.error ? 'alert' : 'status'}>
          {upload.error ? (
            upload.error
          ) : upload.done ? (
            <>Uploaded {upload.name}: ask about it below.</>
          ) : (
            <>
              <label htmlFor="upload-progress">
                Uploading {upload.name} ({Math.round(upload.sent / 1024)} of {Math.round(upload.total / 1024)} KiB)
              </label>
              <progress id="upload-progress" max={upload.total || 1} value={upload.sent} />
            </>
          )}
          <button type="button" className="link" aria-label="Dismiss the upload message" onClick={() => setUpload(null)}>
            Dismiss
          </button>
        </div>
      ) : null}
      {problem ? (
        <p className="error" role="alert">
          {problem}
        </p>
      ) : null}
      <ol className="conversation" aria-label="Conversation">
        {showsLoading(pairs, problem) ? (
          <li className="muted" role="status">
            Loading…
          </li>
        ) : null}
        {shown.map((pair) => (
          <PairView
            key={pair.id}
            pair={pair}
            busy={live !== null}
            editing={editing === pair.id}
            isLast={pair === shown[shown.length - 1] && !live}
            onEdit={() => setEditing(pair.id)}
            onEditDone={(content) => {
              setEditing(null);
              if (content !== null) void ask({ kind: 'edit', pairId: pair.id, content }, content);
            }}
            onRetry={() => void ask({ kind: 'retry', pairId: pair.id }, pair.question.content)}
            onCitation={openCitation}
            onSource={(s) => {
              if (s.kind === 'log') setViewer({ kind: 'log', start: s.start_line, end: s.end_line });
              if (s.kind === 'file') setViewer({ kind: 'file', file: { path: s.path, ...(s.start_line ? { line: s.start_line } : {}), ...(s.end_line ? { endLine: s.end_line } : {}) } });
            }}
            canOpenFiles={job !== null && build !== null}
          />
        ))}
        {live ? (
          <li className="pair">
            <div className="question">
              <p>{live.question}</p>
            </div>
            <div className="answer" aria-live="polite" aria-busy={!live.stopped && !live.error}>
              {live.text ? <Markdown text={live.text} onCitation={openCitation} /> : <p className="muted">{live.stopped ? 'Stopped.' : 'Thinking…'}</p>}
              {live.error ? (
                <p className="error" role="alert">
                  {live.error}
                </p>
              ) : null}
            </div>
          </li>
        ) : null}
        {pairs !== null && pairs.length === 0 && !live ? (
          <li className="empty">
            <p className="muted">Ask about the build:</p>
            <div className="suggestions">
              {SUGGESTIONS.map((s) => (
                <button key={s} type="button" onClick={() => void ask({ kind: 'send', chatId, content: s }, s)}>
                  {s}
                </button>
              ))}
            </div>
          </li>
        ) : null}
      </ol>
      <div ref={bottom} />
      <form
        className="composer"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <textarea
          aria-label="Your question"
          placeholder="Ask about this build (Enter sends, Shift+Enter new line, Esc stops)"
          value={draft}
          rows={2}
          maxLength={20000}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onComposerKey}
        />
        {live ? (
          <button type="button" className="danger" onClick={stop}>
            Stop
          </button>
        ) : (
          <button type="submit" disabled={draft.trim() === ''}>
            Send
          </button>
        )}
      </form>
      {viewer?.kind === 'log' ? <LogViewer chatId={chatId} start={viewer.start} end={viewer.end} onClose={() => setViewer(null)} /> : null}
      {viewer?.kind === 'file' && job !== null && build !== null ? <FileViewer job={job} build={build} file={viewer.file} onClose={() => setViewer(null)} /> : null}
    </section>
  );
}

interface PairProps {
  pair: QaPair;
  busy: boolean;
  editing: boolean;
  isLast: boolean;
  canOpenFiles: boolean;
  onEdit: () => void;
  onEditDone: (content: string | null) => void;
  onRetry: () => void;
  onCitation: (c: Citation) => void;
  onSource: (s: Source) => void;
}

function PairView({ pair, busy, editing, isLast, canOpenFiles, onEdit, onEditDone, onRetry, onCitation, onSource }: PairProps) {
  const answer = pair.answer;
  const later = isLast ? '' : ' (the questions after it are removed)';
  return (
    <li className="pair">
      <div className="question">
        {editing ? (
          <EditForm initial={pair.question.content} onDone={onEditDone} />
        ) : (
          <>
            <p>{pair.question.content}</p>
            <div className="pair-actions">
              <time dateTime={pair.question.created_at} className="muted">
                {fullTime(pair.question.created_at)}
              </time>
              <button type="button" className="link" disabled={busy} onClick={onEdit} aria-label={`Edit the question${later}`}>
                Edit
              </button>
            </div>
          </>
        )}
      </div>
      <div className="answer">
        {answer ? (
          <>
            {answer.content ? <Markdown text={answer.content} onCitation={onCitation} /> : <p className="muted">No text.</p>}
            {answer.status !== 'complete' ? (
              <p className={`status status-${answer.status}`}>
                {answer.status === 'streaming' ? 'Answering…' : answer.status === 'interrupted' ? 'Stopped before the end.' : 'The answer failed.'}
              </p>
            ) : null}
            <Sources sources={answer.sources} canOpenFiles={canOpenFiles} onSource={onSource} />
          </>
        ) : (
          <p className="muted">No answer.</p>
        )}
        <div className="pair-actions">
          <button type="button" className="link" disabled={busy || answer?.status === 'streaming'} onClick={onRetry} aria-label={`Retry this answer${later}`}>
            Retry
          </button>
        </div>
      </div>
    </li>
  );
}

function Sources({ sources, canOpenFiles, onSource }: { sources: Source[]; canOpenFiles: boolean; onSource: (s: Source) => void }) {
  const shown = sources.filter((s) => s.kind === 'log' || s.kind === 'file' || s.kind === 'context');
  if (shown.length === 0) return null;
  return (
    <div className="sources">
      <span className="muted">Sources:</span>
      <ul>
        {shown.map((s, i) => {
          if (s.kind === 'log') {
            const label = s.start_line === s.end_line ? `log line ${s.start_line}` : `log lines ${s.start_line}-${s.end_line}`;
            return (
              <li key={i}>
                <button type="button" className="chip" onClick={() => onSource(s)} aria-label={`Show ${label}`}>
                  {label}
                </button>
              </li>
            );
          }
          if (s.kind === 'file') {
            const label = fileSourceLabel(s);
            return (
              <li key={i}>
                {canOpenFiles ? (
                  <button type="button" className="chip" onClick={() => onSource(s)} aria-label={`Open ${label}`}>
                    {label}
                  </button>
                ) : (
                  <span className="chip">{label}</span>
                )}
              </li>
            );
          }
          return (
            <li key={i}>
              <span className="chip">{s.kind === 'context' ? s.field : ''}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function EditForm({ initial, onDone }: { initial: string; onDone: (content: string | null) => void }) {
  const [text, setText] = useState(initial);
  const save = () => {
    const t = text.trim();
    onDone(t ? t : null);
  };
  return (
    <form
      className="edit"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <textarea
        aria-label="Edited question"
        value={text}
        autoFocus
        rows={3}
        maxLength={20000}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            save();
          }
          if (e.key === 'Escape') {
            e.stopPropagation();
            onDone(null);
          }
        }}
      />
      <div className="pair-actions">
        <button type="submit">Save and ask again</button>
        <button type="button" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
