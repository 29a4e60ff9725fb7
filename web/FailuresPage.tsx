/** Recent failed builds the watcher diagnosed: job, build, the one-line cause, unread, age. */
import { useEffect } from 'react';
import { api } from './api.js';
import { onLinkClick } from './router.js';
import { age, fullTime } from './time.js';
import { useLoad } from './useLoad.js';

export function FailuresPage() {
  const [loaded, reload] = useLoad(() => api.failures(50), []);
  // The watcher adds failures as builds end: look again now and then while the page is open.
  useEffect(() => {
    const timer = setInterval(() => void reload(), 15000);
    return () => clearInterval(timer);
  }, [reload]);

  return (
    <section aria-labelledby="failures-title">
      <div className="page-head">
        <h1 id="failures-title">Recent failures</h1>
        <button type="button" onClick={() => void reload()}>
          Refresh
        </button>
      </div>
      {loaded.state === 'loading' ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : loaded.state === 'error' ? (
        <div className={loaded.status === 404 ? 'notice' : 'error'} role={loaded.status === 404 ? 'status' : 'alert'}>
          <p>{loaded.message}</p>
          <p>
            You can still{' '}
            <a href="/new" onClick={onLinkClick('/new')}>
              start a chat about a build
            </a>
            .
          </p>
        </div>
      ) : loaded.value.items.length === 0 ? (
        <p className="muted">{loaded.value.ready ? 'No failed build since the watcher started.' : 'The watcher is reading JENKINS_HOME…'}</p>
      ) : (
        <ul className="failures">
          {loaded.value.items.map((f) => {
            const label = `${f.job} #${f.build}`;
            return (
              <li key={`${f.job}#${f.build}`} className={f.unread ? 'failure unread' : 'failure'}>
                <div className="failure-head">
                  {f.unread ? <span className="dot" aria-label="unread" role="img" /> : null}
                  {f.chat_id !== null ? (
                    <a className="failure-title" href={`/chats/${f.chat_id}`} onClick={onLinkClick(`/chats/${f.chat_id}`)}>
                      {f.job} <span className="build">#{f.build}</span>
                    </a>
                  ) : (
                    <span className="failure-title">
                      {f.job} <span className="build">#{f.build}</span>
                    </span>
                  )}
                  <span className={`result result-${f.result.toLowerCase()}`}>{f.result}</span>
                  <time dateTime={f.detected_at} title={fullTime(f.detected_at)} className="muted">
                    {age(f.detected_at)}
                  </time>
                </div>
                <p className="cause">{f.error ?? f.cause}</p>
                <div className="row-actions">
                  {f.unread && f.chat_id !== null ? (
                    <button type="button" aria-label={`Mark ${label} read`} onClick={() => void api.markRead(f.chat_id as number).then(reload)}>
                      Mark read
                    </button>
                  ) : null}
                  {f.build_url ? (
                    <a href={f.build_url} target="_blank" rel="noopener noreferrer" aria-label={`Open ${label} in Jenkins`}>
                      Jenkins
                    </a>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
