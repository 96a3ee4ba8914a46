/** The request header proxy.ts sets to the page's own path and query (a client's own is replaced). */
export const REQUEST_PATH_HEADER = "x-request-path";
