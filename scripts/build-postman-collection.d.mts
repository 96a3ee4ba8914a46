// The types of build-postman-collection.mjs, plain JavaScript so that scripts/build.mjs runs it with plain node.
export const POSTMAN_COLLECTION_FILE: string;
export function buildPostmanCollection(root: string, file: string): void;
