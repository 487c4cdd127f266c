/**
 * @module types
 * Names for the generated types (generated/api.ts) as the client uses them, and the record
 * types whose data is known: person (every field typed), data_event and core_event (tasks).
 */
import type { components } from "./generated/api.js";

/** Every schema of the server's OpenAPI document. */
export type Schemas = components["schemas"];

export type PersonData = Schemas["PersonData"];
export type PersonFields = Schemas["PersonFields"];
export type ErrorV1 = Schemas["ErrorV1"];
export type ErrorV2 = Schemas["ErrorV2"];

/** A data event's fields (contract: "Data events are records of resource type data_event"). */
export interface DataEventData {
  name: string;
  event: string;
  variation: string | null;
  fire_at: string;
  context_ref: string | null;
  tags: string[] | null;
  expires_at: string | null;
  [field: string]: unknown;
}

/** A task record's fields (`core_event`): `tag` is its state, `text_body` its summary. */
export interface TaskData {
  task: string;
  tag: "queued" | "running" | "complete" | "failed";
  text_body: string;
  matched: number;
  changed: number;
  unchanged: number;
  errors: number;
  error: string | null;
  [field: string]: unknown;
}

/** The resource types whose data the client knows; any other type has open data. */
export interface KnownTypes {
  person: { data: PersonData; input: PersonFields };
  data_event: { data: DataEventData; input: { tags?: string[] | null } };
  core_event: { data: TaskData; input: never };
}

/** The data of a record of type `T`. */
export type DataOf<T extends string> = T extends keyof KnownTypes ? KnownTypes[T]["data"] : Record<string, unknown>;
/** What a create or update of type `T` accepts. */
export type InputOf<T extends string> = T extends keyof KnownTypes ? KnownTypes[T]["input"] : Record<string, unknown>;

/** The single-record envelope with typed data. */
export type RecordEnvelope<T extends string> = Omit<Schemas["Envelope"], "data"> & { data: DataOf<T> };
/** One element of a list page with typed data. */
export type ListElement<T extends string> = Omit<Schemas["ListElement"], "data"> & { data: DataOf<T> };
/** One page of a list. */
export type ListPage<T extends string> = Omit<Schemas["ListWrapper"], "results"> & { results: ListElement<T>[] };
