import fs from "node:fs";
import os from "node:os";

/**
 * The lowest CPU priority for this process, and for its session's group as a whole where Linux
 * groups processes by session ("autogroup"): a process forked in a session of its own then takes
 * only the CPU the others leave (docs/features/log-streams.md#delivery).
 */
export function lowestPriority(): void {
  os.setPriority(os.constants.priority.PRIORITY_LOW);
  try {
    fs.writeFileSync("/proc/self/autogroup", String(os.constants.priority.PRIORITY_LOW));
  } catch {
    // A kernel without autogroups (or not Linux): the process's own priority is what there is.
  }
}
