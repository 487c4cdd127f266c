/**
 * @module views/sign-in
 * Username and password for a key (`POST /api/v1/auth/`), kept in session storage.
 */
import { useState } from "preact/hooks";
import { api, ApiError } from "../api.js";
import { session } from "../session.js";

export function SignIn() {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError("");
    try {
      const { api_key } = await api<{ api_key: string }>("/auth/", { method: "POST", json: { username, password } });
      session.signIn(api_key, username);
    } catch (err) {
      setError(err instanceof ApiError ? `${err.error}: ${err.detail}` : "the server could not be reached");
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="signin">
      <h1>Records Service</h1>
      <form onSubmit={submit} aria-describedby={error ? "signin-error" : undefined}>
        <label for="username">Username</label>
        <input id="username" name="username" autocomplete="username" required value={username} onInput={(e) => setUsername(e.currentTarget.value)} />
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        {error && (
          <p id="signin-error" class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
