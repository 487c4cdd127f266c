/**
 * The OpenAPI document against the server it describes: every served route is documented
 * and every documented one served; a real OpenAPI validator accepts it; and real answers
 * (a success sample per path where listed, and a probe of every operation) match the
 * schema the document gives for their status.
 */
import { compileErrors, validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { OpenAPIV3_1 } from "openapi-types";
import { beforeAll, describe, expect, it } from "vitest";
import { cardUrl } from "../src/derived/card-signature.js";
import { openApiDocument } from "../src/openapi/document.js";
import { KEYS } from "./helpers/app.js";
import { createV2TestApp, SECRET, seedPeople, type V2TestApp } from "./helpers/v2-app.js";

type Doc = OpenAPIV3_1.Document;
const METHODS = ["get", "put", "post", "delete", "patch"] as const;

/** `METHOD /path/{param}` of every route the app serves (middleware registered for ALL is not a route). */
function servedOperations(t: V2TestApp): Set<string> {
  return new Set(
    // OpenAPI has no wildcard paths: a route under `/x/*` (the console's files) is described at `/x`.
    t.app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/\/\*$/, "")}`),
  );
}

function documentedOperations(doc: Doc): Set<string> {
  const out = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const m of METHODS) if (item?.[m]) out.add(`${m.toUpperCase()} ${path}`);
  }
  return out;
}

/** A validator of the JSON body the document gives `status` on `method path`. */
function makeChecker(doc: Doc) {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ $id: "openapi", components: doc.components }, "openapi");
  return (method: string, path: string, status: number, body: unknown): string | undefined => {
    const op = (doc.paths?.[path] as Record<string, OpenAPIV3_1.OperationObject> | undefined)?.[method.toLowerCase()];
    if (!op) return `${method} ${path} is not documented`;
    const response = op.responses?.[String(status)] as OpenAPIV3_1.ResponseObject | undefined;
    if (!response) return `${method} ${path} answered ${status}, which the document does not list (${Object.keys(op.responses ?? {}).join(", ")})`;
    const schema = response.content?.["application/json"]?.schema;
    if (!schema) return undefined;
    const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'));
    const check = ajv.compile(rebased);
    return check(body) ? undefined : `${method} ${path} ${status}: ${ajv.errorsText(check.errors)} in ${JSON.stringify(body).slice(0, 300)}`;
  };
}

describe("the OpenAPI document", () => {
  let t: V2TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await createV2TestApp();
    const res = await t.call("GET", "/api/openapi.json");
    expect(res.status).toBe(200);
    doc = (await res.json()) as Doc;
  });

  it("documents every served route, and serves every documented one", () => {
    const served = servedOperations(t);
    const documented = documentedOperations(doc);
    expect([...served].filter((op) => !documented.has(op))).toEqual([]);
    expect([...documented].filter((op) => !served.has(op))).toEqual([]);
    expect(served.size).toBeGreaterThan(40);
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
  });

  it("is served without credentials and equals what openApiDocument builds", async () => {
    expect(await openApiDocument(t.app)).toEqual(doc);
    expect(doc.components?.securitySchemes).toHaveProperty("bearerKey");
    expect(doc.components?.securitySchemes).toHaveProperty("selfServiceToken");
    expect(doc.components?.securitySchemes).toHaveProperty("cardSignature");
  });

  it("explains the 16 modifiers and the smart dates on the list paths (v2-only ones only on v2)", () => {
    const filters = (path: string) =>
      ((doc.paths?.[path]?.get?.parameters ?? []) as OpenAPIV3_1.ParameterObject[]).find((p) => p.name === "filters")!.description!;
    const v2 = filters("/api/v2/{flock}/{type}");
    for (const m of ["and", "andlist", "contains", "eq", "gt", "gte", "lt", "lte", "ne", "near", "none", "or", "orlist", "raw", "startswith", "startswithi"]) {
      expect(v2).toContain(`\`__${m}\``);
    }
    expect(v2).toContain("`start_of_month`");
    expect(v2).toContain("`last week`");
    expect(filters("/api/v1/{flock}/{type}")).toContain("v2 only");
  });

  it("gives v1 paths the v1 error body and v2 paths the v2 one", () => {
    const ref = (path: string, method: "get", status: string) =>
      ((doc.paths?.[path]?.[method]?.responses?.[status] as OpenAPIV3_1.ResponseObject).content!["application/json"]!.schema as { $ref: string }).$ref;
    expect(ref("/api/v1/{flock}/{type}/{id}", "get", "404")).toBe("#/components/schemas/ErrorV1");
    expect(ref("/api/v2/{flock}/{type}/{id}", "get", "404")).toBe("#/components/schemas/ErrorV2");
    expect(ref("/selfservice/v2/{flock}/reservations", "get", "401")).toBe("#/components/schemas/ErrorV2");
  });

  it("describes file uploads as multipart on the update paths", () => {
    const body = doc.paths?.["/api/v1/{flock}/{type}/{id}"]?.put?.requestBody as OpenAPIV3_1.RequestBodyObject;
    expect(Object.keys(body.content)).toEqual(["application/json", "multipart/form-data"]);
  });

  it("describes the person fields from core's schema", () => {
    const person = doc.components!.schemas!.PersonFields as { properties: Record<string, { anyOf?: unknown[]; type?: unknown }> };
    expect(Object.keys(person.properties)).toContain("first_name");
    expect(Object.keys(person.properties)).toContain("hide_from_views");
    expect(person.properties.hide_from_views).toEqual({ type: "boolean" });
  });
});

