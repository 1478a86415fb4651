/**
 * The local engine's own behaviour under npm run bench:load's client (decision 129), without any of
 * Portico: each POST writes a row to D1 and answers 201. With ?after=1 it then reads D1 after the
 * answer (ctx.waitUntil), as Portico's order creation does with its confirmation email; with
 * ?after=0 the same read is awaited before the answer.
 */
let table = null;

export default {
  async fetch(request, env, ctx) {
    const body = await request.text();
    table ??= env.DB.exec("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, body TEXT, done INTEGER DEFAULT 0)");
    await table;
    await env.DB.prepare("INSERT INTO rows (body) VALUES (?)").bind(body).run();
    const read = env.DB.prepare("SELECT COUNT(*) AS waiting FROM rows WHERE done = 0").first();
    if (new URL(request.url).searchParams.get("after") === "1") ctx.waitUntil(read);
    else await read;
    return new Response("{}", { status: 201, headers: { "content-type": "application/json" } });
  },
};
