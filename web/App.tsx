/**
 * The page: a header with the three places (recent failures, chats, a new chat) and the page of
 * the URL. In `tokens` mode the controller answers 401 until a token is given: the page asks
 * once and keeps it for this tab's session (sessionStorage).
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { ApiError, checkAccess, setUnauthorizedHandler, storeToken, storedToken } from './api.js';
import { ChatPage } from './ChatPage.js';
import { ChatsPage } from './ChatsPage.js';
import { FailuresPage } from './FailuresPage.js';
import { NewChatPage } from './NewChatPage.js';
import { onLinkClick, useRoute, type Route } from './router.js';

type Access = { state: 'checking' } | { state: 'ok' } | { state: 'token'; problem?: string } | { state: 'down'; problem: string };

export function App() {
  const route = useRoute();
  // The page is shown at once (no round trip first): the first 401 of any call asks for a token.
  const [access, setAccess] = useState<Access>({ state: 'ok' });

  const check = useCallback(async () => {
    try {
      await checkAccess(storedToken());
      setAccess({ state: 'ok' });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) setAccess({ state: 'token' });
      else setAccess({ state: 'down', problem: (err as Error).message });
    }
  }, []);

  useEffect(() => {
    setUnauthorizedHandler(() => {
      const had = storedToken() !== null;
      storeToken(null);
      setAccess({ state: 'token', ...(had ? { problem: 'The controller refused the saved token: enter a valid one.' } : {}) });
    });
  }, []);

  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <a className="brand" href="/failures" onClick={onLinkClick('/failures')}>
          cichat
        </a>
        <nav aria-label="Main">
          <NavLink path="/failures" current={route.page === 'failures'}>
            Failures
          </NavLink>
          <NavLink path="/chats" current={route.page === 'chats' || route.page === 'chat'}>
            Chats
          </NavLink>
          <NavLink path="/new" current={route.page === 'new'}>
            New chat
          </NavLink>
        </nav>
      </header>
      <main id="main">
        {access.state === 'checking' ? (
          <p className="muted" role="status">
            Connecting…
          </p>
        ) : access.state === 'token' ? (
          <TokenForm problem={access.problem} onAccepted={() => setAccess({ state: 'ok' })} />
        ) : access.state === 'down' ? (
          <div className="error" role="alert">
            <p>{access.problem}</p>
            <button type="button" onClick={() => void check()}>
              Try again
            </button>
          </div>
        ) : (
          <Page route={route} />
        )}
      </main>
    </>
  );
}

function NavLink({ path, current, children }: { path: string; current: boolean; children: string }) {
  return (
    <a href={path} onClick={onLinkClick(path)} {...(current ? { 'aria-current': 'page' as const } : {})}>
      {children}
    </a>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'failures':
      return <FailuresPage />;
    case 'chats':
      return <ChatsPage />;
    case 'chat':
      return <ChatPage key={route.chatId} chatId={route.chatId} />;
    case 'new':
      return <NewChatPage />;
    case 'unknown':
      return (
        <div className="error" role="alert">
          Nothing here at {route.path}.{' '}
          <a href="/failures" onClick={onLinkClick('/failures')}>
            See the recent failures
          </a>
          .
        </div>
      );
    default: {
      const never: never = route;
      return <>{String(never)}</>;
    }
  }
}

function TokenForm({ problem, onAccepted }: { problem: string | undefined; onAccepted: () => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState(problem);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = token.trim();
    if (!value) return setError('Enter your cichat token.');
    setBusy(true);
    try {
      await checkAccess(value);
      storeToken(value);
      onAccepted();
    } catch (err) {
      setError(err instanceof ApiError && err.status === 401 ? 'This token was refused by the controller.' : (err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card token" onSubmit={(e) => void submit(e)} aria-labelledby="token-title">
      <h1 id="token-title">Sign in</h1>
      <p>
        This controller asks for a token (<code>CONTROLLER_AUTH=tokens</code>). Ask your administrator for one (
        <code>cichat token add USER</code>). It is kept for this browser tab only.
      </p>
      <label htmlFor="token">Token</label>
      <input id="token" type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} autoFocus />
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" disabled={busy}>
        {busy ? 'Checking…' : 'Sign in'}
      </button>
    </form>
  );
}
