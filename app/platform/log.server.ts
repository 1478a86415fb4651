/**
 * The request logger: every line a request writes carries its id (the platform's `cf-ray` when
 * present, else a random one), and the Worker returns that id as the `x-request-id` header, so a
 * guest's report or a failed response leads straight to its log lines.
 */

export interface Logger {
  readonly requestId: string;
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

/** The header that carries the request id back to the client. */
export const REQUEST_ID_HEADER = "x-request-id";

const REQUEST_ID = /^[A-Za-z0-9-]{1,64}$/;

/** The id of a request: its `cf-ray` (shape-checked: it is echoed back), else a random one. */
export function requestIdOf(request: Request): string {
  const ray = request.headers.get("cf-ray");
  return ray && REQUEST_ID.test(ray) ? ray : crypto.randomUUID();
}

export function createLogger(requestId: string): Logger {
  const tag = `[${requestId}]`;
  return {
    requestId,
    info: (message, ...details) => console.log(tag, message, ...details),
    warn: (message, ...details) => console.warn(tag, message, ...details),
    error: (message, ...details) => console.error(tag, message, ...details),
  };
}

/**
 * A `.catch` for a part of a page the page can do without (a footer link, a "from" price): the
 * failure is logged, and the page gets `fallback` instead.
 */
export function fallbackOnError<T>(log: Logger, what: string, fallback: () => T): (error: unknown) => T {
  return (error) => {
    log.warn(`${what} left out: it could not be loaded`, error);
    return fallback();
  };
}
