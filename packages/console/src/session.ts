/**
 * @module session
 * The signed-in key, kept in session storage (gone when the tab closes; never in local
 * storage or a cookie). Views re-render when it changes.
 */
const KEY = "records-console.key";
const USER = "records-console.user";
const listeners = new Set<() => void>();

export const session = {
  key: (): string | null => sessionStorage.getItem(KEY),
  user: (): string | null => sessionStorage.getItem(USER),
  signIn(key: string, user: string): void {
    sessionStorage.setItem(KEY, key);
    sessionStorage.setItem(USER, user);
    listeners.forEach((l) => l());
  },
  signOut(): void {
    sessionStorage.removeItem(KEY);
    sessionStorage.removeItem(USER);
    listeners.forEach((l) => l());
  },
  /** Calls `l` on sign in and out; returns the unsubscribe function. */
  watch(l: () => void): () => void {
    listeners.add(l);
    return () => void listeners.delete(l);
  },
};
