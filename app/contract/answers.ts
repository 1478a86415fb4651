/**
 * The built-in back end's answers, handed over in process as values (decision 131).
 *
 * A successful answer of the built-in back end is made as a value (`jsonAnswer`), and its JSON text
 * is written only where a body is read: over HTTP, for a cache, for a test. Called in process by the
 * site's own client, the answer is handed over as it is: no `JSON.stringify` in the back end and no
 * `JSON.parse` in the site. The client validates the value with the same schema as a parsed text,
 * so the contract holds either way.
 *
 * An answer not yet written has no body: only a caller that asked for values gets one (the
 * in-process transport, `handOver` in `handleBackendRequest`), and whatever reads its body reads
 * it through `answerText` or `writtenOut`.
 *
 * A value handed over must be JSON data: plain objects and arrays, strings, finite numbers,
 * booleans and null. `test/worker/client.test.ts` holds the back end's answers to that: each one
 * handed over is the same as its text parsed.
 */

const VALUES = new WeakMap<Response, unknown>();

/** A JSON answer of `value`, its text not written yet. */
export function jsonAnswer(value: unknown, init: ResponseInit): Response {
  const response = new Response(null, init);
  VALUES.set(response, value);
  return response;
}

/** The value of an answer not written yet, as it is; undefined for any other response. */
export function answerValue(response: Response): { value: unknown } | undefined {
  return VALUES.has(response) ? { value: VALUES.get(response) } : undefined;
}

/** The answer with its text written out (status and headers kept); any other response as it is. */
export function writtenOut(response: Response): Response {
  const answer = answerValue(response);
  return answer ? new Response(JSON.stringify(answer.value), response) : response;
}

/** The text of a response's body, written out first if it is an answer not written yet. */
export function answerText(response: Response): Promise<string> {
  const answer = answerValue(response);
  return answer ? Promise.resolve(JSON.stringify(answer.value)) : response.text();
}
