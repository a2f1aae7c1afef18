// Verifies received webhook deliveries with the standardwebhooks package of npm, an independent
// Standard Webhooks implementation, for the webhook tests.
// Usage: WEBHOOK_SECRET=whsec_... node verify-webhooks.mjs deliveries.json
// deliveries.json: [{"headers": {"webhook-id": ..., "webhook-timestamp": ..., "webhook-signature": ...}, "body": "..."}]
// Prints one JSON array on stdout: per delivery, the verified payload or {"error": why}.
import { readFileSync } from "node:fs";
import { Webhook } from "standardwebhooks";

const deliveries = JSON.parse(readFileSync(process.argv[2], "utf8"));
const wh = new Webhook(process.env.WEBHOOK_SECRET); // as `webhooks create` printed it
const results = deliveries.map((d) => {
  try {
    return wh.verify(d.body, d.headers);
  } catch (e) {
    return { error: String(e.message || e) };
  }
});
process.stdout.write(JSON.stringify(results));
