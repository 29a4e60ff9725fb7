/** A new chat about a job and build of JENKINS_HOME (the controller reads its context), or a blank one. */
import { useState, type FormEvent } from 'react';
import { api } from './api.js';
import { navigate } from './router.js';

export function NewChatPage() {
  const [job, setJob] = useState('');
  const [build, setBuild] = useState('');
  const [title, setTitle] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    const jobName = job.trim().replace(/^\/+|\/+$/g, '');
    const buildText = build.trim().replace(/^#/, '');
    if (buildText !== '' && !/^[1-9]\d{0,9}$/.test(buildText)) return setProblem('Build: a build number such as 42, or empty for the last build.');
    if (buildText !== '' && jobName === '') return setProblem('Job: name the job the build belongs to.');
    const buildNumber = buildText === '' ? undefined : Number(buildText);
    const chatTitle = title.trim() || (jobName ? `${jobName}${buildNumber !== undefined ? ` #${buildNumber}` : ''}` : 'New Chat');
    setBusy(true);
    try {
      const chat = await api.createChat(chatTitle.slice(0, 200));
      if (jobName) {
        try {
          await api.contextAbout(chat.id, jobName, buildNumber);
        } catch (err) {
          // The chat would be about nothing: remove it, keep the form as typed.
          await api.deleteChat(chat.id).catch(() => undefined);
          throw err;
        }
      }
      navigate(`/chats/${chat.id}`);
    } catch (err) {
      setProblem((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="new-title">
      <h1 id="new-title">New chat</h1>
      <form className="card new-chat" onSubmit={(e) => void submit(e)}>
        <p className="muted">
          Name a job of this Jenkins (folders with <code>/</code>, e.g. <code>team/api</code>) and a build: cichat reads its log, test results and
          settings. Leave both empty for a chat without context; you can upload a log in the chat.
        </p>
        <label htmlFor="job">Job</label>
        <input id="job" value={job} onChange={(e) => setJob(e.target.value)} placeholder="team/api" autoComplete="off" />
        <label htmlFor="build">Build number</label>
        <input id="build" value={build} onChange={(e) => setBuild(e.target.value)} inputMode="numeric" placeholder="last build" autoComplete="off" />
        <label htmlFor="title">Title (optional)</label>
        <input id="title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} autoComplete="off" />
        {problem ? (
          <p className="error" role="alert">
            {problem}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          {busy ? 'Reading the build…' : 'Start chat'}
        </button>
      </form>
    </section>
  );
}
