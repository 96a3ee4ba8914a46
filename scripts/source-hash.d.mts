// The types of source-hash.mjs, plain JavaScript so that `npm start` runs it with plain node.
export function sourceHash(root: string): string;
export function isCurrent(stampFile: string, hash: string): boolean;
