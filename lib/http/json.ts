/** A JSON response; the wrapper adds X-Request-ID and CORS headers. */
export const json = (data: unknown, init?: ResponseInit) => Response.json(data, init);

/** 204 for DELETEs and other answers with no body. */
export const noContent = () => new Response(null, { status: 204 });
