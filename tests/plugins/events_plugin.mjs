// A taxogen plugin for the tests, in JavaScript: the events table as TypeScript.
// It reads the model document on stdin and answers with events.ts (one entry per
// event type and where its error sits) and a warning when there are no events.
import { readFileSync } from "node:fs";

const model = JSON.parse(readFileSync(0, "utf8"));
const entries = model.events.map(
  (e) => `  ${JSON.stringify(e.type)}: ${JSON.stringify(e.location)},\n`,
);
const content =
  `// From ${model.name} ${model.version}.\n` +
  `export const EVENTS = {\n${entries.join("")}} as const;\n`;
const diagnostics =
  model.events.length === 0
    ? [{ severity: "warning", message: "the taxonomy declares no events" }]
    : [];
process.stdout.write(
  JSON.stringify({ files: [{ path: "ts/events.ts", content }], diagnostics }),
);
