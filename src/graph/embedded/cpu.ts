import fs from 'node:fs';

/**
 * CPU time (user + system) a process has used so far, in milliseconds, from Linux's
 * /proc/<pid>/stat; null where that is not readable (another OS, the process gone). For figures
 * such as what the plan warm-up cost the embedded Neo4j.
 */
export function processCpuMs(pid: number): number | null {
  return statCpuMs(`/proc/${pid}/stat`);
}

/**
 * The same from any file in /proc's stat format: a process's, or one of its threads'
 * (/proc/<pid>/task/<tid>/stat); null where it is not readable.
 */
export function statCpuMs(file: string): number | null {
  try {
    const stat = fs.readFileSync(file, 'utf8');
    // Fields 14 and 15 (utime, stime, in clock ticks of 1/100 s) after the parenthesised command.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : null;
  } catch {
    return null;
  }
}
