/**
 * @module gateway/values
 * Typed reads of gateway parameters beyond text: booleans and lists, from the query string
 * (`?flag=true`, `?item=a&item=b` or `?item=a,b`) or a JSON or form body. A value that is
 * not of the type is a 400 naming the parameter.
 */
import { badRequest } from "@records-service/core";
import type { GatewayParams } from "./params.js";

/**
 * A boolean parameter: `true/false`, `1/0`, `yes/no`, `on/off` (any case), or a JSON boolean;
 * `fallback` when absent.
 *
 * @example
 * booleanParam(params, "required", false) // true for ?required=true
 */
export function booleanParam(params: GatewayParams, name: string, fallback: boolean): boolean;
export function booleanParam(params: GatewayParams, name: string): boolean | undefined;
export function booleanParam(params: GatewayParams, name: string, fallback?: boolean): boolean | undefined {
  if (!params.has(name)) return fallback;
  const raw = params.get(name);
  const value = raw === undefined ? undefined : _BOOLEANS[raw.trim().toLowerCase()];
  if (value === undefined) throw badRequest(`bad ${name}`, `${name} must be true or false`);
  return value;
}

/**
 * A list parameter: repeated query values, a JSON array of scalars, or one comma-separated
 * text; empty entries dropped; undefined when absent. A JSON value that is neither a scalar
 * nor an array of scalars is a 400.
 *
 * @example
 * listParam(params, "products") // ["events", "crm"] for ?products=events,crm
 */
export function listParam(params: GatewayParams, name: string): string[] | undefined {
  if (!params.has(name)) return undefined;
  const raw = params.value(name);
  if (raw !== null && typeof raw === "object" && (!Array.isArray(raw) || raw.some((x) => x !== null && typeof x === "object"))) {
    throw badRequest(`bad ${name}`, `${name} must be a list of texts`);
  }
  return params
    .all(name)
    .flatMap((s) => s.split(","))
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

// --- internal ---

const _BOOLEANS: Readonly<Record<string, boolean>> = { true: true, false: false, "1": true, "0": false, yes: true, no: false, on: true, off: false };
