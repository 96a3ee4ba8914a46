import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The README and docs/ are read on their own, from a clone: every relative link must lead to a
 * file of the repository (and a #fragment to one of its headings), and nothing may send the
 * reader outside it to a contract they do not have.
 */
const root = path.resolve(import.meta.dirname, "../..");

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith(".md") ? [full] : [];
  });
}

const files = [path.join(root, "README.md"), ...markdownFiles(path.join(root, "docs"))];

/** Markdown outside fenced code blocks. */
function outsideFences(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, "");
}

/** Markdown outside code of either kind, where a link is a link. */
function prose(text: string): string {
  return outsideFences(text).replace(/`[^`\n]*`/g, "");
}

/** `[text](target)` links, without their optional title. */
function linksOf(text: string): string[] {
  return [...prose(text).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, "")
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(file: string): Set<string> {
  const headings = outsideFences(fs.readFileSync(file, "utf8")).match(/^#{1,6} .+$/gm) ?? [];
  return new Set(headings.map((line) => anchorOf(line.replace(/^#+ /, ""))));
}

function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const link of linksOf(fs.readFileSync(file, "utf8"))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:: outside the repository by intent
    const [target = "", fragment] = link.split("#");
    const resolved = target === "" ? file : path.resolve(path.dirname(file), decodeURIComponent(target));
    if (!resolved.startsWith(root + path.sep) && resolved !== root) broken.push(`${link} (outside the repository)`);
    else if (!fs.existsSync(resolved)) broken.push(`${link} (no such file)`);
    else if (fragment && resolved.endsWith(".md") && !anchorsOf(resolved).has(fragment)) broken.push(`${link} (no such heading)`);
  }
  return broken;
}

describe("the README and docs/", () => {
  it.each(files.map((file) => [path.relative(root, file), file]))("%s: every relative link resolves", (_name, file) => {
    expect(brokenLinks(file)).toEqual([]);
  });
});

/** A citation of the product contract kept outside the repository, which a clone does not have. */
const outsideCitation = /SPEC \u00a7|shared\/SPEC|\.\.\/shared/;

describe("every tracked file", () => {
  it("cites nothing outside the repository: comments, tests and docs point at docs/", () => {
    const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" }).split("\0");
    const outside = tracked
      .filter((file) => file !== "" && !file.startsWith("node_modules/") && fs.existsSync(path.join(root, file)))
      .flatMap((file) =>
        fs
          .readFileSync(path.join(root, file), "utf8")
          .split("\n")
          .flatMap((line, index) => (outsideCitation.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
      );
    expect(outside).toEqual([]);
  });
});
