import { chromium } from "playwright";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const context = await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: "e2e/.auth/owner.json" });
const page = await context.newPage();
const paths = process.argv.slice(2);
for (const path of paths) {
  await page.goto(`http://localhost:3103${path}`, { waitUntil: "networkidle" });
  await page.waitForTimeout(500);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const name = path.replaceAll("/", "-");
  for (let y = 0, i = 0; y < height && i < 8; y += 1200, i++) {
    await page.screenshot({ path: `/tmp/wt-phone-shots/${name}-${i}.png`, fullPage: true, clip: { x: 0, y, width: 390, height: Math.min(1200, height - y) } });
  }
  console.log(path, height);
}
await browser.close();
