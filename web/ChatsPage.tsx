/** Every chat of the caller, most recent first: job and build columns, rename, delete (confirmed). */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Chat } from '../protocol/types.js';
import { api } from './api.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { onLinkClick } from './router.js';
import { age, fullTime } from './time.js';
import { useLoad } from './useLoad.js';
import { logOnlyLabels } from '../protocol/chatTitle.js';

const PAGE = 50;

export function ChatsPage() {
  const [offset, setOffset] = useState(0);
  const [loaded, reload] = useLoad(() => api.chats(PAGE, offset), [offset]);
  // The last chat of the last page deleted: show the page before it.
  const emptyPage = loaded.state === 'ok' && loaded.value.items.length === 0 && offset > 0;
  useEffect(() => {
    if (emptyPage) setOffset((o) => Math.max(0, o - PAGE));
  }, [emptyPage]);
  const [renaming, setRenaming] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<Chat | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const remove = async (chat: Chat) => {
    setDeleting(null);
    try {
      await api.deleteChat(chat.id);
      await reload();
    } catch (err) {
      setProblem((err as Error).message);
    }
  };

  return (
    <section aria-labelledby="chats-title">
      <div className="page-head">
        <h1 id="chats-title">Chats</h1>
        <a className="button" href="/new" onClick={onLinkClick('/new')}>
          New chat
        </a>
      </div>
      {problem ? (
        <p className="error" role="alert">
          {problem}
        </p>
      ) : null}
      {loaded.state === 'loading' ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : loaded.state === 'error' ? (
        <p className="error" role="alert">
          {loaded.message}
        </p>
      ) : loaded.value.items.length === 0 ? (
        <p className="muted">No chat yet.</p>
      ) : (
        <>
          <table className="chats">
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Job</th>
                <th scope="col">Build</th>
                <th scope="col">Updated</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {loaded.value.items.map((chat) => (
                <tr key={chat.id}>
                  <td className="title-cell">
                    {renaming === chat.id ? (
                      <RenameForm
                        chat={chat}
                        onDone={async (title) => {
                          setRenaming(null);
                          if (title === null || title === chat.title) return;
                          try {
                            await api.rename(chat.id, title);
                            await reload();
                          } catch (err) {
                            setProblem((err as Error).message);
                          }
                        }}
                      />
                    ) : (
                      <a href={`/chats/${chat.id}`} onClick={onLinkClick(`/chats/${chat.id}`)}>
                        {chat.title}
                      </a>
                    )}
                  </td>
                  <td data-label="Job">
                    {chat.job_name ??
                      (logOnlyLabels(chat) !== undefined ? (
                        <span className="muted" title="No Jenkins record: the job the chat's title names (from its log)">
                          {logOnlyLabels(chat)?.job}
                        </span>
                      ) : (
                        <span className="muted">none</span>
                      ))}
                  </td>
                  <td data-label="Build">{chat.build_number != null ? `#${chat.build_number}` : <span className="muted">{logOnlyLabels(chat)?.build ?? 'none'}</span>}</td>
                  <td data-label="Updated">
                    <time dateTime={chat.updated_at} title={fullTime(chat.updated_at)}>
                      {age(chat.updated_at)}
                    </time>
                  </td>
                  <td className="row-actions">
                    <button type="button" aria-label={`Rename ${chat.title}`} onClick={() => setRenaming(chat.id)}>
                      Rename
                    </button>
                    <button type="button" className="danger" aria-label={`Delete ${chat.title}`} onClick={() => setDeleting(chat)}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {loaded.value.total_items > PAGE ? (
            <nav className="pager" aria-label="Chat pages">
              <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
                Newer chats
              </button>
              <span className="muted">
                {offset + 1}-{offset + loaded.value.items.length} of {loaded.value.total_items}
              </span>
              <button type="button" disabled={offset + PAGE >= loaded.value.total_items} onClick={() => setOffset(offset + PAGE)}>
                Older chats
              </button>
            </nav>
          ) : null}
        </>
      )}
      {deleting ? (
        <ConfirmDialog
          title={`Delete "${deleting.title}"?`}
          body="Its questions, answers and uploaded log are deleted. This cannot be undone."
          confirm="Delete"
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        />
      ) : null}
    </section>
  );
}

function RenameForm({ chat, onDone }: { chat: Chat; onDone: (title: string | null) => Promise<void> }) {
  const [title, setTitle] = useState(chat.title);
  const input = useRef<HTMLInputElement>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const t = title.trim();
    void onDone(t.length >= 1 && t.length <= 200 ? t : null);
  };
  return (
    <form className="rename" onSubmit={submit}>
      <input
        ref={input}
        aria-label={`New title for ${chat.title}`}
        value={title}
        maxLength={200}
        autoFocus
        onChange={(e) => setTitle(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') void onDone(null);
        }}
      />
      <button type="submit">Save</button>
      <button type="button" onClick={() => void onDone(null)}>
        Cancel
      </button>
    </form>
  );
}
