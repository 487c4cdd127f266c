import { describe, expect, it } from "vitest";
import { RecordsError } from "../errors.js";
import { triggersView, validateTriggers, webhookUrlProblem } from "./config.js";

const hook = { flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: "https://example.org/hook" };
const email = { flock: "demo", trigger: "expiring_2wk", action: "send-templated-email", template: "reminder" };

/** The detail of the error `validateTriggers` throws for `entries`. */
function problem(entries: unknown, options = {}): string {
  try {
    validateTriggers(entries, options);
  } catch (e) {
    expect(e).toBeInstanceOf(RecordsError);
    expect((e as RecordsError).code).toBe("bad_request");
    return (e as RecordsError).detail;
  }
  throw new Error("expected validateTriggers to refuse");
}

describe("validateTriggers: good entries", () => {
  it("accepts the contract's sample entry and normalises it", () => {
    const sample = {
      flock: "demo",
      trigger: "contact_created",
      action: "send-json-webhook",
      url: "https://example.org/hook",
      template: "",
      active: true,
      comment: "",
      conditional_templates: { template: [{ order: 1, template: "welcome", conditions: [{ tags: "vip" }] }] },
    };
    expect(validateTriggers([sample])).toEqual({
      triggers: [
        {
          flock: "demo",
          trigger: "contact_created",
          event: "contact",
          variation: "created",
          action: "send-json-webhook",
          url: "https://example.org/hook",
          template: null,
          active: true,
          comment: "",
          conditionalTemplates: { template: [{ order: 1, template: "welcome", conditions: [{ tags: "vip" }] }] },
        },
      ],
      warnings: [],
    });
  });

  it.each([
    ["one webhook and one email on a trigger", [hook, { ...hook, action: "send-templated-email", url: null, template: "welcome" }]],
    ["the same action on two triggers", [hook, { ...hook, trigger: "reservation_created" }]],
    ["the same trigger and action in two flocks", [hook, { ...hook, flock: "other" }]],
    ["both webhook actions on one trigger", [hook, { ...hook, action: "send-webhook" }]],
    ["an email with conditional templates as JSON and no template", [{ ...email, template: undefined, conditional_templates: '{"template":[]}' }]],
    ["a draft email", [{ ...email, action: "draft-templated-email" }]],
    ["a fixed address", [{ ...email, action: "send-email-to-fixed-address", url: "ops@example.org" }]],
    ["a fixed address as mailto:", [{ ...email, action: "send-email-to-fixed-address", url: "mailto:ops@example.org" }]],
    ["an inactive trigger with a comment", [{ ...hook, active: false, comment: "paused" }]],
    ["a flow-board state trigger", [{ ...hook, trigger: "reservation_state_new_to_confirmed" }]],
    ["an empty list", []],
  ])("accepts %s", (_, entries) => {
    expect(validateTriggers(entries).triggers).toHaveLength(entries.length);
  });

  it("keeps the fixed address without mailto:", () => {
    const { triggers } = validateTriggers([{ ...email, action: "send-email-to-fixed-address", url: "mailto:ops@example.org" }]);
    expect(triggers[0]!.url).toBe("ops@example.org");
  });

  it("accepts http:// only with allowInsecureUrls", () => {
    const entry = { ...hook, url: "http://127.0.0.1:9000/hook" };
    expect(validateTriggers([entry], { allowInsecureUrls: true }).triggers[0]!.url).toBe("http://127.0.0.1:9000/hook");
    expect(problem([entry])).toMatch(/https/);
  });

  it("warns about deprecated names and actions", () => {
    const { warnings } = validateTriggers([{ ...hook, action: "send-webhook", trigger: "renewing_1wk_commerce" }]);
    expect(warnings).toEqual([
      "triggers[0] (renewing_1wk_commerce, send-webhook): trigger renewing_1wk_commerce is deprecated",
      "triggers[0] (renewing_1wk_commerce, send-webhook): action send-webhook is deprecated; use send-json-webhook",
    ]);
  });
});

