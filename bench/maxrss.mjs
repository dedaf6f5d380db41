// Preloaded with `node --import ./bench/maxrss.mjs` when /usr/bin/time is missing: writes peak RSS (KiB), user and system CPU (s) to $BENCH_MAXRSS_FILE at exit.
import { writeFileSync } from 'node:fs';

const target = process.env.BENCH_MAXRSS_FILE;
if (target) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(target, `${usage.maxRSS} ${usage.userCPUTime / 1e6} ${usage.systemCPUTime / 1e6}\n`);
  });
}
