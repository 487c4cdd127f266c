/**
 * @module gateway/segments/config
 * A segment's config (spec v2-gateway 7, `segment/{uid}/config`): how a client shows its
 * members. `field_list` is the first fieldset that applies to the segment's type, else the
 * type's known fields (a person's schema; another type's stored field names).
 */
import { CONTACT_TYPE, CONTACT_TYPES, type StoredRecord } from "@records-service/core";
import { uriOf } from "../read-all.js";
import { fieldLabel, typeFields, type FieldKind } from "./fields.js";
import { fieldsetsOf, fieldsOf } from "./fieldsets.js";
import { segmentPacket } from "./packet.js";
import type { RouteEngine } from "../../http/route-engine.js";

/**
 * The config answer of `segment`.
 *
 * @example
 * await segmentConfig(engine, segment) // { segment: "/demo/segment/…/", resource_type: "person", mapping: {...}, ... }
 */
export async function segmentConfig(engine: RouteEngine, segment: StoredRecord): Promise<Record<string, unknown>> {
  const packet = segmentPacket(segment);
  const type = String(packet.resource_type);
  const flock = segment.flock;
  const known = await typeFields(engine, flock, type);
  const fieldset = (await fieldsetsOf(engine, flock, type)).find((f) => fieldsOf(f).length > 0);
  const fieldList = fieldset ? fieldsOf(fieldset) : [...known.keys()];
  const contact = type === CONTACT_TYPE || CONTACT_TYPES.includes(type);
  const singular = type === CONTACT_TYPE ? "contact" : fieldLabel(type).toLowerCase();
  const plural = type === "person" ? "people" : `${singular}s`;
  return {
    segment: uriOf(segment),
    resource_type: type,
    segment_type: packet.segment_type,
    view_context: packet.view_context,
    user_groups: [],
    user_groups_for_display: [],
    user_interface: { ...(packet.user_interface as Record<string, unknown>), can_bypass_gdpr: [] },
    mapping: {
      collection: type,
      name: plural,
      name_singular: singular,
      prefix: `/${flock}/${type}/`,
      unique_field: "uri",
      search_fields: ["display_value"],
      search_placeholder: `Search ${plural}`,
      sort_by: type === "person" ? "sortable_name" : "display_value",
      field_list: fieldList,
      fields: fieldList.map((field) => ({ field, form_type: _FORM_TYPES[known.get(field) ?? "text"], label: fieldLabel(field), style: null })),
      join_people: type === "person" || type === CONTACT_TYPE,
      join_orgs: type === "organisation" || type === CONTACT_TYPE,
      use_mapreduce: false,
      contact_field: contact ? null : (fieldList.find((f) => _CONTACT_FIELDS.includes(f)) ?? null),
      contact_search_fields: contact ? ["display_value", "email"] : [],
    },
  };
}

// --- internal ---

/** The form control that edits each kind of field. */
const _FORM_TYPES: Readonly<Record<FieldKind, string>> = {
  text: "text",
  boolean: "checkbox",
  date: "date",
  list: "list",
  reference: "reference",
  number: "number",
};

/** Field names that hold the contact a record is about, in the order looked for. */
const _CONTACT_FIELDS: readonly string[] = ["contact_ref", "person_ref", "member_ref", "person", "contact"];