describe("real answers match the documented schemas", () => {
  it("for a success sample of each area and a probe of every operation", async () => {
    // An advancer that only reports, so the clock paths answer as with --clock manual.
    const t = await createV2TestApp({ clockAdvancer: { advance: async (to) => ({ now: to, fired: { expiring_2wk: 1 } }) } }, { flockResourceTypes: { alpha: ["vehicle"] } });
    const doc = (await (await t.call("GET", "/api/openapi.json")).json()) as Doc;
    const check = makeChecker(doc);
    const people = await seedPeople(t);
    const hall = (await t.engine.create("alpha", "bookable", { name: "Hall" })).id;
    const booking = (await t.engine.create("alpha", "reservation", { buyer_ref: `/alpha/person/${people.ada}/`, bookable_ref: `/alpha/bookable/${hall}/` })).id;
    const journal = (await t.engine.create("alpha", "journal", { subject: "x" })).id;
    const deleted = (await t.engine.create("alpha", "journal", { subject: "gone" })).id;
    await t.engine.delete("alpha", "journal", deleted);
    const card = new URL(cardUrl("http://x", SECRET, "alpha", people.adaMember));
    const form = (await t.engine.create("alpha", "form", { name: "Certificate" })).id;
    const membershipType = (await t.engine.create("alpha", "membership_type", { name: "Junior" })).id;
    const sender = (await t.engine.create("alpha", "email_sender", { email: "office@example.org", display_name: "Office", products: [], allow_for_all_users: false, specific_user_list: [] })).id;
    await t.engine.create("alpha", "vehicle", { registration_number: "AB12 CDE" });
    const formResponse = (await t.engine.create("alpha", "form_response", { form_ref: `/alpha/form/${form}/`, contact_ref: `/alpha/person/${people.ada}/`, status: "submitted" })).id;
    const invoice = (await t.engine.create("alpha", "invoice", { person_ref: `/alpha/person/${people.ada}/`, line_items: [{ name: "Hall", price: 10 }] })).id;
    const invoicePdf = ((await (await t.call("GET", `/invoices/v2/alpha/invoice/${invoice}`, { key: KEYS.admin })).json()) as { links: { href: string }[] }).links[0]!.href;
    const upload = () => {
      const form = new FormData();
      form.append("files", new Blob(["hello"], { type: "text/plain" }), "a.txt");
      return form;
    };

    type Sample = [method: string, template: string, path: string, opts?: Parameters<V2TestApp["call"]>[2]];
    const k = { key: KEYS.admin };
    const m = { key: KEYS.member };
    const samples: Sample[] = [
      ["GET", "/api/v1/ping", "/api/v1/ping/"],
      ["GET", "/api/v1/health", "/api/v1/health/"],
      ["POST", "/api/v1/auth", "/api/v1/auth/", { json: { username: "nobody", password: "x" } }],
      ["GET", "/api/v1/_stats/applications", "/api/v1/_stats/applications/", k],
      ["GET", "/api/v1", "/api/v1/", k],
      ["GET", "/api/v1/{flock}", "/api/v1/alpha/", k],
      ["GET", "/api/v1/{flock}/triggers", "/api/v1/alpha/triggers/", k],
      ["GET", "/api/v1/{flock}/outbox", "/api/v1/alpha/outbox/", k],
      ["GET", "/api/v1/{flock}/outbox", "/api/v1/alpha/outbox/?status=nope", k],
      ["POST", "/api/v1/{flock}/bulk_action", "/api/v1/alpha/bulk_action/", { ...k, json: { action: "add_tag", query: {}, value: "x" } }],
      ["POST", "/api/v1/{flock}/user", "/api/v1/alpha/user/", { ...k, json: { email: "new@example.org", password: "pw-123456789" } }],
      ["POST", "/api/v1/{flock}/user/auth", "/api/v1/alpha/user/auth/", { json: { email: "new@example.org", password: "pw-123456789" } }],
      ["POST", "/api/v1/{flock}/user/auth", "/api/v1/alpha/user/auth/", { json: { email: "new@example.org", password: "wrong" } }],
      ["POST", "/api/v1/{flock}/{type}", "/api/v1/alpha/person/", { ...k, json: { first_name: "Lin", email: ["lin@example.org;home"] } }],
      ["POST", "/api/v1/{flock}/{type}", "/api/v1/alpha/person/", { ...k, json: { nope: 1 } }],
      ["GET", "/api/v1/{flock}/{type}", "/api/v1/alpha/person/?last_name__startswithi=l&page_size=2", k],
      ["GET", "/api/v1/{flock}/{type}", "/api/v1/alpha/person/?tags__andlist=a", k],
      ["GET", "/api/v2/{flock}/{type}", "/api/v2/alpha/person/?created__gte=last%20year", k],
      ["GET", "/api/v1/{flock}/{type}/{id}", `/api/v1/alpha/person/${people.ada}/`, k],
      ["GET", "/api/v2/{flock}/{type}/{id}", `/api/v2/alpha/member/${people.adaMember}/`, k],
      ["GET", "/api/v2/{flock}/{type}/{id}", "/api/v2/alpha/person/000000000000000000000000/", k],
      ["PUT", "/api/v1/{flock}/{type}/{id}", `/api/v1/alpha/person/${people.grace}/`, { ...k, json: { last_name: "Hopper-Murray" } }],
      ["PATCH", "/api/v2/{flock}/{type}/{id}", `/api/v2/alpha/journal/${journal}/`, { ...k, json: { subject: "y" } }],
      ["PUT", "/api/v1/{flock}/{type}/{id}", `/api/v1/alpha/journal/${journal}/`, { ...k, body: upload() }],
      ["POST", "/api/v1/{flock}/{type}/{id}/touch", `/api/v1/alpha/journal/${journal}/touch/`, k],
      ["POST", "/api/v1/{flock}/{type}/{id}/recalc", `/api/v1/alpha/person/${people.ada}/recalc/`, k],
      ["GET", "/api/v1/{flock}/{type}/{id}/display", `/api/v1/alpha/person/${people.ada}/display/`, k],
      ["GET", "/api/v2/{flock}/{type}/{id}/display", `/api/v2/alpha/person/${people.ada}/display/`, k],
      ["POST", "/api/v2/{flock}/{type}/{id}/restore", `/api/v2/alpha/journal/${deleted}/restore/`, k],
      ["POST", "/api/v1/{flock}/{type}/{id}/restore", `/api/v1/alpha/journal/${journal}/restore/`, k],
      ["PUT", "/api/v1/{flock}/{type}/{id}/obfuscate", `/api/v1/alpha/journal/${journal}/obfuscate/`, k],
      ["DELETE", "/api/v1/{flock}/{type}/{id}", `/api/v1/alpha/journal/${journal}/`, k],
      ["GET", "/api/v2/{flock}/member/{id}/card", `${card.pathname}${card.search}`],
      ["GET", "/api/v2/{flock}/member/{id}/card", `/api/v2/alpha/member/${people.adaMember}/card/`],
      ["GET", "/api/v2/selfservice/{flock}/reservations", "/api/v2/selfservice/alpha/reservations/", m],
      ["GET", "/selfservice/v2/{flock}/reservation/{id}", `/selfservice/v2/alpha/reservation/${booking}/`, m],
      ["DELETE", "/api/v2/selfservice/{flock}/reservation/{id}", `/api/v2/selfservice/alpha/reservation/${booking}/?cancellation_reason=ill`, m],
      ["DELETE", "/api/v2/selfservice/{flock}/reservation/{id}", `/api/v2/selfservice/alpha/reservation/${booking}/`, m],
      ["GET", "/api/v1/{flock}", "/api/v1/alpha/", { key: KEYS.bob }],
      ["DELETE", "/api/v1/{flock}/user/auth", "/api/v1/alpha/user/auth/", m],
      ["GET", "/api/v1/_clock", "/api/v1/_clock/", k],
      ["POST", "/api/v1/_clock/advance", "/api/v1/_clock/advance/", { ...k, json: { days: 14 } }],
      ["POST", "/api/v1/_clock/advance", "/api/v1/_clock/advance/", { ...k, json: { days: -1 } }],
      ["GET", "/api/v1/_clock", "/api/v1/_clock/", { key: KEYS.alice }],
      // History after the writes above: entries with users, applications and changed fields.
      ["GET", "/audit/v2/{flock}/{type}/{uid}/audit", `/audit/v2/alpha/person/${people.grace}/audit`, k],
      ["GET", "/audit/v2/{flock}/{type}/{uid}/audit", `/audit/v2/alpha/journal/${journal}/audit?limit=2`, k],
      ["GET", "/audit/v2/{flock}/audit", "/audit/v2/alpha/audit?limit=50", k],
      ["GET", "/audit/v2/{flock}/audit", "/audit/v2/alpha/audit?from=2026-02-30", k],
      ["GET", "/api/v2/{flock}/{type}/{id}/provenance", `/api/v2/alpha/person/${people.grace}/provenance`, k],
      ["GET", "/api/v1/{flock}/{type}/{id}/provenance", `/api/v1/alpha/journal/${journal}/provenance`, k],
      // Issue 21: form responses and member accounts.
      ["GET", "/api/v1/{flock}/form/{uid}/responses", `/api/v1/alpha/form/${form}/responses/?limit=50`, k],
      ["GET", "/api/v2/{flock}/form/{uid}/responses", `/api/v2/alpha/form/${form}/responses/`, k],
      ["GET", "/api/v2/{flock}/form/{uid}/responses", `/api/v2/alpha/form/${form}/responses/?page_size=abc`, k],
      ["GET", "/api/v1/{flock}/sheep_form/{uid}/responses", `/api/v1/alpha/sheep_form/${form}/responses/`, k],
      ["POST", "/selfservice/v2/{flock}/form_response", "/selfservice/v2/alpha/form_response", { ...k, json: { form_ref: `/alpha/form/${form}/`, quantity: 2 } }],
      ["POST", "/selfservice/v2/{flock}/form_response", "/selfservice/v2/alpha/form_response?quantity=51", { ...k, json: { form_ref: `/alpha/form/${form}/` } }],
      ["PUT", "/selfservice/v2/{flock}/form_response/{uid}/allocate", `/selfservice/v2/alpha/form_response/${formResponse}/allocate`, { ...k, json: { contact_ref: `/alpha/person/${people.ada}/` } }],
      ["DELETE", "/selfservice/v2/{flock}/form_response/{uid}/allocate", `/selfservice/v2/alpha/form_response/${formResponse}/allocate`, k],
      // (The member's session ended above: core keys here.)
      ["GET", "/selfservice-pdf/v2/{flock}/giving/taxyear/{startyear}/{endyear}/pdf", `/selfservice-pdf/v2/alpha/giving/taxyear/2025/2026/pdf?person_uri=/alpha/person/${people.ada}/`, k],
      ["GET", "/selfservice-pdf/v2/{flock}/giving/taxyear/{startyear}/{endyear}/pdf", "/selfservice-pdf/v2/alpha/giving/taxyear/2025/2027/pdf", k],
      ["GET", "/selfservice-pdf/v2/{flock}/{resource_type}/{uid}/invoice/{signature}/pdf", invoicePdf, {}],
      ["GET", "/selfservice-pdf/v2/{flock}/{resource_type}/{uid}/invoice/{signature}/pdf", `${invoicePdf}?template=letter`, {}],
      ["POST", "/api/v1/{flock}/user/preauth", "/api/v1/alpha/user/preauth/", { json: { email: "member@example.org" } }],
      ["POST", "/api/v1/{flock}/user/preauth", "/api/v1/alpha/user/preauth/", { json: { email: "nobody@example.org" } }],
      ["GET", "/api/v1/{flock}/user", "/api/v1/alpha/user/?email=member@example.org", k],
      ["GET", "/api/v1/{flock}/user/{username}", "/api/v1/alpha/user/member@example.org/", k],
      ["GET", "/api/v1/{flock}/user/{username}", "/api/v1/alpha/user/new@example.org/", k],
      ["GET", "/api/v1/{flock}/user/{username}/person", "/api/v1/alpha/user/member@example.org/person/", k],
      ["GET", "/search/v2/{flock}", "/search/v2/alpha?q=ada", k],
      // Issue 21, P3: the internal paths served, the vehicle search and the documented 501s.
      ["GET", "/internal/v2/{flock}/membership_type/{uid}/extras", `/internal/v2/alpha/membership_type/${membershipType}/extras`, k],
      ["POST", "/internal/v2/{flock}/membership_type/{uid}/extras/additional_field", `/internal/v2/alpha/membership_type/${membershipType}/extras/additional_field`, { ...k, json: { label: "Size", description: "Shirt size", form_type: "select", options: ["S", "M"] } }],
      ["POST", "/internal/v2/{flock}/membership_type/{uid}/extras/additional_field", `/internal/v2/alpha/membership_type/${membershipType}/extras/additional_field`, { ...k, json: { label: "Size" } }],
      ["POST", "/internal/v2/{flock}/membership_type/{uid}/extras/condition", `/internal/v2/alpha/membership_type/${membershipType}/extras/condition`, { ...k, json: { key: "Age", value: "Under 18" } }],
      ["DELETE", "/internal/v2/{flock}/membership_type/{uid}/extras/condition", `/internal/v2/alpha/membership_type/${membershipType}/extras/condition?key=Age`, k],
      ["DELETE", "/internal/v2/{flock}/membership_type/{uid}/extras/additional_field", `/internal/v2/alpha/membership_type/${membershipType}/extras/additional_field?field=size`, k],
      ["POST", "/internal/v2/{flock}/email_senders", "/internal/v2/alpha/email_senders", { ...k, json: { email: "news@example.org", display_name: "News", products: ["events"], allow_for_all_users: true, specific_user_list: [] } }],
      ["POST", "/internal/v2/{flock}/email_senders", "/internal/v2/alpha/email_senders", { ...k, json: { email: "news@example.org", display_name: "News", products: ["events"], allow_for_all_users: true, specific_user_list: [] } }],
      ["GET", "/internal/v2/{flock}/email_senders", "/internal/v2/alpha/email_senders", k],
      ["GET", "/internal/v2/{flock}/email_sender/{uid}", `/internal/v2/alpha/email_sender/${sender}`, k],
      ["PUT", "/internal/v2/{flock}/email_sender/{uid}", `/internal/v2/alpha/email_sender/${sender}`, { ...k, json: { display_name: "Office" } }],
      ["DELETE", "/internal/v2/{flock}/email_sender/{uid}", `/internal/v2/alpha/email_sender/${sender}`, k],
      ["GET", "/search/v2/{flock}/car", "/search/v2/alpha/car?registration_number=ab12cde", k],
      ["GET", "/search/v2/{flock}/car", "/search/v2/alpha/car", k],
      ["GET", "/search/v2/{flock}/car", "/search/v2/beta/car?registration_number=x", k],
      ["POST", "/internal/v2/{flock}/user_policy/standard", "/internal/v2/alpha/user_policy/standard", k],
      ["POST", "/internal/v2/{flock}/sync/{partner}/{action}/{data_type}", "/internal/v2/alpha/sync/xero/push/invoice", k],
      ["POST", "/internal/v2/{flock}/sync/{partner}/{action}/{data_type}", "/internal/v2/alpha/sync/nobody/push/invoice", k],
      ["POST", "/internal/v2/system/build/warehouse/{facet}", "/internal/v2/system/build/warehouse/person", k],
      ["POST", "/internal/v2/system/build/warehouse/{facet}", "/internal/v2/system/build/warehouse/person", { key: KEYS.alice }],
      ["GET", "/search/v2/{flock}/help", "/search/v2/alpha/help?q=x", k],
      ["GET", "/public/v2/{flock}/web", "/public/v2/alpha/web?path=/", {}],
    ];
    // A probe of every documented operation: path parameters filled, no credentials.
    const fill: Record<string, string> = { flock: "alpha", type: "journal", id: "0".repeat(24), fileId: "0".repeat(24), filename: "a.txt", file: "none.js" };
    for (const op of documentedOperations(doc)) {
      const [method, template] = op.split(" ") as [string, string];
      samples.push([method, template, template.replace(/\{(\w+)\}/g, (_, p: string) => fill[p]!), {}]);
    }
    const problems: string[] = [];
    const statuses = new Map<string, Set<number>>();
    for (const [method, template, path, opts] of samples) {
      const res = await t.call(method, path, opts);
      const type = res.headers.get("content-type") ?? "";
      const body = type.includes("json") ? await res.json() : await res.text();
      const problem = check(method, template, res.status, type.includes("json") ? body : undefined);
      if (problem) problems.push(problem);
      const seen = statuses.get(`${method} ${template}`) ?? new Set();
      statuses.set(`${method} ${template}`, seen.add(res.status));
    }
    expect(problems).toEqual([]);
    // The samples reached successes, not only errors.
    for (const op of [
      "POST /api/v1/_clock/advance",
      "POST /api/v1/{flock}/{type}",
      "GET /api/v1/{flock}/{type}",
      "GET /api/v2/{flock}/member/{id}/card",
      "POST /api/v1/{flock}/user/auth",
      "GET /audit/v2/{flock}/{type}/{uid}/audit",
      "GET /audit/v2/{flock}/audit",
      "GET /api/v2/{flock}/{type}/{id}/provenance",
      "GET /api/v1/{flock}/form/{uid}/responses",
      "POST /api/v1/{flock}/user/preauth",
      "GET /api/v1/{flock}/user",
      "GET /api/v1/{flock}/user/{username}",
      "GET /api/v1/{flock}/user/{username}/person",
      "GET /internal/v2/{flock}/membership_type/{uid}/extras",
      "POST /internal/v2/{flock}/membership_type/{uid}/extras/additional_field",
      "DELETE /internal/v2/{flock}/membership_type/{uid}/extras/additional_field",
      "POST /internal/v2/{flock}/email_senders",
      "PUT /internal/v2/{flock}/email_sender/{uid}",
      "DELETE /internal/v2/{flock}/email_sender/{uid}",
      "GET /search/v2/{flock}/car",
      "POST /selfservice/v2/{flock}/form_response",
      "PUT /selfservice/v2/{flock}/form_response/{uid}/allocate",
      "DELETE /selfservice/v2/{flock}/form_response/{uid}/allocate",
      "GET /selfservice-pdf/v2/{flock}/giving/taxyear/{startyear}/{endyear}/pdf",
      "GET /selfservice-pdf/v2/{flock}/{resource_type}/{uid}/invoice/{signature}/pdf",
    ]) {
      expect([...statuses.get(op)!].some((s) => s < 300), op).toBe(true);
    }
    // The P3 refusals reached their documented 501.
    for (const op of ["POST /internal/v2/{flock}/user_policy/standard", "POST /internal/v2/{flock}/sync/{partner}/{action}/{data_type}", "POST /internal/v2/system/build/warehouse/{facet}", "GET /search/v2/{flock}/help", "GET /public/v2/{flock}/web"]) {
      expect(statuses.get(op)?.has(501), op).toBe(true);
    }
  });
});