describe("validateTriggers: bad entries are refused, naming the entry and the problem", () => {
  it.each([
    { name: "unknown event", entries: [hook, { ...hook, trigger: "contact_create" }], detail: /^triggers\[1\] \(contact_create, send-json-webhook\): unknown trigger "contact_create"; did you mean contact_created\?/ },
    { name: "unknown variation", entries: [{ ...hook, trigger: "expiring_5wk" }], detail: /triggers\[0\].*unknown trigger "expiring_5wk"; did you mean expiring_4wk/ },
    { name: "unknown action", entries: [{ ...hook, action: "send-sms" }], detail: /triggers\[0\].*unknown action "send-sms"; expected one of send-templated-email, .*send-webhook/ },
    {
      name: "two actions of one type",
      entries: [hook, email, { ...hook, url: "https://example.org/other" }],
      detail: /^triggers\[2\] \(contact_created, send-json-webhook\): a second send-json-webhook action for trigger contact_created in flock demo \(the first is triggers\[0\]\)/,
    },
    { name: "an http URL", entries: [{ ...hook, url: "http://example.org/hook" }], detail: /triggers\[0\].*url "http:\/\/example.org\/hook" must be a full https:\/\/ URL \(http:\/\/ is accepted only with webhooks.allowInsecureUrls/ },
    { name: "a relative URL", entries: [{ ...hook, url: "/hook" }], detail: /url "\/hook" must be a full https:\/\/ URL/ },
    { name: "a URL with spaces", entries: [{ ...hook, url: "https://example.org/a hook" }], detail: /must be a full https/ },
    { name: "an ftp URL", entries: [{ ...hook, url: "ftp://example.org/hook" }], detail: /must be a full https/ },
    { name: "a webhook without URL", entries: [{ ...hook, url: undefined }], detail: /triggers\[0\].*url is required: a full https:\/\/ URL/ },
    {
      name: "invalid conditional-template JSON",
      entries: [{ ...email, conditional_templates: '{"template": [' }],
      detail: /^triggers\[0\] \(expiring_2wk, send-templated-email\): conditional_templates of trigger expiring_2wk: invalid JSON/,
    },
    {
      name: "a conditional-template rule set of the wrong shape",
      entries: [{ ...email, conditional_templates: { template: [{ order: 1 }] } }],
      detail: /conditional_templates of trigger expiring_2wk: template\.0\.template/,
    },
    { name: "an email with nothing to send", entries: [{ ...email, template: "" }], detail: /send-templated-email needs a template or conditional_templates/ },
    { name: "a URL on an email action", entries: [{ ...email, url: "https://example.org" }], detail: /url is not used by send-templated-email/ },
    { name: "a fixed-address action without an address", entries: [{ ...email, action: "send-email-to-fixed-address" }], detail: /url must hold the fixed address/ },
    { name: "a fixed address that is not one", entries: [{ ...email, action: "send-email-to-fixed-address", url: "ops" }], detail: /url must hold the fixed address .* got "ops"/ },
    { name: "an unknown key", entries: [{ ...hook, hook_url: "x" }], detail: /^triggers\[0\] \(contact_created, send-json-webhook\): unknown key "hook_url"/ },
    { name: "a wrong type", entries: [{ ...hook, active: "yes" }], detail: /triggers\[0\].*active: expected boolean, got "yes"/ },
    { name: "a missing flock", entries: [{ trigger: "login", action: "send-json-webhook", url: "https://x.org" }], detail: /triggers\[0\] \(login, send-json-webhook\): flock is required/ },
    { name: "an entry that is not an object", entries: ["contact_created"], detail: /^triggers\[0\]: expected an object, got "contact_created"/ },
    { name: "not a list", entries: { triggers: [] }, detail: /^triggers: expected an array/ },
  ])("$name", ({ entries, detail }) => {
    expect(problem(entries)).toMatch(detail);
  });

  it("reports every problem at once", () => {
    const detail = problem([{ ...hook, trigger: "nope" }, { ...email, action: "nope" }]);
    expect(detail).toMatch(/triggers\[0\].*unknown trigger "nope"/);
    expect(detail).toMatch(/triggers\[1\].*unknown action "nope"/);
  });

  it("checks that named templates exist, when told how", () => {
    const templateExists = (flock: string, name: string) => flock === "demo" && name === "reminder";
    expect(validateTriggers([email], { templateExists }).triggers).toHaveLength(1);
    const entries = [{ ...email, conditional_templates: { template: [{ order: 1, template: "vip", conditions: [] }] } }];
    expect(problem(entries, { templateExists })).toMatch(/template "vip" does not exist in flock demo/);
  });
});

describe("webhookUrlProblem", () => {
  it.each([
    ["https://example.org/hook", false, null],
    ["https://example.org:8443/a?b=c", false, null],
    ["HTTPS://EXAMPLE.ORG/", false, null],
    ["http://example.org/", true, null],
    ["http://example.org/", false, /https/],
    ["https://", false, /must be/],
    ["example.org/hook", false, /must be/],
    ["", false, /required/],
    [null, false, /required/],
  ])("%j (insecure allowed: %s)", (url, insecure, expected) => {
    const p = webhookUrlProblem(url, insecure);
    if (expected === null) expect(p).toBeNull();
    else expect(p).toMatch(expected);
  });

  it.each([
    { url: "https://10.0.0.5/hook", flags: {}, refused: true },
    { url: "https://127.0.0.1:8443/hook", flags: {}, refused: true },
    { url: "https://[::1]/hook", flags: {}, refused: true },
    { url: "https://[::ffff:192.168.0.1]/hook", flags: {}, refused: true },
    { url: "https://169.254.169.254/latest/meta-data", flags: {}, refused: true },
    { url: "https://localhost/hook", flags: {}, refused: true },
    { url: "https://localhost./", flags: {}, refused: true },
    { url: "https://api.localhost./hook", flags: {}, refused: true },
    { url: "https://10.0.0.1./", flags: {}, refused: true },
    { url: "https://10.0.0.1../", flags: {}, refused: true },
    { url: "https://localhost./", flags: { allowPrivateTargets: true }, refused: false },
    { url: "https://hooks.example.org./hook", flags: {}, refused: false },
    { url: "https://10.0.0.5/hook", flags: { allowPrivateTargets: true }, refused: false },
    { url: "http://127.0.0.1:9/hook", flags: { allowInsecureUrls: true }, refused: false },
    { url: "https://hooks.example.org/hook", flags: {}, refused: false },
    { url: "https://8.8.8.8/hook", flags: {}, refused: false },
  ])("a literal private address or localhost: $url with $flags → refused: $refused", ({ url, flags, refused }) => {
    const p = webhookUrlProblem(url, "allowInsecureUrls" in flags, "allowPrivateTargets" in flags);
    if (refused) expect(p).toMatch(/points at .*; webhook targets in private, loopback and link-local ranges are refused unless webhooks.allowPrivateTargets/);
    else expect(p).toBeNull();
  });

  it("validateTriggers refuses a literal private address at config time, naming the entry", () => {
    const entry = { ...hook, url: "https://192.168.1.20/hook" };
    expect(problem([entry])).toBe(
      'triggers[0] (contact_created, send-json-webhook): url "https://192.168.1.20/hook" points at 192.168.1.20, a private address; webhook targets in private, loopback and link-local ranges are refused unless webhooks.allowPrivateTargets (or allowInsecureUrls) is set',
    );
    expect(validateTriggers([entry], { allowPrivateTargets: true }).triggers[0]!.url).toBe("https://192.168.1.20/hook");
  });
});

describe("triggersView", () => {
  it("groups a flock's triggers by name, in configuration order", () => {
    const { triggers } = validateTriggers([
      hook,
      { ...email, comment: "two weeks out" },
      { ...hook, action: "send-templated-email", url: null, template: "welcome" },
      { ...hook, flock: "other" },
    ]);
    expect(triggersView(triggers, "demo")).toEqual({
      contact_created: [
        { trigger: "contact_created", action: "send-json-webhook", template: "", url: "https://example.org/hook", active: true, comment: "" },
        { trigger: "contact_created", action: "send-templated-email", template: "welcome", url: null, active: true, comment: "" },
      ],
      expiring_2wk: [
        { trigger: "expiring_2wk", action: "send-templated-email", template: "reminder", url: null, active: true, comment: "two weeks out" },
      ],
    });
    expect(Object.keys(triggersView(triggers))).toEqual(["contact_created", "expiring_2wk"]);
    expect(triggersView(triggers).contact_created).toHaveLength(3);
    expect(triggersView(triggers, "nobody")).toEqual({});
  });

  it("hides credentials and query strings of webhook URLs unless revealUrls (administrators)", () => {
    const secretUrl = "https://user:pw@hooks.example.org/in?token=abc";
    const { triggers } = validateTriggers([
      { ...hook, url: secretUrl },
      { ...email, action: "send-email-to-fixed-address", url: "ops@example.org" },
    ]);
    const shown = triggersView(triggers, "demo");
    expect(shown.contact_created![0]!.url).toBe("https://***@hooks.example.org/in?***");
    expect(shown.expiring_2wk![0]!.url).toBe("ops@example.org");
    expect(JSON.stringify(shown)).not.toMatch(/pw|token|abc/);
    expect(triggersView(triggers, "demo", { revealUrls: true }).contact_created![0]!.url).toBe(secretUrl);
  });
});
