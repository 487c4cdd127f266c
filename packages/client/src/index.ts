/**
 * @module @records-service/client
 * A typed client for the Records Service API. Types come from the server's OpenAPI document
 * (generated/api.ts, openapi-typescript); this layer adds login, paging, tasks, retries.
 */
export { createClient, type ClientOptions, type Credentials, type RecordsClient, type SelfServiceApi, type FormsApi, type MembersApi, type ClockApi, type BulkAction } from "./client.js";
export { RecordsApiError } from "./errors.js";
export { ChangeHandlerError, toChange, type Change, type ChangeData, type ChangesApi, type SubscribeOptions, type Subscription } from "./changes.js";
export type { EventsApi, InvoicesApi, BookingState, AttendanceStatus, InvoiceType, InvoicePdfResourceType, GatewayPaging } from "./gateway.js";
export type { SegmentsApi, SegmentPaging, ViewContext } from "./segments.js";
export { query, Query, MODIFIERS, SMART_DATES, type Modifier, type SmartDate, type FilterValue, type MetaField } from "./query.js";
export type { RecordsApi, FileUpload, Surface } from "./records.js";
export type { Task, TaskProgress, WaitOptions } from "./tasks.js";
export type { RetryOptions } from "./http.js";
export type {
  Schemas,
  PersonData,
  PersonFields,
  ErrorV1,
  ErrorV2,
  DataEventData,
  TaskData,
  KnownTypes,
  DataOf,
  InputOf,
  RecordEnvelope,
  ListElement,
  ListPage,
} from "./types.js";
export type { paths, components, operations } from "./generated/api.js";
