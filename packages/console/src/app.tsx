/**
 * @module app
 * The shell: sign-in until there is a key, then a header (flock, sections, sign out) and
 * the view the URL names. The flock's change feed is followed here, once, and handed to
 * the views, which refresh what they show when a change concerns them. The view is guarded:
 * should it ever fail to render, the header stays and the page says so, until the next
 * address.
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import { useOutboxAllowed } from "./access.js";
import { followChanges } from "./feed.js";
import { createHub, type Live } from "./live.js";
import { hrefOf, useRoute } from "./route.js";
import { session } from "./session.js";
import { useShortcuts } from "./shortcuts.js";
import { Dashboard } from "./views/dashboard.js";
import { FlockHome, FlockPicker } from "./views/flocks.js";
import { Guard } from "./views/guard.js";
import { Indexes } from "./views/indexes.js";
import { SEARCH_BOX_ID } from "./views/list-search.js";
import { Outbox } from "./views/outbox.js";
import { RecordList } from "./views/record-list.js";
import { RecordNew } from "./views/record-new.js";
import { RecordView } from "./views/record-view.js";
import { SignIn } from "./views/sign-in.js";
import { Tasks } from "./views/tasks.js";
import { Triggers } from "./views/triggers.js";

export function App() {
  const [key, setKey] = useState(session.key());
  useEffect(() => session.watch(() => setKey(session.key())), []);
  const route = useRoute();
  const hub = useMemo(createHub, []);
  const [status, setStatus] = useState<Live["status"]>("off");
  const live = useMemo<Live>(() => ({ status, subscribe: hub.subscribe }), [status, hub]);
  useEffect(() => {
    if (!key || !route.flock) return;
    setStatus("reconnecting");
    const stop = followChanges(route.flock, hub.publish, setStatus);
    return () => {
      stop();
      setStatus("off");
    };
  }, [key, route.flock]);
  useShortcuts(SEARCH_BOX_ID);
  const outbox = useOutboxAllowed(route.flock, key);

  if (!key) return <SignIn />;
  const { flock, section, id } = route;
  const nav = (target: string, label: string) => (
    <a href={hrefOf([flock, target])} aria-current={section === target ? "page" : undefined}>
      {label}
    </a>
  );
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById("main")?.focus())}>
        Skip to content
      </a>
      <header class="bar">
        <a class="brand" href={hrefOf([])}>
          Records
        </a>
        {flock && (
          <nav aria-label="Sections">
            <a href={hrefOf([flock])} aria-current={!section ? "page" : undefined}>
              {flock}
            </a>
            {nav("_dashboard", "Dashboard")}
            {nav("_triggers", "Triggers")}
            {outbox && nav("_outbox", "Outbox")}
            {nav("_tasks", "Tasks")}
            {nav("_indexes", "Indexes")}
          </nav>
        )}
        <span class="grow" />
        {flock && (
          <span class={`live ${live.status}`} role="status">
            {live.status === "live" ? "Live" : live.status === "reconnecting" ? "Reconnecting…" : ""}
          </span>
        )}
        <span class="user">{session.user()}</span>
        <button type="button" onClick={() => session.signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Guard resetKey={`${flock ?? ""}/${section ?? ""}/${id ?? ""}?${route.params.toString()}`}>
          {!flock ? (
            <FlockPicker />
          ) : !section ? (
            <FlockHome flock={flock} live={live} />
          ) : section === "_triggers" ? (
            <Triggers flock={flock} />
          ) : section === "_dashboard" ? (
            <Dashboard flock={flock} live={live} outbox={outbox === true} />
          ) : section === "_outbox" && outbox === false ? (
            <p role="alert">The outbox is for administrators; this account cannot open it.</p>
          ) : section === "_outbox" ? (
            <Outbox flock={flock} live={live} />
          ) : section === "_tasks" ? (
            <Tasks flock={flock} live={live} />
          ) : section === "_indexes" ? (
            <Indexes flock={flock} />
          ) : id === "_new" ? (
            <RecordNew flock={flock} type={section} />
          ) : id ? (
            <RecordView flock={flock} type={section} id={id} live={live} />
          ) : (
            <RecordList flock={flock} type={section} params={route.params} live={live} />
          )}
        </Guard>
      </main>
    </>
  );
}
