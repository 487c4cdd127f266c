/**
 * @module http/surface
 * The API surfaces (`/api/v1`, `/api/v2`): what routes and their OpenAPI descriptions both
 * name, so it lives below both.
 */

/** Which API surface a route set serves: decides the query modifiers accepted. */
export type Surface = "v1" | "v2";
