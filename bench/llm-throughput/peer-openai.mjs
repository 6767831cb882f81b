// A peer client for bench/llm-throughput: the official `openai` npm
// package (v4) with p-limit for the concurrency, N chat requests with at
// most C in flight, the same bodies as driver.c --bare. Prints the
// driver's JSON line. Installed by `run` under its --work folder.
import OpenAI from "openai";
import pLimit from "p-limit";
import http from "node:http";

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, word, i, all) =>
  word.startsWith("--") ? [...pairs, [word.slice(2), all[i + 1]]] : pairs, []));
const concurrency = Number(args.concurrency ?? 8);
const requests = Number(args.requests ?? 2000);
const client = new OpenAI({
  baseURL: args["base-url"], apiKey: "none", maxRetries: 0,
  httpAgent: new http.Agent({ keepAlive: true, maxSockets: concurrency }),
});
const limit = pLimit(concurrency);
let ok = 0, failed = 0, firstError = null;
const start = process.hrtime.bigint();
await Promise.all(Array.from({ length: requests }, (_, i) => limit(async () => {
  try {
    const reply = await client.chat.completions.create({
      model: "bench-model", temperature: 0.0,
      messages: [{ role: "user", content: `Request ${i} of the throughput benchmark: say something.` }],
    });
    if (!reply.choices[0].message.content) throw new Error("empty reply");
    ok++;
  } catch (e) {
    failed++;
    firstError ??= String(e);
  }
})));
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
console.log(JSON.stringify({ requests, ok, failed, seconds, requests_per_second: requests / seconds,
                             http_requests: requests, retries: 0, first_error: firstError }));
process.exit(failed === 0 ? 0 : 1);
