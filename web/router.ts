/** A few stable URLs (`/failures`, `/chats`, `/chats/<id>`, `/new`) on the History API. */
import { useEffect, useState } from 'react';

export type Route = { page: 'failures' } | { page: 'chats' } | { page: 'chat'; chatId: number } | { page: 'new' } | { page: 'unknown'; path: string };

export function routeOf(path: string): Route {
  const p = path.replace(/\/+$/, '') || '/';
  if (p === '/' || p === '/failures') return { page: 'failures' };
  if (p === '/chats') return { page: 'chats' };
  if (p === '/new') return { page: 'new' };
  const m = /^\/chats\/([1-9]\d{0,15})$/.exec(p);
  if (m?.[1]) return { page: 'chat', chatId: Number(m[1]) };
  return { page: 'unknown', path: p };
}

const listeners = new Set<() => void>();

export function navigate(path: string): void {
  if (path === location.pathname) return;
  history.pushState(null, '', path);
  for (const l of listeners) l();
  window.scrollTo(0, 0);
}

export function useRoute(): Route {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return routeOf(path);
}

/** A same-page link: a real `<a href>` (open in a new tab works) that navigates without a reload. */
export function onLinkClick(path: string) {
  return (e: { button: number; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; altKey: boolean; preventDefault(): void }) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(path);
  };
}
