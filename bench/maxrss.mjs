// Preloaded with `node --import bench/maxrss.mjs` when /usr/bin/time is missing: writes the process's peak RSS (KiB) to $BENCH_MAXRSS_FILE at exit.
import { writeFileSync } from 'node:fs';

const target = process.env.BENCH_MAXRSS_FILE;
if (target) {
  process.on('exit', () => {
    writeFileSync(target, `${process.resourceUsage().maxRSS}\n`);
  });
}
