/**
 * @module gateway/segments/packet
 * The segment packet (vendor `single_segment`, spec v2-gateway 3.2) from a `segment`
 * record, with the defaults of 3.1 filled in.
 */
import type { StoredRecord } from "@records-service/core";
import { uriOf } from "../read-all.js";

/** True unless the segment's `active` is false (or the text "false"). */
export function isActiveSegment(segment: Pick<StoredRecord, "data">): boolean {
  const a = segment.data.active;
  return !(a === false || (typeof a === "string" && a.trim().toLowerCase() === "false"));
}

/**
 * The segment packet.
 *
 * @example
 * segmentPacket(record) // { uid, uri, name, ..., user_interface: {...} }
 */
export function segmentPacket(segment: StoredRecord): Record<string, unknown> {
  const d = segment.data;
  const system = d.system_segment === true;
  const list = (v: unknown) => (Array.isArray(v) ? v : typeof v === "string" && v !== "" ? [v] : []);
  return {
    uid: segment.id,
    uri: uriOf(segment),
    name: typeof d.name === "string" ? d.name : null,
    description: typeof d.description === "string" ? d.description : null,
    display_value: segment.displayValue,
    resource_type: typeof d.resource_type === "string" ? d.resource_type : null,
    segment_type: typeof d.segment_type === "string" && d.segment_type !== "" ? d.segment_type : "dynamic",
    rules: d.rules ?? {},
    uris_include: list(d.uris_include),
    uris_exclude: list(d.uris_exclude),
    active: isActiveSegment(segment),
    view_context: list(d.view_context),
    parent_segment: typeof d.parent_segment === "string" ? d.parent_segment : null,
    tags: list(d.tags),
    system_segment: system,
    legacy_uid: d.legacy_uid ?? null,
    email_marketing_sync: d.email_marketing_sync === true,
    record_state: segment.state,
    created: segment.created,
    last_updated: segment.lastUpdated,
    user_interface: {
      can_create_segment: true,
      can_edit_segment: !system,
      can_delete_segment: !system,
      can_restore_segment: true,
      policy_name: null,
    },
  };
}
